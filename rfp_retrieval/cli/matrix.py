"""``rfp-retrieval matrix``: the RFP's compliance matrix (one row per question or requirement)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.text import Text

from rfp_retrieval.cli.app import app, check_environment, console


@app.command()
def matrix(
    rfp_file: Path = typer.Argument(..., help="An RFP file or a questionnaire."),
    out: Path = typer.Option(..., "--out", help="Where to write the matrix: .xlsx or .csv."),
) -> None:
    """Write the RFP's compliance matrix (one row per question or requirement) to a file."""
    from rfp_retrieval.documents.extract import load_document
    from rfp_retrieval.documents.matrix import matrix_rows, write_matrix
    from rfp_retrieval.documents.records import DocumentError

    if out.suffix.lower() not in (".xlsx", ".csv"):
        raise typer.BadParameter(f"{out}: write the matrix as .xlsx or .csv", param_hint="--out")
    if not out.parent.is_dir():  # a mistyped folder is not created silently (break-it)
        raise typer.BadParameter(
            f"{out}: the folder {out.parent} does not exist; create it or give another path",
            param_hint="--out",
        )
    check_environment()
    try:
        doc = load_document(rfp_file)
    except DocumentError as exc:
        console.print(Text(str(exc), "red"))
        raise typer.Exit(1) from exc
    rows = matrix_rows(doc)
    try:
        written = write_matrix(rows, out, doc.title)
    except OSError as exc:
        console.print(Text(f"{out}: cannot write the matrix ({exc})", "red"))
        raise typer.Exit(1) from exc
    console.print(Text(f"{len(rows)} row(s) written to {written}"))
