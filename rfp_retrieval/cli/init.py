"""``rfp-retrieval init``: a working project folder (inbox, library, answers, config)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from rfp_retrieval.cli.app import CHECKOUT, app, console


@app.command()
def init(
    folder: Path = typer.Argument(..., help="The project folder to create (new or empty)."),
) -> None:
    """Create a working project folder: inbox, library, answers, overrides and a config."""
    from rfp_retrieval.project_folder import InitError, InitFolderError, init_project
    from rfp_retrieval.retrieval.overrides import EXAMPLE_FILE_NAME, EXAMPLE_OVERRIDE_FILE

    sample = CHECKOUT / "sample"
    try:
        created = init_project(folder, sample)
    except InitFolderError as exc:  # a setup error, as an unwritable output folder of `run`
        console.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(2) from exc
    except (InitError, FileNotFoundError) as exc:
        console.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(1) from exc
    root = folder.expanduser().resolve()
    example = root / "overrides" / EXAMPLE_FILE_NAME  # inert: no run reads *.example
    example.write_text(EXAMPLE_OVERRIDE_FILE, encoding="utf-8")
    created.append(example)
    out = Console(soft_wrap=True)
    for path in created:
        out.print(Text(f"created {path}"))
    config = root / "rfp-retrieval.yaml"
    exe = Path(sys.argv[0]).resolve() if Path(sys.argv[0]).name == "rfp-retrieval" else None
    cmd = shlex.quote(str(exe)) if exe else "rfp-retrieval"
    shown = shlex.quote(str(config))  # pasted into a shell: a folder may hold spaces
    out.print("\n[bold]Next:[/bold]")
    out.print(
        Text(
            f"  1. Replace {root / 'library'} and {root / 'answers'} with your own content "
            "(the copies are the bundled samples).\n"
            f"  2. Drop an RFP into {root / 'inbox'}.\n"
            f"  3. {cmd} run --config {shown}\n"
            f"     (or: {cmd} ui --config {shown}, and turn on rfp_inbox_sensor)\n"
            f"  4. Open {root / 'output'}/<rfp>/brief.html in a browser; the compliance matrix\n"
            "     (compliance_matrix.csv / .xlsx) is written beside it.\n"
            f"  5. To swap a reference: {cmd} review --config {shown} (or copy\n"
            f"     {example} to overrides/<partition-key>.yaml and edit it)."
        )
    )
