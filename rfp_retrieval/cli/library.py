"""``rfp-retrieval library``: the canonical library entries and the rejected rows
(``--json``: ``shapes.LibraryPayload``)."""

from __future__ import annotations

from pathlib import Path

import typer

from rfp_retrieval.cli.app import (
    ConfigOption,
    ProjectOption,
    app,
    config_file,
    console,
    load_cli_settings,
    project_dir,
)
from rfp_retrieval.cli.render import print_library
from rfp_retrieval.cli.shapes import print_json


@app.command("library")
def library_command(
    library: Path | None = typer.Option(None, help="Past-performance library folder."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    project: Path | None = ProjectOption,
    config: Path | None = ConfigOption,
) -> None:
    """Show the canonical library entries and the rejected rows."""
    config = config_file(config)
    from rich.text import Text

    from rfp_retrieval.library.ingest import load_library

    folder = library
    if folder is None:
        folder = load_cli_settings(project_dir(project), config).library_dir
    try:
        loaded = load_library(folder)
    except FileNotFoundError as exc:
        console.print(Text(f"{exc}; pass --library or set library_dir", "red"))
        raise typer.Exit(1) from exc
    rejected = [{"file": r.file, "row": r.row, "reason": r.reason} for r in loaded.rejected]
    if as_json:
        print_json({"entries": [e.to_canonical() for e in loaded.entries], "rejected": rejected})
        return
    print_library(loaded, rejected)
