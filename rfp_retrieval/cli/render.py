"""Rendering for terminals: the ``run`` summary and the tables of ``library`` and ``eval``.

Everything here prints Rich text (never JSON: the JSON shapes are ``shapes.py``). The
summary of a run is laid out for terminals as narrow as 80 columns.

``component_text`` (the score components of one reference in one line) is the CLI's reading
of the score-component vocabulary; it stays one function here so a registry-based
replacement can be ported in one place.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from rich.box import SIMPLE_HEAD
from rich.console import Console
from rich.table import Table
from rich.text import Text

from rfp_retrieval.inbox import shown_name


def band(low: int | None, high: int | None) -> str:
    """A value band (USD) in words: "$10.0M to $30.0M", "at least $2.0M", "not stated" when
    the RFP states no bound (amounts as the brief writes them, ``report.filters.usd``; the
    wording ``report.wording.NOT_STATED``)."""
    from rfp_retrieval.report.filters import usd
    from rfp_retrieval.report.wording import NOT_STATED

    if low is not None and high is not None:
        return f"{usd(low)} to {usd(high)}"
    if low is not None:
        return f"at least {usd(low)}"
    if high is not None:
        return f"at most {usd(high)}"
    return NOT_STATED


def scope_line(partition: str, sq: dict[str, Any]) -> str:
    """The run summary's one line of an RFP's ScopeQuery (``shapes.RunScopeQuery``): partition,
    issuer, customer types, value band (USD) and recency cut-off; a filter the RFP does not
    state reads "not stated" (``report.wording.NOT_STATED``), never "any" or "no recency
    window" (issue 15); the start cut-off is shown only when stated."""
    from rfp_retrieval.report.wording import or_not_stated

    return (
        f"partition {partition}; "
        f"issuer: {or_not_stated(sq['issuer'])} ({sq['issuer_type'] or 'type unknown'}); "
        f"customer types: {or_not_stated(sq['customer_types'])}; "
        f"value: {band(sq['value_min'], sq['value_max'])}; "
        f"work ended on/after: {or_not_stated(sq['ended_after'])}"
        + (f"; started on/after: {sq['started_after']}" if sq["started_after"] else "")
    )


def _entry_value(low: int | None, high: int | None) -> str:
    """A library entry's contract value (USD): "$3.7M", "$12.7M-$34.0M", or "unknown"."""
    from rfp_retrieval.report.filters import usd

    if low is None or high is None:
        return "unknown"
    return usd(low) if low == high else f"{usd(low)}-{usd(high)}"


def component_text(components: dict[str, float]) -> str:
    """The summed score components of a reference, shortest names first in scoring order.

    Reads the registry of score components (``components.summed_parts``): ``weighted_narrative``
    reads ``narrative``; a raw cosine counts only when no weighted cosine is present (the naive
    mode's ``whole``); zero components are left out. Example: ``narrative +0.104, outcome
    +0.290, recency_bump +0.100``.
    """
    from rfp_retrieval.retrieval.components import summed_parts

    return ", ".join(f"{c.short} {v:+.3f}" for c, v in summed_parts(components) if v)


def print_run_summary(
    outcomes: list[dict[str, Any]],
    out: Console | None = None,
    skipped: list[dict[str, str]] | None = None,
    unmatched_overrides: list[dict[str, str]] | None = None,
    library_note: str | None = None,
    rejected_library_rows: list[dict[str, Any]] | None = None,
    briefs_without_rfp: list[dict[str, str]] | None = None,
) -> None:
    """Print each RFP's ScopeQuery and top 3, then a summary of every file.

    ``library_note`` (e.g. "library unchanged: not rebuilt") is printed first in the summary;
    ``rejected_library_rows`` (``library.quality.rejected_library_rows``) after it, each with
    its library, file, row and reason; ``briefs_without_rfp`` (``cli.run.briefs_without_rfp``)
    the briefs kept on disk whose RFP file was deleted or moved.

    Laid out for terminals as narrow as 80 columns: tables keep to three or four short
    columns and put long text (title, score components, misses, a writer's override with
    who, when, why and the replaced pick) in one wrapping cell; brief
    paths are shown relative to the output folder; every failed file is listed with its
    whole error message, never truncated.
    """
    from rich.padding import Padding

    out = out or Console()
    ok_items = [o for o in outcomes if o["status"] in ("ok", "warning")]
    failed_items = [o for o in outcomes if o["status"] == "failed"]
    interrupted = [o for o in outcomes if o["status"] == "interrupted"]
    for item in ok_items:
        if item.get("unchanged"):  # its tables were printed by the run that made them
            continue
        sq = item["scope_query"]
        out.print()
        out.print(Text(shown_name(Path(item["file"]).name), "bold", overflow="fold"))
        out.print(Padding(Text(scope_line(item["partition"], sq)), (0, 0, 0, 2), expand=False))
        table = Table(box=SIMPLE_HEAD, pad_edge=False, show_edge=False)
        table.add_column("#", justify="right", no_wrap=True)
        table.add_column("id", no_wrap=True)
        table.add_column("score", justify="right", no_wrap=True)
        table.add_column("title / score components / constraints missed", overflow="fold")
        for rank, ref in enumerate(item["references"], start=1):
            cell = Text(ref.get("title") or "(no title)")
            parts = component_text(ref["components"])
            if parts:
                cell.append("\n" + parts, style="dim")
            if ref["relaxed"]:
                from rfp_retrieval.retrieval.filters import constraint_labels

                missed = ", ".join(constraint_labels(ref["relaxed"]))
                cell.append("\nmissed: " + missed, style="yellow")
            if ref.get("override"):
                from rfp_retrieval.retrieval.overrides import override_line

                cell.append("\nwriter override: " + override_line(ref["override"]), style="cyan")
            table.add_row(str(rank), Text(ref["id"]), f"{ref['score']:.3f}", cell)
        if item["references"]:
            out.print(table)
        else:
            out.print("  no reference passed the filters (see the brief for the trace)")
    out.print()
    warned_count = sum(o["status"] == "warning" for o in outcomes)
    counts = f"Summary: {len(ok_items) - warned_count} RFP(s) ok, {len(failed_items)} failed"
    counts += f", {warned_count} with a warning" if warned_count else ""
    same = sum(bool(o.get("unchanged")) for o in ok_items)
    counts += (
        f"; {same} of them unchanged since their last run (--rerun to run them)" if same else ""
    )
    out.print(Text(counts + (f", {len(interrupted)} interrupted" if interrupted else ""), "bold"))
    if library_note:
        out.print(Text(library_note, "dim"))
    if rejected_library_rows:
        out.print(Text(f"Library rows left out ({len(rejected_library_rows)}):", "yellow"))
        for item in rejected_library_rows:
            where = shown_name(Path(item["file"]).name)
            where += f" row {item['row']}" if item["row"] is not None else ""
            line = Text.assemble((where, "bold"), f" ({item['library']}): {item['reason']}")
            out.print(Padding(line, (0, 0, 0, 2), expand=False))
    if skipped:
        _print_files(out, f"Not read from the inbox ({len(skipped)}):", "yellow", skipped, "reason")
    if unmatched_overrides:
        title = f"Override files not applied ({len(unmatched_overrides)}):"
        _print_files(out, title, "yellow", unmatched_overrides, "reason")
    if briefs_without_rfp:
        title = f"Briefs whose RFP file is gone ({len(briefs_without_rfp)}; kept as they were):"
        _print_files(out, title, "yellow", briefs_without_rfp, "reason")
    if not outcomes:
        out.print("No RFP file given and none in the inbox: drop one there and run again.")
        return
    summary = Table(box=SIMPLE_HEAD, pad_edge=False, show_edge=False)
    summary.add_column("RFP file", overflow="fold", ratio=1)
    summary.add_column("status", no_wrap=True)
    summary.add_column("top 3", overflow="fold")
    for item in outcomes:
        status = {
            "ok": Text("ok", "green"),
            "warning": Text("warning", "yellow"),
            "interrupted": Text("interrupted", "yellow"),
        }
        summary.add_row(  # Text, not markup: a file may be called "RFP [draft].md"
            Text(shown_name(Path(item["file"]).name)),
            Text("unchanged", "green")
            if item.get("unchanged") and item["status"] == "ok"
            else status.get(item["status"], Text("failed", "red")),
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
    warned = [o for o in outcomes if o["status"] == "warning"]
    if warned:
        out.print()
        _print_files(out, "Warnings (the RFP ran; check the file):", "yellow", warned, "error")
    if failed_items:
        out.print()
        title = "Failed (fix the file or the setting named, then run again):"
        _print_files(out, title, "red", failed_items, "error", "failed")
    if interrupted:
        out.print()
        title = "Interrupted (nothing half-written is kept; run again):"
        _print_files(out, title, "yellow", interrupted, "error")


def _print_files(
    out: Console,
    title: str,
    style: str,
    items: list[dict[str, Any]],
    key: str,
    default: str = "",
) -> None:
    """``title`` in ``style``, then one indented line per item: its file name in bold (no
    markup read, folded when long), ": " and ``item[key]`` (``default`` when empty)."""
    from rich.padding import Padding

    out.print(Text(title, style))
    for item in items:
        line = Text.assemble(
            (shown_name(Path(item["file"]).name), "bold"), f": {item[key] or default}"
        )
        out.print(Padding(line, (0, 0, 0, 2), expand=False))


def print_library(
    loaded: Any,
    rejected: list[dict[str, Any]],
    superseded: list[dict[str, Any]] | None = None,
    out: Console | None = None,
) -> None:
    """The ``library`` table: one row per canonical entry, then the rejected rows, the
    superseded (older duplicate) rows and the counts.

    ``loaded`` is a ``library.ingest.load_library`` result; ``rejected`` its rejected rows as
    ``LibraryRejected`` dicts, ``superseded`` its older duplicates as ``LibrarySuperseded``.
    """
    # Piped into a file or a pager, a table squeezed to 80 columns cuts dates and values:
    # give it the width of its longest rows instead.
    out = out or Console(width=None if sys.stdout.isatty() else 200)
    table = Table(box=SIMPLE_HEAD)
    for name, wrap in (("id", False), ("title", True), ("customer type", True), ("role", False)):
        table.add_column(name, no_wrap=not wrap, ratio=2 if name == "title" else None)
    table.add_column("value", no_wrap=True)
    table.add_column("period", min_width=10)
    table.add_column("defects")
    for e in loaded.entries:
        v = e.contract.value
        table.add_row(  # Text, not markup: a title may read "Portal [phase 2]"
            Text(e.id),
            Text(e.title[:50]),
            Text(e.customer.type or "unknown"),
            Text(e.role or "unknown"),
            _entry_value(v.min, v.max),
            Text(f"{e.contract.start_date or 'unknown'} - {e.contract.end_date or 'unknown'}"),
            Text(", ".join(e.defects)),
        )
    out.print(table)
    for r in rejected:
        where = f" row {r['row']}" if r["row"] is not None else ""
        out.print(Text.assemble(("rejected", "red"), f" {r['file']}{where}: {r['reason']}"))
    for s in superseded or []:
        where = f" row {s['row']}" if s["row"] is not None else ""
        winner = s["superseded_by_file"] or s["file"]
        if s["superseded_by_row"] is not None:
            winner += f" row {s['superseded_by_row']}"
        updated = s["last_updated"] or "no date"
        line = f" {s['id']} in {s['file']}{where} (updated {updated}): replaced by {winner}"
        if s.get("reason"):
            line += f"; {s['reason']}"
        out.print(Text.assemble(("superseded", "yellow"), line))
    out.print(
        f"{len(loaded.entries)} entries, {len(rejected)} rejected, "
        f"{len(loaded.superseded)} superseded"
    )


def print_eval_modes(results: dict[str, Any], out: Console | None = None) -> None:
    """The ``eval past-performance`` table: recall@3 (both labellers) and MRR per mode."""
    out = out or Console()
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


def print_answer_runs(runs: dict[str, Any], out: Console | None = None) -> None:
    """The ``eval answers`` table: each rewrite setting overall and per question type."""
    out = out or Console()
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
