"""The ``rfp-retrieval`` command line: the one module of the core that drives Dagster.

``run`` materializes the pipeline's assets through Dagster (a persistent instance under the
project's ``var/dagster_home``, so the UI shows every run); ``library``, ``parse`` and
``eval`` call the core directly.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import importlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import typer
from rich.box import SIMPLE_HEAD
from rich.console import Console
from rich.markup import escape
from rich.table import Table

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Past-performance references and answer-library passages for every RFP.",
)
eval_app = typer.Typer(no_args_is_help=True, help="Measure retrieval against golden sets.")
app.add_typer(eval_app, name="eval")

console = Console(stderr=True)

# Dagster's console logger prints every event at DEBUG; the CLI prints its own summary.
QUIET_LOGS = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}

ProjectOption = typer.Option(
    None, "--project", help="Project folder (holds definitions.py); default: found from cwd."
)


ConfigOption = typer.Option(
    None,
    "--config",
    help="A project folder's rfp-retrieval.yaml (from `rfp-retrieval init`); sets "
    "RFP_RETRIEVAL_CONFIG. Dagster's run history then lives in its folder's var/dagster_home.",
)


def _use_config(config: Path | None) -> None:
    """Point the settings at ``config`` (env ``RFP_RETRIEVAL_CONFIG``) and, unless
    DAGSTER_HOME is set, keep the run history next to it."""
    if config is None:
        return
    config = config.expanduser().resolve()
    if not config.is_file():
        raise typer.BadParameter(
            f"{config}: no such file; create a project folder with `rfp-retrieval init DIR`",
            param_hint="--config",
        )
    os.environ["RFP_RETRIEVAL_CONFIG"] = str(config)
    os.environ.setdefault("DAGSTER_HOME", str(config.parent / "var" / "dagster_home"))


def _project_dir(project: Path | None) -> Path:
    from rfp_retrieval.settings import find_project_dir

    if project is not None:
        if not (project / "definitions.py").is_file():
            raise typer.BadParameter(f"{project} has no definitions.py", param_hint="--project")
        return project.resolve()
    found = find_project_dir()
    if found is None:
        candidate = Path(__file__).resolve().parents[1]
        if (candidate / "definitions.py").is_file():
            return candidate
        raise typer.BadParameter(
            "no project folder found: run inside the rfp-retrieval checkout or pass --project"
        )
    return found


def _json_default(value: Any) -> Any:
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"not JSON serializable: {type(value).__name__}")


def _print_json(payload: Any) -> None:
    sys.stdout.write(json.dumps(payload, indent=2, default=_json_default) + "\n")


def _load_definitions(project_dir: Path, overrides: dict[str, str | None]):
    """Import the project's ``definitions`` module with settings overrides and DAGSTER_HOME."""
    for key, value in overrides.items():
        if value is not None:
            os.environ[f"RFP_RETRIEVAL_{key.upper()}"] = str(Path(value).resolve())
    home = Path(os.environ.get("DAGSTER_HOME") or project_dir / "var" / "dagster_home")
    home.mkdir(parents=True, exist_ok=True)
    if not (home / "dagster.yaml").exists() and (project_dir / "dagster.yaml").exists():
        shutil.copy(project_dir / "dagster.yaml", home / "dagster.yaml")
    os.environ["DAGSTER_HOME"] = str(home)
    if str(project_dir) not in sys.path:
        sys.path.insert(0, str(project_dir))
    from rfp_retrieval.settings import SettingsError

    try:
        return importlib.import_module("definitions")
    except SettingsError as exc:  # read while the code location loads
        _settings_failed(exc)


def _settings_failed(exc: Exception) -> None:
    """Print a settings error (it names the file or variable and the fix) and exit 2."""
    from rich.text import Text

    console.print(Text.assemble(("Settings error: ", "red"), str(exc)))
    raise typer.Exit(2) from exc


def _load_settings(project: Path | None):
    """``load_settings`` for the project, exiting with the message on a bad setting."""
    from rfp_retrieval.settings import SettingsError, load_settings

    try:
        return load_settings(_project_dir(project))
    except SettingsError as exc:
        _settings_failed(exc)


def _failure_message(result: Any) -> str:
    for event in result.all_events:
        if event.event_type_value == "STEP_FAILURE":
            error = event.step_failure_data.error
            user = event.step_failure_data.user_failure_data
            if user is not None and user.description:
                return user.description
            while (
                error is not None
                and error.cause is not None
                and "dagster" in (error.cls_name or "").lower()
            ):
                error = error.cause
            return (error.message if error else "step failed").strip()
    return "run failed"


MODEL_ERRORS = {"ModelNotFoundError", "ModelPartsMissingError", "ModelArchiveError"}
"""Exception classes that mean the embedding model setting, not the library, is at fault."""


def _failure_classes(result: Any) -> set[str]:
    """Class names of every exception (and its causes) behind the run's failed steps."""
    names: set[str] = set()
    for event in result.all_events:
        if event.event_type_value == "STEP_FAILURE":
            error = event.step_failure_data.error
            while error is not None:
                names.add(error.cls_name or "")
                error = error.cause
    return names


def _read_partition(db_path: Path, table: str, key: str) -> list[dict[str, Any]]:
    import duckdb

    con = duckdb.connect(str(db_path), read_only=True)
    try:
        rel = con.execute(f"SELECT * FROM rfp.{table} WHERE rfp_partition = ?", [key])
        cols = [d[0] for d in rel.description]
        return [dict(zip(cols, row, strict=True)) for row in rel.fetchall()]
    finally:
        con.close()


@app.command()
def run(
    rfp_files: list[Path] = typer.Argument(None, help="RFP files (default: every inbox file)."),
    library: Path | None = typer.Option(None, help="Past-performance library folder."),
    answers: Path | None = typer.Option(None, help="Answer library folder."),
    db: Path | None = typer.Option(None, help="DuckDB file to store every asset in."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
    project: Path | None = ProjectOption,
    config: Path | None = ConfigOption,
) -> None:
    """Run the main job through Dagster: library, then one partition per RFP file."""
    project_dir = _project_dir(project)
    _use_config(config)
    defs_module = _load_definitions(
        project_dir, {"library_dir": library, "answers_dir": answers, "db_path": db}
    )
    import dagster as dg

    from rfp_retrieval.inbox import scan_inbox, skipped_in_inbox

    settings = defs_module.SETTINGS
    defs = defs_module.defs
    skipped: list[dict[str, str]] = []
    if not rfp_files:
        rfp_files = [f.path for f in scan_inbox(settings.inbox_dir).values()]
        skipped = [
            {"file": str(path), "reason": reason}
            for path, reason in skipped_in_inbox(settings.inbox_dir)
        ]
    missing = [str(f) for f in rfp_files if not Path(f).is_file()]
    instance = dg.DagsterInstance.get()
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=console,
        disable=as_json and not console.is_terminal,
    )
    with progress:
        task = progress.add_task("libraries: ingest, validate, embed", total=1)
        lib = defs.resolve_job_def("library_job").execute_in_process(
            instance=instance, run_config=QUIET_LOGS, raise_on_error=False
        )
        progress.advance(task)
        if not lib.success:
            if _failure_classes(lib) & MODEL_ERRORS:
                where = os.environ.get("RFP_RETRIEVAL_CONFIG") or "rfp-retrieval.yaml"
                advice = (
                    f"Check the model setting (model: {settings.model}) in {where}, or "
                    "RFP_RETRIEVAL_MODEL if it is set."
                )
            else:
                advice = (
                    f"Check the library folder ({settings.library_dir}) and the answers folder "
                    f"({settings.answers_dir}), or point --library/--answers at the right ones."
                )
            console.print(
                f"[red]The library job failed:[/red] {escape(_failure_message(lib))}\n"
                + escape(advice),
                markup=True,
                highlight=False,
            )
            raise typer.Exit(2)
        outcomes = _run_rfps(defs, instance, settings, rfp_files, missing, progress)
    from rfp_retrieval.retrieval.overrides import unmatched_override_files

    known = set(instance.get_dynamic_partitions("rfp_documents"))
    known |= {o["partition"] for o in outcomes if o.get("partition")}
    unmatched = [
        {"file": str(path), "reason": reason}
        for path, reason in unmatched_override_files(settings.overrides_dir, sorted(known))
    ]
    if as_json:
        _print_json({"rfps": outcomes, "skipped": skipped, "unmatched_overrides": unmatched})
    else:
        _print_run_summary(outcomes, skipped=skipped, unmatched_overrides=unmatched)
    if any(o["status"] == "interrupted" for o in outcomes):
        raise typer.Exit(130)
    if any(o["status"] != "ok" for o in outcomes):
        raise typer.Exit(1)  # every other RFP was still processed; the summary lists failures


def _run_rfps(defs, instance, settings, rfp_files, missing, progress) -> list[dict[str, Any]]:
    """One rfp_job run per file (one partition each); a failure never stops the others."""
    from rfp_retrieval.inbox import partition_key_for
    from rfp_retrieval.retrieval.references import references_from_frame

    job = defs.resolve_job_def("rfp_job")
    outcomes = []
    task = progress.add_task("RFPs: parse, read scope, rank", total=len(rfp_files))
    for done, path in enumerate(rfp_files):
        path = Path(path)
        key = partition_key_for(path.name)
        item: dict[str, Any] = {
            "file": str(path),
            "partition": key,
            "status": "failed",
            "error": None,
            "scope_query": None,
            "references": [],
            "brief": None,
        }
        outcomes.append(item)
        if str(path) in missing:
            item["error"] = (
                f"{path}: is a folder, not a file; pass the RFP files inside it"
                if path.is_dir()
                else f"{path}: file not found"
            )
            continue
        progress.update(task, completed=done, description=f"RFP {path.name[:40]}")
        try:
            instance.add_dynamic_partitions("rfp_documents", [key])
            result = job.execute_in_process(
                instance=instance,
                partition_key=key,
                run_config={
                    **QUIET_LOGS,
                    "ops": {"rfp_document": {"config": {"path": str(path.resolve())}}},
                },
                raise_on_error=False,
            )
            interrupted = not result.success and bool(
                _failure_classes(result) & {"DagsterExecutionInterruptedError", "KeyboardInterrupt"}
            )
        except KeyboardInterrupt:
            interrupted = True
        if interrupted:  # Ctrl-C: stop the batch, say what was not finished
            item["status"] = "interrupted"
            item["error"] = "interrupted (Ctrl-C); run again to process it"
            for rest in rfp_files[done + 1 :]:
                outcomes.append(
                    {
                        **item,
                        "file": str(rest),
                        "partition": partition_key_for(Path(rest).name),
                        "error": "not started: the run was interrupted",
                    }
                )
            break
        if not result.success:
            item["error"] = _failure_message(result)
            continue
        import polars as pl

        scope_rows = _read_partition(settings.db_path, "scope_query", key)
        refs = pl.DataFrame(_read_partition(settings.db_path, "pp_references", key))
        scope = scope_rows[0]
        item["status"] = "ok"
        item["scope_query"] = {
            k: scope[k]
            for k in (
                "issuer",
                "issuer_type",
                "customer_types",
                "value_min",
                "value_max",
                "ended_after",
                "started_after",
            )
        }
        item["scope_query"]["as_of"] = scope["as_of"]
        item["references"] = references_from_frame(refs) if refs.height else []
        brief_rows = _read_partition(settings.db_path, "response_brief", key)
        item["brief"] = brief_rows[0]["html_path"] if brief_rows else None
    if rfp_files:
        progress.update(task, completed=len(rfp_files), description="RFPs done")
    return outcomes


def _band(low: int | None, high: int | None) -> str:
    """A value band in words: "$10,000,000 to $30,000,000", "at least $2,000,000", "any"."""
    if low is not None and high is not None:
        return f"${low:,} to ${high:,}"
    if low is not None:
        return f"at least ${low:,}"
    if high is not None:
        return f"at most ${high:,}"
    return "any"


def _component_text(components: dict[str, float]) -> str:
    """The summed score components of a reference, shortest names first in scoring order.

    ``weighted_narrative`` reads ``narrative`` (the raw cosines are not summed, so there is
    no ambiguity); zero components are left out. Example: ``narrative +0.104, outcome +0.290,
    recency_bump +0.100``.
    """
    from rfp_retrieval.retrieval.references import SUMMED_COMPONENTS as SUMMED

    return ", ".join(
        f"{k.removeprefix('weighted_')} {v:+.3f}"
        for k, v in components.items()
        if v and k in SUMMED and not (k == "whole" and "weighted_whole" in components)
    )


def _print_run_summary(
    outcomes: list[dict[str, Any]],
    out: Console | None = None,
    skipped: list[dict[str, str]] | None = None,
    unmatched_overrides: list[dict[str, str]] | None = None,
) -> None:
    """Print each RFP's ScopeQuery and top 3, then a summary of every file.

    Laid out for terminals as narrow as 80 columns: tables keep to three or four short
    columns and put long text (title, score components, misses) in one wrapping cell; brief
    paths are shown relative to the output folder; every failed file is listed with its
    whole error message, never truncated.
    """
    from rich.padding import Padding
    from rich.text import Text

    out = out or Console()
    ok_items = [o for o in outcomes if o["status"] == "ok"]
    failed_items = [o for o in outcomes if o["status"] == "failed"]
    interrupted = [o for o in outcomes if o["status"] == "interrupted"]
    for item in ok_items:
        sq = item["scope_query"]
        out.print()
        out.print(Text(Path(item["file"]).name, "bold", overflow="fold"))
        scope = (
            f"partition {item['partition']}; "
            f"issuer: {sq['issuer'] or 'not stated'} ({sq['issuer_type'] or 'type unknown'}); "
            f"customer types: {', '.join(sq['customer_types']) or 'any'}; "
            f"value: {_band(sq['value_min'], sq['value_max'])}; "
            f"work ended on/after: {sq['ended_after'] or 'no recency window'}"
            + (f"; started on/after: {sq['started_after']}" if sq["started_after"] else "")
        )
        out.print(Padding(Text(scope), (0, 0, 0, 2), expand=False))
        table = Table(box=SIMPLE_HEAD, pad_edge=False, show_edge=False)
        table.add_column("#", justify="right", no_wrap=True)
        table.add_column("id", no_wrap=True)
        table.add_column("score", justify="right", no_wrap=True)
        table.add_column("title / score components / constraints missed", overflow="fold")
        for rank, ref in enumerate(item["references"], start=1):
            cell = Text(ref.get("title") or "(no title)")
            parts = _component_text(ref["components"])
            if parts:
                cell.append("\n" + parts, style="dim")
            if ref["relaxed"]:
                cell.append("\nmissed: " + ", ".join(ref["relaxed"]), style="yellow")
            table.add_row(str(rank), Text(ref["id"]), f"{ref['score']:.3f}", cell)
        if item["references"]:
            out.print(table)
        else:
            out.print("  no reference passed the filters (see the brief for the trace)")
    out.print()
    counts = f"Summary: {len(ok_items)} RFP(s) ok, {len(failed_items)} failed"
    out.print(Text(counts + (f", {len(interrupted)} interrupted" if interrupted else ""), "bold"))
    if skipped:
        out.print(Text(f"Not read from the inbox ({len(skipped)}):", "yellow"))
        for item in skipped:
            line = Text.assemble((Path(item["file"]).name, "bold"), f": {item['reason']}")
            out.print(Padding(line, (0, 0, 0, 2), expand=False))
    if unmatched_overrides:
        out.print(Text(f"Override files not applied ({len(unmatched_overrides)}):", "yellow"))
        for item in unmatched_overrides:
            line = Text.assemble((Path(item["file"]).name, "bold"), f": {item['reason']}")
            out.print(Padding(line, (0, 0, 0, 2), expand=False))
    if not outcomes:
        out.print("No RFP file given and none in the inbox: drop one there and run again.")
        return
    summary = Table(box=SIMPLE_HEAD, pad_edge=False, show_edge=False)
    summary.add_column("RFP file", overflow="fold", ratio=1)
    summary.add_column("status", no_wrap=True)
    summary.add_column("top 3", overflow="fold")
    for item in outcomes:
        ok = item["status"] == "ok"
        summary.add_row(  # Text, not markup: a file may be called "RFP [draft].md"
            Text(Path(item["file"]).name),
            Text("ok", "green") if ok else Text("failed", "red"),
            Text(", ".join(r["id"] for r in item["references"]) or "-"),
        )
    out.print(summary)
    briefs = [Path(o["brief"]) for o in ok_items if o.get("brief")]
    if briefs:
        root = Path(os.path.commonpath([b.parent.parent for b in briefs]))
        out.print()
        out.print(Text(f"Briefs (open in a browser), in {root}{os.sep}:", overflow="fold"))
        for brief in briefs:
            out.print(
                Padding(
                    Text(str(brief.relative_to(root)), overflow="fold"), (0, 0, 0, 2), expand=False
                )
            )
    if failed_items:
        out.print()
        out.print(Text("Failed (fix the file or the setting named, then run again):", "red"))
        for item in failed_items:
            line = Text.assemble(
                (Path(item["file"]).name, "bold"), f": {item['error'] or 'failed'}"
            )
            out.print(Padding(line, (0, 0, 0, 2), expand=False))
    if interrupted:
        out.print()
        out.print(Text("Interrupted (nothing half-written is kept; run again):", "yellow"))
        for item in interrupted:
            line = Text.assemble((Path(item["file"]).name, "bold"), f": {item['error']}")
            out.print(Padding(line, (0, 0, 0, 2), expand=False))


@app.command("library")
def library_command(
    library: Path | None = typer.Option(None, help="Past-performance library folder."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    project: Path | None = ProjectOption,
    config: Path | None = ConfigOption,
) -> None:
    """Show the canonical library entries and the rejected rows."""
    _use_config(config)
    from rich.text import Text

    from rfp_retrieval.library.ingest import load_library

    folder = library
    if folder is None:
        folder = _load_settings(project).library_dir
    try:
        loaded = load_library(folder)
    except FileNotFoundError as exc:
        console.print(Text(f"{exc}; pass --library or set library_dir", "red"))
        raise typer.Exit(1) from exc
    rejected = [{"file": r.file, "row": r.row, "reason": r.reason} for r in loaded.rejected]
    if as_json:
        _print_json({"entries": [e.to_canonical() for e in loaded.entries], "rejected": rejected})
        return
    out = Console()
    table = Table("id", "title", "customer type", "value (USD)", "period", "defects")
    for e in loaded.entries:
        v = e.contract.value
        table.add_row(
            e.id,
            e.title[:50],
            e.customer.type or "?",
            f"{v.min:,}..{v.max:,}" if v.min is not None and v.max is not None else "unknown",
            f"{e.contract.start_date} - {e.contract.end_date}",
            ", ".join(e.defects),
        )
    out.print(table)
    for r in rejected:
        out.print(f"[red]rejected[/red] {r['file']} row {r['row']}: {r['reason']}")
    out.print(
        f"{len(loaded.entries)} entries, {len(rejected)} rejected, "
        f"{len(loaded.superseded)} superseded"
    )


@app.command()
def parse(
    rfp_file: Path = typer.Argument(
        ..., help="An RFP file (Markdown, text, DOCX, PDF) or a questionnaire (CSV, XLSX, JSON)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Print an RFP's outline, questions, past-performance requirements and summary."""
    from rfp_retrieval.documents.extract import load_document
    from rfp_retrieval.documents.questions import find_questions
    from rfp_retrieval.documents.records import DocumentError
    from rfp_retrieval.documents.section_lm import find_pp_requirements
    from rfp_retrieval.scope import read_scope

    try:
        doc = load_document(rfp_file)
    except DocumentError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(1) from exc
    reading = read_scope(doc)
    questions = find_questions(doc)
    by_key = {s.key: s for s in doc.sections}
    sections = [
        {
            "number": s.number,
            "heading": s.heading,
            "level": s.level,
            "parent": (by_key[s.parent].number or by_key[s.parent].heading)
            if s.parent in by_key
            else None,
        }
        for s in doc.sections
    ]
    g = lambda name: getattr(reading, name, None)  # noqa: E731
    payload = {
        "sections": sections,
        "questions": [
            {"label": q.label, "text": q.text, "section_path": q.section_path, "kind": q.kind}
            for q in questions
        ],
        "past_performance": {
            "references_required": g("references_required"),
            "recency_years": g("recency_years"),
            "ended_after": g("ended_after"),
            "started_after": g("started_after"),
            "value_min": g("value_min"),
            "value_max": g("value_max"),
            "customer_types": g("customer_types_required") or [],
        },
        "issuer": {"name": g("issuer"), "type": g("issuer_type")},
        "summary": doc.summary,
    }
    if as_json:
        _print_json(payload)
        return
    out = Console()
    out.print(f"[bold]{doc.title}[/bold]\n{doc.summary}\n")
    for w in doc.warnings:
        out.print(f"[yellow]warning:[/yellow] {w}")
    out.print("[bold]Outline[/bold]")
    for s in doc.sections:
        out.print("  " * max(0, s.level - 1) + f"{s.number or ''} {s.heading}".strip())
    out.print(f"\n[bold]Questions and requirements[/bold] ({len(questions)})")
    for q in questions:
        where = f"p.{q.page}" if q.page else f"l.{q.line}"
        out.print(f"  {q.id} [{q.kind}] {q.label or '-'} ({where}) {q.text[:160]}")
    out.print("\n[bold]Past performance[/bold]")
    for k, v in payload["past_performance"].items():
        out.print(f"  {k}: {v}")
    req = find_pp_requirements(doc)
    for size in req.sizes:
        bound = f"{size.min or ''}..{size.max or ''}"
        pref = " (preferred)" if size.preferred else ""
        out.print(f"  size {size.measure}: {bound}{pref} [{size.stated.section}]")
    for rel in req.relevance:
        out.print(f"  relevance: {rel.sentence[:160]} [{rel.section}]")
    for t in reading.trace:
        if t["section"]:
            out.print(f"  {t['filter']} stated in: {t['section']}")


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
    try:
        doc = load_document(rfp_file)
    except DocumentError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(1) from exc
    rows = matrix_rows(doc)
    try:
        written = write_matrix(rows, out, doc.title)
    except OSError as exc:
        console.print(f"[red]{out}: cannot write the matrix ({exc})[/red]")
        raise typer.Exit(1) from exc
    console.print(f"{len(rows)} row(s) written to {written}")


@eval_app.command("past-performance")
def eval_past_performance(
    golden: Path = typer.Option(
        ...,
        help="Golden-set JSONL: one scope per line (scope_id, rfp_file, as_of, ideal, ideal_alt).",
    ),
    library: Path | None = typer.Option(None, help="Past-performance library folder."),
    mode: str = typer.Option("all", help="naive | facet | facet+bumps | default | all"),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    project: Path | None = ProjectOption,
    config: Path | None = ConfigOption,
) -> None:
    """Top-3 recall per ranking mode on a golden set (constraints read from each RFP)."""
    _use_config(config)
    from rfp_retrieval.eval.past_performance import (
        GoldenSetError,
        embed_library,
        evaluate_modes,
        load_golden,
        mode_configs,
        prepare_scopes,
    )
    from rfp_retrieval.library.frames import entries_frame
    from rfp_retrieval.library.ingest import load_library
    from rfp_retrieval.retrieval.embedding import Embedder

    settings = _load_settings(project)
    try:
        configs = mode_configs(mode)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--mode") from exc
    if not golden.is_file():
        raise typer.BadParameter(f"{golden}: no such golden-set file", param_hint="--golden")
    try:
        scopes = load_golden(golden)
        entries = entries_frame(load_library(library or settings.library_dir).entries)
    except (GoldenSetError, FileNotFoundError) as exc:
        from rich.text import Text

        console.print(Text(str(exc), "red"))
        raise typer.Exit(1) from exc
    embedder = Embedder(settings.model_location())
    console.print(f"embedding {entries.height} entries and {len(scopes)} scopes...")
    vectors = embed_library(entries, embedder)
    results = evaluate_modes(entries, vectors, prepare_scopes(scopes, embedder), configs)
    if as_json:
        _print_json({"modes": results})
        return
    out = Console()
    table = Table("mode", "recall@3 (ideal)", "recall@3 (ideal_alt)", "MRR")
    for name, r in results.items():
        alt = r["recall_at_3_alt"]
        table.add_row(
            name,
            f"{r['recall_at_3']:.3f}",
            f"{alt:.3f}" if alt is not None else "-",
            f"{r['mrr']:.3f}",
        )
    out.print(table)


@eval_app.command("answers")
def eval_answers(
    qrels: Path = typer.Option(
        ...,
        help="Answer qrels JSONL: one question per line (qid, doc, label, question) "
        "with its relevant answer blocks.",
    ),
    answers: Path | None = typer.Option(None, help="Answer library folder."),
    rewrite: str = typer.Option("both", help="on | off | both"),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    project: Path | None = ProjectOption,
    config: Path | None = ConfigOption,
) -> None:
    """recall@5, MRR@10 and nDCG@10 of answer retrieval, with and without rewriting.

    The documents are read and parsed by the product; a question the parser cannot find
    counts as a miss. Rewriting uses the offline rewriter, so the figures are reproducible.
    """
    _use_config(config)
    from rfp_retrieval.answers.ingest import load_answer_library
    from rfp_retrieval.eval.answers import (
        QrelsError,
        build_index,
        evaluate_answers,
        load_qrels,
        prepare_questions,
    )
    from rfp_retrieval.retrieval.embedding import Embedder

    modes = {"on": ("on",), "off": ("off",), "both": ("on", "off")}.get(rewrite)
    if modes is None:
        raise typer.BadParameter("use on, off or both", param_hint="--rewrite")
    settings = _load_settings(project)
    try:
        labelled = load_qrels(qrels)
        library = load_answer_library(answers or settings.answers_dir)
    except (QrelsError, FileNotFoundError) as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(1) from exc
    prepared = prepare_questions(labelled)
    for doc, reason in prepared.errors.items():
        console.print(f"[yellow]{doc}: {reason} (its questions count as misses)[/yellow]")
    embedder = Embedder(settings.model_location())
    console.print(
        f"{len(labelled)} questions, {sum(q is not None for q in prepared.matched.values())} "
        f"found by the parser; embedding {len(library.usable())} blocks..."
    )
    runs = evaluate_answers(prepared, build_index(library.blocks, embedder), embedder, modes)
    if as_json:
        _print_json({"runs": runs})
        return
    out = Console()
    table = Table("rewrite", "type", "questions", "recall@5", "hit@5", "MRR@10", "nDCG@10")
    for mode, r in runs.items():
        rows = [("all", r), *r["by_type"].items()]
        for name, m in rows:
            table.add_row(
                mode,
                name,
                str(m["questions"]),
                f"{m['recall_at_5']:.3f}",
                f"{m['hit_rate_at_5']:.3f}",
                f"{m['mrr_at_10']:.3f}",
                f"{m['ndcg_at_10']:.3f}",
            )
    out.print(table)


@app.command()
def ui(
    port: int = typer.Option(3000, help="Port of the Dagster UI on 127.0.0.1."),
    project: Path | None = ProjectOption,
    config: Path | None = ConfigOption,
) -> None:
    """Open the Dagster UI (``dagster dev``) on this project, with its own DAGSTER_HOME."""
    project_dir = _project_dir(project)
    _use_config(config)
    _load_settings(project_dir)  # a bad setting fails here, not inside the UI
    home = Path(os.environ.get("DAGSTER_HOME") or project_dir / "var" / "dagster_home")
    home.mkdir(parents=True, exist_ok=True)
    if not (home / "dagster.yaml").exists():
        shutil.copy(project_dir / "dagster.yaml", home / "dagster.yaml")
    env = {**os.environ, "DAGSTER_HOME": str(home)}
    dagster = Path(sys.executable).with_name("dagster")
    cmd = [str(dagster), "dev", "-w", "workspace.yaml", "-h", "127.0.0.1", "-p", str(port)]
    console.print(
        f"Dagster UI on http://127.0.0.1:{port} (stop: Ctrl-C, or kill {os.getpid()})",
        highlight=False,
    )
    # dagster dev and its webserver, daemon and code servers get a process group of their
    # own, with default signal handling (a shell's `&` starts children with SIGINT ignored)
    proc = subprocess.Popen(
        cmd,
        cwd=project_dir,
        env=env,
        start_new_session=True,
        preexec_fn=_default_stop_signals,
    )

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        proc.wait()
    except KeyboardInterrupt:
        console.print("stopping the Dagster UI...")
        _stop_process_group(proc)


def _default_stop_signals() -> None:
    """In the child before exec: SIGINT and SIGTERM handled by default (not inherited as
    ignored), so ``dagster dev`` shuts its processes down when asked."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _stop_process_group(proc: subprocess.Popen, grace_s: float = 30) -> None:
    """Stop ``proc``'s process group: SIGINT (dagster dev's clean shutdown), then SIGTERM,
    then SIGKILL, waiting ``grace_s`` / 10 / 5 seconds between; then kill any member still
    left (a webserver or daemon that hung on shutdown)."""
    for sig, wait_s in ((signal.SIGINT, grace_s), (signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait_s)
            break
        except subprocess.TimeoutExpired:
            continue
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


@app.command()
def init(
    folder: Path = typer.Argument(..., help="The project folder to create (new or empty)."),
) -> None:
    """Create a working project folder: inbox, library, answers, overrides and a config."""
    from rfp_retrieval.project_folder import InitError, init_project

    sample = Path(__file__).resolve().parents[1] / "sample"
    try:
        created = init_project(folder, sample)
    except (InitError, FileNotFoundError) as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(1) from exc
    root = folder.expanduser().resolve()
    out = Console(soft_wrap=True)
    for path in created:
        out.print(f"created {path}")
    config = root / "rfp-retrieval.yaml"
    exe = Path(sys.argv[0]).resolve() if Path(sys.argv[0]).name == "rfp-retrieval" else None
    cmd = str(exe) if exe else "rfp-retrieval"
    out.print(
        "\n[bold]Next:[/bold]\n"
        f"  1. Replace {root / 'library'} and {root / 'answers'} with your own content "
        "(the copies are the bundled samples).\n"
        f"  2. Drop an RFP into {root / 'inbox'}.\n"
        f"  3. {cmd} run --config {config}\n"
        f"     (or: {cmd} ui --config {config}, and turn on rfp_inbox_sensor)\n"
        f"  4. Open {root / 'output'}/<rfp>/brief.html in a browser; the compliance matrix\n"
        "     (compliance_matrix.csv / .xlsx) is written beside it."
    )


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
