"""``rfp-retrieval library``: the canonical library entries and the rejected rows
(``--json``: ``shapes.LibraryPayload``); ``library import-awards``: draft entries from federal
award records (``library.awards``).

``library`` is a typer group whose callback runs when no sub-command is given, so
``rfp-retrieval library [--library DIR] [--json]`` works exactly as before.
"""

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

library_app = typer.Typer(
    invoke_without_command=True,
    help="Show the canonical library entries and the rejected rows; `import-awards` drafts "
    "entries from federal award records.",
)
app.add_typer(library_app, name="library")


@library_app.callback(invoke_without_command=True)
def library_command(
    ctx: typer.Context,
    library: Path | None = typer.Option(None, help="Past-performance library folder."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    project: Path | None = ProjectOption,
    config: Path | None = ConfigOption,
) -> None:
    """Show the canonical library entries and the rejected rows."""
    if ctx.invoked_subcommand is not None:
        return
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
    superseded = [
        {
            "id": s.id,
            "file": s.file,
            "row": s.row,
            "last_updated": s.last_updated,
            "superseded_by_file": s.superseded_by_file,
            "superseded_by_row": s.superseded_by_row,
            "reason": s.reason,
        }
        for s in loaded.superseded
    ]
    if as_json:
        print_json(
            {
                "entries": [e.to_canonical() for e in loaded.entries],
                "rejected": rejected,
                "superseded": superseded,
            }
        )
        return
    print_library(loaded, rejected, superseded)


@library_app.command("import-awards")
def import_awards_command(
    files: list[Path] = typer.Argument(
        ..., help="USAspending / FPDS award exports (CSV, JSONL, XLSX)."
    ),
    out: Path = typer.Option(
        Path("award-drafts"), "--out", help="Folder for the draft write-ups (created)."
    ),
    overwrite: bool = typer.Option(
        False, "--overwrite", help="Replace draft files that already exist (default: keep them)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Draft library write-ups (one per award, marked "needs write-up") from award records.

    Exits 1 when no record could be imported, 2 when the --out folder cannot be written, else \
0; every unreadable record is listed with its file and row.
    """
    from rich.text import Text

    from rfp_retrieval.library.awards import DraftFolderError, import_awards, write_drafts

    result = import_awards(files)
    try:
        drafts = write_drafts(result, out, overwrite=overwrite)
    except DraftFolderError as exc:
        console.print(Text(str(exc), "red"))
        raise typer.Exit(2) from exc
    defects = {entry.id: entry.defects for entry, _ in result.drafts}
    payload = {
        "out": str(out),
        "drafts": [
            {
                "id": d.id,
                "file": str(d.path),
                "written": d.written,
                "source": d.source,
                "defects": defects.get(d.id, []),
            }
            for d in drafts
        ],
        "duplicates": [
            {
                "piid": d.piid,
                "file": d.file,
                "row": d.row,
                "kept_file": d.kept_file,
                "kept_row": d.kept_row,
            }
            for d in result.duplicates
        ],
        "rejected": [{"file": r.file, "row": r.row, "reason": r.reason} for r in result.rejected],
        "unread_columns": result.unread_columns,
    }
    if as_json:
        print_json(payload)
    else:
        written = sum(d.written for d in drafts)
        console.print(
            Text(
                f"{written} draft write-ups written to {out} ({len(drafts) - written} kept as they "
                f"were, {len(result.duplicates)} duplicate PIIDs skipped, "
                f"{len(result.rejected)} records rejected); each is marked 'needs write-up'"
            )
        )
        for duplicate in result.duplicates:
            console.print(
                Text(
                    f"  duplicate {duplicate.piid}: {duplicate.file} row {duplicate.row} "
                    f"(kept {duplicate.kept_file} row {duplicate.kept_row})"
                )
            )
        for draft in drafts:
            if defects.get(draft.id):
                shown = "; ".join(defects[draft.id])
                console.print(Text(f"  {draft.id} ({draft.source}): {shown}", "yellow"))
        for rejected in result.rejected:
            console.print(Text(f"  rejected: {rejected.reason}", "red"))
        for file, unread in result.unread_columns.items():
            console.print(
                Text(
                    f"  columns not read in {file}: {', '.join(unread)} (no award field has "
                    "that name; README: Starting a library from your contracts)",
                    "yellow",
                )
            )
    if not drafts and result.rejected:
        raise typer.Exit(1)
