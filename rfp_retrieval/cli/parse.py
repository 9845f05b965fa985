"""``rfp-retrieval parse``: an RFP's outline, questions, past-performance requirements and
summary (``--json``: ``shapes.ParsePayload``).

The command's logic (reading the scope, the payload, the text listing) is one function,
``parse``, kept as it was in the single-module CLI.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from rfp_retrieval.cli.app import app, check_environment, console
from rfp_retrieval.cli.shapes import print_json


@app.command()
def parse(
    rfp_file: Path = typer.Argument(
        ..., help="An RFP file (Markdown, text, DOCX, PDF) or a questionnaire (CSV, XLSX, JSON)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Print an RFP's outline, questions, past-performance requirements and summary."""
    from rfp_retrieval.documents.extract import load_document
    from rfp_retrieval.documents.matrix import matrix_rows, part_label_of, part_letter
    from rfp_retrieval.documents.questions import find_questions
    from rfp_retrieval.documents.records import DocumentError
    from rfp_retrieval.report.filters import filter_sentence
    from rfp_retrieval.scope import as_of_for, read_scope
    from rfp_retrieval.scope.section_lm import find_pp_requirements

    check_environment()
    try:
        doc = load_document(rfp_file)
    except DocumentError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(1) from exc
    as_of = as_of_for(doc)
    reading = read_scope(doc, as_of=as_of.date)
    questions = find_questions(doc)
    # one rule for an item's kind: the compliance matrix's (matrix.matrix_kind), so `parse`
    # and `matrix` never disagree on whether an item is an ask (issue 13)
    kind_of = {row.id: row.kind for row in matrix_rows(doc, questions)}
    sections = [
        {
            "number": s.number,
            "heading": s.heading,
            "level": s.level,
            "parent": (parent.number or parent.heading) if (parent := doc.parent_of(s)) else None,
        }
        for s in doc.sections
    ]
    g = lambda name: getattr(reading, name, None)  # noqa: E731
    payload = {
        "sections": sections,
        "questions": [
            {
                "label": q.label,
                "text": q.text,
                "section_path": q.section_path,
                "kind": kind_of.get(q.id, q.kind),
                "parts": [
                    {
                        "label": part_label_of(q, k),
                        "text": part,
                        "kind": kind_of.get(f"{q.id}{part_letter(k)}", q.kind),
                    }
                    for k, part in enumerate(q.parts)
                ],
            }
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
            "require_prime": bool(g("require_prime")),
        },
        "issuer": {"name": g("issuer"), "type": g("issuer_type")},
        "summary": doc.summary,
    }
    if as_json:
        print_json(payload)
        return
    out = Console()
    out.print(f"[bold]{escape(doc.title)}[/bold]\n{escape(doc.summary)}\n")
    for w in doc.warnings:
        out.print(f"[yellow]warning:[/yellow] {escape(w)}")
    out.print("[bold]Outline[/bold]")
    for s in doc.sections:
        out.print("  " * max(0, s.level - 1) + escape(f"{s.number or ''} {s.heading}".strip()))
    out.print(f"\n[bold]Questions and requirements[/bold] ({len(questions)})")
    for q in questions:
        where = f"p.{q.page}" if q.page else f"l.{doc.cited_line(q.line)}"
        kind = kind_of.get(q.id, q.kind)
        out.print(escape(f"  {q.id} [{kind}] {q.label or '-'} ({where}) {q.text[:160]}"))
        for k, part in enumerate(q.parts):
            part_kind = kind_of.get(f"{q.id}{part_letter(k)}", q.kind)
            label = part_label_of(q, k)
            out.print(escape(f"      {label} {part[:150]} [{part_kind}]"))
    out.print("\n[bold]Past performance[/bold]")
    issuer = payload["issuer"]
    out.print(
        escape(
            f"  issuer: {issuer['name'] or 'not stated'}"
            f" ({issuer['type'] or 'customer type unknown'})"
        )
    )
    out.print(escape(f"  as-of date: {as_of.date.isoformat()} ({as_of.source})"))
    for k, v in payload["past_performance"].items():
        out.print(escape(f"  {k}: {v}"))
    req = find_pp_requirements(doc)
    for size in req.sizes:
        bound = f"{size.min or ''}..{size.max or ''}"
        pref = " (preferred)" if size.preferred else ""
        out.print(escape(f"  size {size.measure}: {bound}{pref} [{size.stated.section}]"))
    for rel in req.relevance:
        out.print(escape(f"  relevance: {rel.sentence[:160]} [{rel.section}]"))
    for t in reading.trace:
        if t["section"]:
            out.print(escape(f"  {t['filter']} stated in: {t['section']} ({filter_sentence(t)})"))
