"""The typer app and what every command shares: the project folder, the settings, the console.

Commands live one per module (``run``, ``library``, ``parse``, ``matrix``, ``evaluate``,
``ui``, ``review``, ``init``) and register themselves on ``app`` / ``eval_app`` when the
package imports them. Only ``run``, ``ui`` and ``review`` reach Dagster, through
``import_launcher`` (the one seam).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

import typer
from rich.console import Console

from rfp_retrieval.settings import Settings

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Past-performance references and answer-library passages for every RFP.",
)
eval_app = typer.Typer(no_args_is_help=True, help="Measure retrieval against golden sets.")
app.add_typer(eval_app, name="eval")

console = Console(stderr=True)

ProjectOption = typer.Option(
    None, "--project", help="Project folder (holds definitions.py); default: found from cwd."
)


ConfigOption = typer.Option(
    None,
    "--config",
    help="A project folder's rfp-retrieval.yaml (from `rfp-retrieval init`): its settings win "
    "over RFP_RETRIEVAL_CONFIG. Dagster's run history then lives in its folder's "
    "var/dagster_home.",
)

CHECKOUT = Path(__file__).resolve().parents[2]
"""The folder holding the ``rfp_retrieval`` package (a checkout: definitions.py, sample/)."""


def config_file(config: Path | None) -> Path | None:
    """``--config`` as an absolute path, or None.

    Raises:
        typer.BadParameter: the file does not exist (names the fix: ``rfp-retrieval init``).
    """
    if config is None:
        return None
    config = config.expanduser().resolve()
    if not config.is_file():
        raise typer.BadParameter(
            f"{config}: no such file; create a project folder with `rfp-retrieval init DIR`",
            param_hint="--config",
        )
    return config


def project_dir(project: Path | None) -> Path:
    """The project folder (holding ``definitions.py``): ``--project``, else the nearest one
    at or above the cwd, else the checkout this package runs from.

    Raises:
        typer.BadParameter: ``--project`` has no definitions.py, or none was found.
    """
    from rfp_retrieval.settings import find_project_dir

    if project is not None:
        if not (project / "definitions.py").is_file():
            raise typer.BadParameter(f"{project} has no definitions.py", param_hint="--project")
        return project.resolve()
    found = find_project_dir()
    if found is None:
        if (CHECKOUT / "definitions.py").is_file():
            return CHECKOUT
        raise typer.BadParameter(
            "no project folder found: run inside the rfp-retrieval checkout or pass --project"
        )
    return found


def settings_failed(exc: Exception) -> NoReturn:
    """Print a settings error (it names the file or variable and the fix) and exit 2."""
    from rich.text import Text

    console.print(Text.assemble(("Settings error: ", "red"), str(exc)))
    raise typer.Exit(2) from exc


def store_failed(exc: Exception, advice: str = "") -> NoReturn:
    """Print a store error (an unreachable Postgres: its message shows the URL redacted) and
    ``advice``, and exit 2, a setup error like a bad setting."""
    from rich.text import Text

    console.print(
        Text.assemble(("Store error: ", "red"), str(exc), (f" {advice}" if advice else ""))
    )
    raise typer.Exit(2) from None


def check_store_reachable(settings: Settings) -> None:
    """Before any Dagster instance is built: create the folders a run writes
    (``settings.prepare_output_folders``: the DuckDB file's folder, ``output_dir``; exit 2
    naming the setting when one cannot be made), and for ``store: postgres`` open and close
    one connection (dagster-postgres would retry for minutes, then fail with a traceback); on
    failure print the redacted reason and what to check, and exit 2."""
    from rfp_retrieval.settings import SettingsError, prepare_output_folders

    try:
        prepare_output_folders(settings)
    except SettingsError as exc:
        settings_failed(exc)
    if settings.store != "postgres":
        return
    from rfp_retrieval.storage.postgres import PostgresStoreError, connect

    try:
        connect(settings.postgres_url).close()
    except PostgresStoreError as exc:
        store_failed(
            exc,
            "Check that the Postgres server is up and that the URL in "
            f"{settings.postgres_url_env} is right (store: {settings.store}).",
        )


def check_environment() -> None:
    """Exit 2 with the message when a variable read outside the settings holds a value it does
    not accept (``RFP_RETRIEVAL_OCR_MAX_PAGES=lots``: ``ocr.ocr_page_cap``; a language pack
    Tesseract lacks in ``RFP_RETRIEVAL_OCR_LANG``: ``ocr.ocr_language``), before any file is
    read. Every command that reads RFPs calls it (through ``load_cli_settings`` or itself).
    """
    from rfp_retrieval.documents.ocr import OcrSettingError, ocr_language, ocr_page_cap

    try:
        ocr_page_cap()
        ocr_language()
    except OcrSettingError as exc:
        settings_failed(exc)


def load_cli_settings(
    folder: Path, config: Path | None = None, overrides: dict[str, Any] | None = None
) -> Settings:
    """``load_settings`` for the project ``folder``, with the ``--config`` file (already
    checked by ``config_file``) and the commands' flags as ``overrides``; exits 2 with the
    message on a bad setting, or when ``store: postgres`` names a URL variable that is unset
    (and on a bad OCR variable: ``check_environment``)."""
    from rfp_retrieval.settings import SettingsError, load_settings

    check_environment()

    try:
        settings = load_settings(folder, overrides, config_file=config)
        if settings.store == "postgres":
            settings.postgres_url  # noqa: B018 -- raises SettingsError naming the variable
        return settings
    except SettingsError as exc:
        settings_failed(exc)


def import_launcher(folder: Path) -> ModuleType:
    """The project's ``launch`` module (beside its ``definitions.py``): the CLI's one seam
    to the Dagster layer. Imported inside the ``run`` and ``ui`` commands only, so the core
    package never imports Dagster; ``folder`` goes first on ``sys.path``."""
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    return importlib.import_module("launch")
