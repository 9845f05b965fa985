"""``rfp-retrieval init DIR``: a working project folder for a proposal team.

The folder holds the team's content and a commented ``rfp-retrieval.yaml`` whose paths point
into it; the Dagster code location stays in the rfp-retrieval checkout and finds the folder
through ``RFP_RETRIEVAL_CONFIG`` (``rfp-retrieval run --config DIR/rfp-retrieval.yaml``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from rfp_retrieval.settings import CONFIG_FILE, DEFAULTS, PATH_FIELDS, SETTING_HELP

FOLDER_SETTINGS: dict[str, str] = {
    "library_dir": "library",
    "answers_dir": "answers",
    "inbox_dir": "inbox",
    "db_path": "var/rfp-retrieval.duckdb",
    "output_dir": "output",
    "overrides_dir": "overrides",
    "golden_dir": "golden",
    "model_cache_dir": "var/models",
}
"""Where ``init`` points each path setting, relative to the new folder. The golden folder is the
team's own (empty at first: the run writes ``output/golden/overrides.jsonl`` from the writers'
overrides, to copy there); pointing it at the checkout's sample broke on a moved project."""


class InitError(ValueError):
    """The target folder cannot be used (it already holds a config, or is a file)."""


class InitFolderError(InitError):
    """The target folder cannot be created or written (read-only, no permission, a file in
    the way, a full disk); the message names the folder and the reason."""


def config_text(repo_dir: Path) -> str:
    """The commented ``rfp-retrieval.yaml`` ``init`` writes (every setting, one comment each).

    Paths of ``FOLDER_SETTINGS`` are relative (they resolve against the config file's
    folder); any other path setting keeps its default, made absolute against ``repo_dir``.
    """
    lines = [
        "# rfp-retrieval settings. Relative paths are relative to this file's folder.",
        "# Any setting can also be set with an environment variable RFP_RETRIEVAL_<NAME>.",
        "",
    ]
    for name, default in DEFAULTS.items():
        value = FOLDER_SETTINGS.get(name, default)
        if name in PATH_FIELDS and name not in FOLDER_SETTINGS:
            value = str((repo_dir / default).resolve())
        lines.append(f"# {SETTING_HELP.get(name, name.replace('_', ' '))}")
        lines.append(f"{name}: {value}")
        lines.append("")
    return "\n".join(lines)


def init_project(folder: Path, sample_dir: Path) -> list[Path]:
    """Create ``folder`` with inbox/, library/ (copy of ``sample_dir/library``), answers/
    (copy of ``sample_dir/answers``), overrides/, golden/, var/ and ``rfp-retrieval.yaml``.

    Returns the created paths. Raises InitError when ``folder`` is a file or already holds
    ``rfp-retrieval.yaml`` (nothing is overwritten), ``InitFolderError`` when it cannot be
    created or written (break-it: a traceback; a sample folder is copied beside its place and
    renamed, so a failed copy never leaves a half library that a second ``init`` would keep),
    FileNotFoundError when the sample data is missing from ``sample_dir``.
    """
    folder = Path(folder).expanduser().resolve()
    config = folder / CONFIG_FILE
    if folder.is_file():
        raise InitError(f"{folder} is a file; give a new or empty folder")
    if config.exists():
        raise InitError(
            f"{config} already exists; edit it, or init another folder (nothing was changed)"
        )
    for part in ("library", "answers"):
        if not (sample_dir / part).is_dir():
            raise FileNotFoundError(f"{sample_dir / part} is missing: reinstall rfp-retrieval")
    created: list[Path] = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for part in ("library", "answers"):
            target = folder / part
            if not target.exists():
                partial = folder / f".{part}.partial"
                shutil.rmtree(partial, ignore_errors=True)
                try:
                    shutil.copytree(sample_dir / part, partial)
                    partial.rename(target)
                finally:
                    shutil.rmtree(partial, ignore_errors=True)
                created.append(target)
        for part in ("inbox", "overrides", "golden", "var"):
            target = folder / part
            if not target.exists():
                target.mkdir()
                created.append(target)
        config.write_text(config_text(Path(sample_dir).resolve().parent), encoding="utf-8")
    except OSError as exc:  # shutil.Error (an OSError) lists (source, target, reason)s
        failed = exc.args[0] if isinstance(exc, shutil.Error) and exc.args else None
        if isinstance(failed, list) and failed and len(failed[0]) == 3:
            reason = f"{failed[0][2]}; {len(failed)} file(s) not copied"
        else:
            reason = exc.strerror or str(exc) or type(exc).__name__
        made = f"; made before it: {', '.join(p.name for p in created)}" if created else ""
        raise InitFolderError(
            f"{folder}: cannot create the project folder ({reason}){made}; give a folder you "
            "can write"
        ) from exc
    created.append(config)
    return created
