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
    ``rfp-retrieval.yaml`` (nothing is overwritten), FileNotFoundError when the sample data is
    missing from ``sample_dir``.
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
    folder.mkdir(parents=True, exist_ok=True)
    created = []
    for part in ("library", "answers"):
        target = folder / part
        if not target.exists():
            shutil.copytree(sample_dir / part, target)
            created.append(target)
    for part in ("inbox", "overrides", "golden", "var"):
        target = folder / part
        if not target.exists():
            target.mkdir()
            created.append(target)
    config.write_text(config_text(Path(sample_dir).resolve().parent), encoding="utf-8")
    created.append(config)
    return created
