"""The per-RFP response brief a writer opens in a browser (HTML) or a review tool (Markdown).

Pure functions over plain rows: the ``scope_query`` row, the ``pp_references`` rows, the ids
of library entries with vague outcomes and, when the answer pipeline ran, the
``rewritten_questions`` / ``question_answers`` frames. The HTML is one self-contained file
(inline CSS, inline SVG bar chart, no script, no external asset). Every piece of RFP or
library text is escaped: RFPs are untrusted input.
"""

from __future__ import annotations

import datetime as dt
import html
import json
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import polars as pl

from rfp_retrieval.retrieval.components import COMPONENT, RAW_COSINES, REGISTRY, summed_parts

# The chart's stacking order and colour of each positive part (column -> colour); labels and
# kinds come from the registry of score components (``retrieval.components.REGISTRY``).
BAR_COLOURS: dict[str, str] = {
    "weighted_narrative": "#4e79a7",
    "weighted_technical": "#59a14f",
    "weighted_whole": "#76b7b2",
    "weighted_section_max": "#9c755f",
    "weighted_outcome": "#f28e2b",
    "domain_match": "#b07aa1",
    "recency_bump": "#edc948",
    "agency_bump": "#ff9da7",
    "sector_bump": "#bab0ac",
}
# Components summed into the score, in stacking order: (column, label, colour).
POSITIVE_PARTS: tuple[tuple[str, str, str], ...] = tuple(
    (name, COMPONENT[name].label, colour) for name, colour in BAR_COLOURS.items()
)
PENALTY_PARTS: tuple[tuple[str, str], ...] = tuple(
    (c.name, c.label) for c in REGISTRY if c.kind == "penalty"
)
PENALTY_COLOUR = "#e15759"
NEEDS_SME = "needs SME"

SCOPE_FIELDS: tuple[tuple[str, str], ...] = (
    ("issuer", "Issuer"),
    ("issuer_type", "Issuer type"),
    ("customer_types", "Customer types required"),
    ("industries", "Industries required"),
    ("value_min", "Value at least (USD)"),
    ("value_max", "Value at most (USD)"),
    ("ended_after", "Work ended on/after (or ongoing)"),
    ("started_after", "Work started on/after"),
    ("require_prime", "Prime contractor only"),
    ("references_required", "References required"),
)


def _e(value: Any) -> str:
    """HTML-escaped text of ``value`` ('' for None)."""
    return html.escape("" if value is None else str(value), quote=True)


def _md(value: Any) -> str:
    """``value`` as one line of Markdown text with table/markup characters neutralised."""
    text = "" if value is None else str(value)
    text = " ".join(text.split())
    for ch in ("\\", "|", "*", "_", "`", "[", "]", "<", ">", "#"):
        text = text.replace(ch, "\\" + ch)
    return text


def _fmt(value: Any) -> str:
    if value is None or value == []:
        return "not stated"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value))
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def score_parts(
    components: Mapping[str, float | None],
) -> tuple[list[tuple[str, str, float]], list[tuple[str, str, float]]]:
    """The summed parts of one reference's score: (positives, penalties).

    Each part is ``(column, label, value)``; positives are > 0 (stacking order of
    ``POSITIVE_PARTS``), penalties < 0. Raw cosines are not parts, except ``whole`` in the
    naive mode, where it is the whole score (``components.summed_parts``). Zero and missing
    components are left out.
    """
    parts = {c.name: (c, value) for c, value in summed_parts(components)}
    positives = [
        (key, label, parts[key][1])
        for key, label, _ in POSITIVE_PARTS
        if key in parts and parts[key][1] > 0
    ]
    positives += [(c.name, c.label, v) for c, v in parts.values() if c.raw and v > 0]
    penalties = [
        (key, label, parts[key][1])
        for key, label in PENALTY_PARTS
        if key in parts and parts[key][1] < 0
    ]
    return positives, penalties


def _usd(value: Any) -> str:
    """$14.8M / $850K / $1,200 from whole dollars."""
    value = float(value)
    if value >= 1_000_000:
        return f"${value / 1_000_000:,.1f}M"
    if value >= 10_000:
        return f"${value / 1_000:,.0f}K"
    return f"${value:,.0f}"


def reference_facts(entries: pl.DataFrame, ids: Collection[str]) -> dict[str, str]:
    """One line of facts per library entry a writer checks before citing it.

    ``entries`` is the ``pp_entries`` frame; returns ``{id: "customer (type); role; value;
    period"}`` for the ``ids`` found, e.g. ``"Ohio Department of Medicaid (ODM) (state);
    prime; $14.8M funded of $21.0M; 2021-03-01 to ongoing"``. Values are USD; a value or date
    the library does not state reads "value not stated" / "start not stated".
    """
    wanted = entries.filter(pl.col("id").is_in(list(ids)))
    facts = {}
    for row in wanted.to_dicts():
        named, acronym = row.get("customer_named"), row.get("customer_acronym")
        customer = named or acronym or "customer not stated"
        if named and acronym:
            customer = f"{named} ({acronym})"
        if row.get("customer_type"):
            customer += f" ({row['customer_type']})"
        role = row.get("role") or "role not stated"
        if role == "sub" and row.get("prime_contractor"):
            role = f"sub to {row['prime_contractor']}"
        low, high, funded = row.get("value_min"), row.get("value_max"), row.get("value_funded")
        if funded and high and funded != high:
            value = f"{_usd(funded)} funded of {_usd(high)}"
        elif low and high and low != high:
            value = f"{_usd(low)}–{_usd(high)}"
        elif low or high:
            value = _usd(high or low)
        else:
            value = "value not stated"
        start = row.get("start_date")
        end = "ongoing" if row.get("ongoing") else row.get("end_date")
        start_text = _fmt(start) if start else "start not stated"
        period = f"{start_text} to {_fmt(end) if end else 'end not stated'}"
        facts[row["id"]] = "; ".join([customer, role, value, period])
    return facts


def _colour(key: str) -> str:
    return BAR_COLOURS.get(key, "#76b7b2")


def score_chart_svg(references: Sequence[Mapping[str, Any]], width: int = 760) -> str:
    """An inline SVG: one stacked horizontal bar per reference.

    Positive components are stacked left to right from 0; penalties are drawn as a separate
    red bar under it, growing right from 0 with the magnitude of the penalty. Scale: the
    largest positive total (at least 0.1) spans the plot width. Returns '' for no references.
    """
    if not references:
        return ""
    label_w, pad, bar_h, gap = 170, 12, 22, 30
    plot_w = width - label_w - 2 * pad - 60
    totals = [sum(v for _, _, v in score_parts(r)[0]) for r in references]
    scale = plot_w / max(max(totals), 0.1)
    rows_h = len(references) * (bar_h * 2 + gap)
    legend_y = pad + rows_h + 6
    height = legend_y + 22 * ((len(POSITIVE_PARTS) + 1 + 3) // 4) + pad
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="score-chart" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        'aria-label="Score components per reference">'
    ]
    for i, ref in enumerate(references):
        positives, penalties = score_parts(ref)
        y = pad + i * (bar_h * 2 + gap)
        out.append(
            f'<text x="{pad}" y="{y + 15}" class="ref-label">#{_e(ref.get("rank"))} '
            f"{_e(ref.get('id'))}</text>"
        )
        out.append(
            f'<text x="{pad}" y="{y + bar_h + 15}" class="sub">score '
            f"{float(ref.get('score') or 0):.3f}</text>"
        )
        x = label_w + pad
        for key, label, value in positives:
            w = value * scale
            out.append(
                f'<rect class="part" data-part="{key}" x="{x:.1f}" y="{y}" width="{w:.1f}" '
                f'height="{bar_h}" fill="{_colour(key)}"><title>{_e(label)} +{value:.3f}</title>'
                "</rect>"
            )
            x += w
        out.append(f'<text x="{x + 4:.1f}" y="{y + 15}" class="sub">+{totals[i]:.3f}</text>')
        px = label_w + pad
        for key, label, value in penalties:
            w = -value * scale
            out.append(
                f'<rect class="penalty" data-part="{key}" x="{px:.1f}" y="{y + bar_h + 2}" '
                f'width="{w:.1f}" height="{bar_h - 8}" fill="{PENALTY_COLOUR}">'
                f"<title>{_e(label)} {value:.3f}</title></rect>"
            )
            px += w
        if penalties:
            total_pen = sum(v for _, _, v in penalties)
            out.append(
                f'<text x="{px + 4:.1f}" y="{y + bar_h + 13}" class="sub">'
                f"{total_pen:.3f} penalties</text>"
            )
    legend = [(label, colour) for _, label, colour in POSITIVE_PARTS] + [
        ("penalties", PENALTY_COLOUR)
    ]
    for j, (label, colour) in enumerate(legend):
        lx = pad + (j % 4) * 180
        ly = legend_y + (j // 4) * 22
        out.append(f'<rect x="{lx}" y="{ly}" width="12" height="12" fill="{colour}"></rect>')
        out.append(f'<text x="{lx + 16}" y="{ly + 11}" class="sub">{_e(label)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def question_views(
    rewritten: pl.DataFrame | None, answers: pl.DataFrame | None
) -> list[dict[str, Any]] | None:
    """Per question: label, text, section path, rewrite, query set, status and passages.

    ``rewritten`` / ``answers`` are the partition's ``rewritten_questions`` and
    ``question_answers`` frames (None when the answer pipeline has not run). Missing columns
    are tolerated. Returns None when both frames are None, [] when they hold no question.
    Each passage is ``{rank, block_id, title, score}``; ``needs_sme`` is True when the
    retrieval status says so.
    """
    if rewritten is None and answers is None:
        return None
    views: dict[str, dict[str, Any]] = {}

    def view(qid: str) -> dict[str, Any]:
        return views.setdefault(
            qid,
            {
                "question_id": qid,
                "label": None,
                "question": None,
                "section_path": [],
                "rewrite": None,
                "skipped": None,
                "queries": [],
                "status": None,
                "confidence": None,
                "needs_sme": False,
                "passages": [],
            },
        )

    for row in (rewritten if rewritten is not None else pl.DataFrame()).iter_rows(named=True):
        if not row.get("question_id"):
            continue
        v = view(row["question_id"])
        v["label"] = row.get("label")
        v["question"] = row.get("original")
        v["section_path"] = list(row.get("section_path") or [])
        v["rewrite"] = row.get("rewrite")
        v["skipped"] = row.get("skipped")
        try:
            queries = json.loads(row.get("queries") or "[]")
        except json.JSONDecodeError:
            queries = []
        v["queries"] = [q.get("text") if isinstance(q, dict) else str(q) for q in queries]
    for row in (answers if answers is not None else pl.DataFrame()).iter_rows(named=True):
        if not row.get("question_id"):
            continue
        v = view(row["question_id"])
        v["label"] = v["label"] or row.get("label")
        v["question"] = v["question"] or row.get("question")
        v["status"] = row.get("status")
        v["confidence"] = row.get("confidence")
        v["needs_sme"] = row.get("status") == NEEDS_SME
        if row.get("block_id"):
            v["passages"].append(
                {
                    "rank": row.get("rank"),
                    "block_id": row["block_id"],
                    "title": row.get("title"),
                    "score": row.get("score"),
                }
            )
    for v in views.values():
        v["passages"].sort(key=lambda p: p["rank"] if p["rank"] is not None else 1_000_000)
    return list(views.values())


def _trace(scope: Mapping[str, Any]) -> list[dict[str, Any]]:
    raw = scope.get("trace")
    if isinstance(raw, str):
        try:
            raw = json.loads(raw or "[]")
        except json.JSONDecodeError:
            return []
    return [t for t in (raw or []) if isinstance(t, dict)]


def _shared(references: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Per-partition fields repeated on every references row (candidates, trace, reason)."""
    first = references[0] if references else {}
    trace = first.get("filter_trace")
    if isinstance(trace, str):
        try:
            trace = json.loads(trace or "[]")
        except json.JSONDecodeError:
            trace = []
    return {
        "mode": first.get("mode"),
        "candidate_count": first.get("candidate_count"),
        "relaxation_steps": list(first.get("relaxation_steps") or []),
        "filter_trace": [t for t in (trace or []) if isinstance(t, dict)],
        "reason": first.get("reason"),
    }


def _picks(references: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return sorted(
        (r for r in references if (r.get("rank") or 0) > 0), key=lambda r: r.get("rank") or 0
    )


def brief_markdown(
    scope: Mapping[str, Any],
    references: Sequence[Mapping[str, Any]],
    vague_ids: Collection[str] = (),
    questions: Sequence[Mapping[str, Any]] | None = None,
    facts: Mapping[str, str] | None = None,
) -> str:
    """The brief as Markdown (same content as ``brief_html``, no chart).

    ``scope``: the ``scope_query`` row; ``references``: the partition's ``pp_references``
    rows (a rank-0 row means no reference, with ``reason``); ``vague_ids``: library ids whose
    outcomes are vague; ``questions``: ``question_views`` output or None when not built;
    ``facts``: ``reference_facts`` output (customer, role, value, period per entry id).
    """
    picks, shared = _picks(references), _shared(references)
    lines = [f"# Response brief: {_md(scope.get('title') or scope.get('rfp_partition'))}", ""]
    lines += ["## ScopeQuery as read from the RFP", ""]
    for key, label in SCOPE_FIELDS:
        lines.append(f"- **{label}:** {_md(_fmt(scope.get(key)))}")
    lines.append(
        f"- **As-of date:** {_md(_fmt(scope.get('as_of')))} ({_md(scope.get('as_of_source'))})"
    )
    trace = _trace(scope)
    if trace:
        lines += ["", "| filter | where the RFP states it | sentence |", "| --- | --- | --- |"]
        for t in trace:
            lines.append(
                f"| {_md(t.get('filter'))} | {_md(t.get('section'))} | {_md(t.get('sentence'))} |"
            )
    lines += ["", "## The three references", ""]
    lines.append(
        f"Ranking mode {_md(shared['mode'])}; {_md(_fmt(shared['candidate_count']))} "
        "candidate(s) passed the hard filters."
    )
    if shared["relaxation_steps"]:
        lines.append(
            "**Constraints relaxed** (fewer than three survived): "
            + _md(", ".join(shared["relaxation_steps"]))
        )
    if shared["reason"]:
        lines.append(f"**Note:** {_md(shared['reason'])}")
    lines.append("")
    if not picks:
        lines.append("_No reference could be picked._")
    for ref in picks:
        positives, penalties = score_parts(ref)
        lines.append(
            f"### {ref.get('rank')}. {_md(ref.get('id'))}: {_md(ref.get('title'))} "
            f"(score {float(ref.get('score') or 0):.3f})"
        )
        lines.append("")
        if facts and ref.get("id") in facts:
            lines.append("- Facts: " + _md(facts[ref["id"]]))
        parts = [f"{label} +{v:.3f}" for _, label, v in positives]
        parts += [f"{label} {v:.3f}" for _, label, v in penalties]
        lines.append("- Components: " + (_md("; ".join(parts)) or "none"))
        cos = [f"{c} {float(ref[c]):.3f}" for c in RAW_COSINES if ref.get(c) is not None]
        if cos:
            lines.append("- Cosines: " + _md("; ".join(cos)))
        if ref.get("relaxed"):
            lines.append("- **Misses:** " + _md(", ".join(ref["relaxed"])))
        if ref.get("id") in vague_ids:
            lines.append("- **Warning:** vague outcomes (no measurable metric); ask the PM")
        lines.append("")
    if shared["filter_trace"]:
        lines += ["## Filter trace", "", "| filter | value | remaining |", "| --- | --- | --- |"]
        for t in shared["filter_trace"]:
            lines.append(
                f"| {_md(t.get('filter'))} | {_md(json.dumps(t.get('value'), default=str))} | "
                f"{_md(t.get('remaining'))} |"
            )
        lines.append("")
    if questions is not None:
        needs = sum(1 for q in questions if q.get("needs_sme"))
        lines += ["## Questions", "", f"{len(questions)} question(s), {needs} need an SME.", ""]
        for q in questions:
            flag = " **needs SME**" if q.get("needs_sme") else ""
            lines.append(f"### {_md(q.get('label') or q.get('question_id'))}{flag}")
            lines.append("")
            lines.append(f"> {_md(q.get('question'))}")
            lines.append("")
            if q.get("section_path"):
                lines.append("- Section: " + _md(" > ".join(q["section_path"])))
            lines.append(
                "- Rewrite: "
                + ("skipped (specific enough)" if q.get("skipped") else _md(q.get("rewrite")))
            )
            for text in q.get("queries") or []:
                lines.append(f"  - query: {_md(text)}")
            for p in q.get("passages") or []:
                lines.append(
                    f"- Passage {p.get('rank')}: {_md(p.get('block_id'))} {_md(p.get('title'))}"
                )
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


CSS = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;
max-width:1100px;color:#1d232b;padding:0 16px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;border-bottom:2px solid #dde2e8;
padding-bottom:4px;margin-top:28px}h3{font-size:16px;margin:18px 0 6px}
table{border-collapse:collapse;margin:8px 0;width:100%}
td,th{border:1px solid #dde2e8;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f3f5f8}.warn{background:#fff4e0;border-left:4px solid #f28e2b;
padding:6px 10px;margin:6px 0}.miss{background:#fdecec;border-left:4px solid #e15759;
padding:6px 10px;margin:6px 0}.sme{color:#fff;background:#e15759;border-radius:3px;
padding:1px 6px;font-size:12px}.muted{color:#66707c}.facts{margin:4px 0 8px}
.ref{border:1px solid #dde2e8;
border-radius:6px;padding:8px 14px;margin:10px 0}
.score-chart text{font:12px system-ui,sans-serif;fill:#1d232b}
.score-chart .ref-label{font-weight:600}.score-chart .sub{fill:#4a5360}
"""


def brief_html(
    scope: Mapping[str, Any],
    references: Sequence[Mapping[str, Any]],
    vague_ids: Collection[str] = (),
    questions: Sequence[Mapping[str, Any]] | None = None,
    facts: Mapping[str, str] | None = None,
) -> str:
    """The brief as one self-contained HTML page (inline CSS and SVG, no script).

    Arguments as in ``brief_markdown``. The three references carry ``class="reference"``
    and ``data-id``; the chart is ``<svg class="score-chart">``.
    """
    picks, shared = _picks(references), _shared(references)
    title = scope.get("title") or scope.get("rfp_partition")
    h = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">",
        f"<title>Response brief: {_e(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>Response brief: {_e(title)}</h1>",
        f'<p class="muted">Partition {_e(scope.get("rfp_partition"))}; embedding model '
        f"{_e(scope.get('model'))}</p>",
        "<h2>ScopeQuery as read from the RFP</h2><table>",
    ]
    for key, label in SCOPE_FIELDS:
        h.append(f"<tr><th>{_e(label)}</th><td>{_e(_fmt(scope.get(key)))}</td></tr>")
    h.append(
        f"<tr><th>As-of date</th><td>{_e(_fmt(scope.get('as_of')))} "
        f'<span class="muted">({_e(scope.get("as_of_source"))})</span></td></tr></table>'
    )
    trace = _trace(scope)
    if trace:
        h.append(
            "<h3>Where the RFP states each filter</h3><table>"
            "<tr><th>filter</th><th>section</th><th>sentence</th><th>reading</th></tr>"
        )
        for t in trace:
            h.append(
                f"<tr><td>{_e(t.get('filter'))}</td><td>{_e(t.get('section'))}</td>"
                f"<td>{_e(t.get('sentence'))}</td>"
                f"<td>{_e(json.dumps(t.get('reading'), default=str))}</td></tr>"
            )
        h.append("</table>")
    h.append("<h2>The three references</h2>")
    h.append(
        f"<p>Ranking mode <b>{_e(shared['mode'])}</b>; "
        f"<b>{_e(_fmt(shared['candidate_count']))}</b> candidate(s) passed the hard filters.</p>"
    )
    if shared["relaxation_steps"]:
        h.append(
            '<div class="miss"><b>Constraints relaxed</b> (fewer than three references '
            f"survived the filters): {_e(', '.join(shared['relaxation_steps']))}</div>"
        )
    if shared["reason"]:
        h.append(f'<div class="warn">{_e(shared["reason"])}</div>')
    if picks:
        h.append(score_chart_svg(picks))
    else:
        h.append('<p class="warn">No reference could be picked.</p>')
    for ref in picks:
        positives, penalties = score_parts(ref)
        h.append(f'<div class="reference ref" data-id="{_e(ref.get("id"))}">')
        h.append(
            f"<h3>{_e(ref.get('rank'))}. {_e(ref.get('id'))}: {_e(ref.get('title'))} "
            f'<span class="muted">score {float(ref.get("score") or 0):.3f}</span></h3>'
        )
        if facts and ref.get("id") in facts:
            h.append(f'<p class="facts">{_e(facts[ref["id"]])}</p>')
        h.append("<table><tr><th>component</th><th>value</th></tr>")
        for _, label, v in positives:
            h.append(f"<tr><td>{_e(label)}</td><td>+{v:.3f}</td></tr>")
        for _, label, v in penalties:
            h.append(f"<tr><td>{_e(label)}</td><td>{v:.3f}</td></tr>")
        cos = [f"{c} {float(ref[c]):.3f}" for c in RAW_COSINES if ref.get(c) is not None]
        if cos:
            h.append(f'<tr><td class="muted">cosines</td><td>{_e("; ".join(cos))}</td></tr>')
        h.append("</table>")
        if ref.get("relaxed"):
            h.append(
                f'<div class="miss"><b>Misses a stated constraint:</b> '
                f"{_e(', '.join(ref['relaxed']))}</div>"
            )
        if ref.get("id") in vague_ids:
            h.append(
                '<div class="warn"><b>Vague outcomes:</b> no measurable metric in the library '
                "entry; ask its project manager for numbers before citing it.</div>"
            )
        h.append("</div>")
    if shared["filter_trace"]:
        h.append(
            "<h2>Filter trace</h2><table><tr><th>filter</th><th>value</th><th>remaining</th></tr>"
        )
        for t in shared["filter_trace"]:
            h.append(
                f"<tr><td>{_e(t.get('filter'))}</td>"
                f"<td>{_e(json.dumps(t.get('value'), default=str))}</td>"
                f"<td>{_e(t.get('remaining'))}</td></tr>"
            )
        h.append("</table>")
    if questions is not None:
        needs = sum(1 for q in questions if q.get("needs_sme"))
        h.append(
            f"<h2>Questions</h2><p>{len(questions)} question(s), <b>{needs}</b> need an SME.</p>"
        )
        for q in questions:
            flag = f' <span class="sme">{NEEDS_SME}</span>' if q.get("needs_sme") else ""
            h.append(
                f'<div class="question ref"><h3>{_e(q.get("label") or q.get("question_id"))}'
                f"{flag}</h3><p>{_e(q.get('question'))}</p>"
            )
            if q.get("section_path"):
                h.append(f'<p class="muted">{_e(" > ".join(q["section_path"]))}</p>')
            rewrite = "skipped (specific enough)" if q.get("skipped") else q.get("rewrite")
            h.append(f"<p><b>Rewrite:</b> {_e(rewrite)}</p>")
            if q.get("queries"):
                h.append(
                    "<details><summary>Query set</summary><ul>"
                    + "".join(f"<li>{_e(t)}</li>" for t in q["queries"])
                    + "</ul></details>"
                )
            if q.get("passages"):
                h.append("<ol>")
                for p in q["passages"]:
                    h.append(f"<li>{_e(p.get('block_id'))}: {_e(p.get('title'))}</li>")
                h.append("</ol>")
            h.append("</div>")
    h.append("</body></html>")
    return "\n".join(h) + "\n"
