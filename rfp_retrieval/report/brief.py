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
import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import polars as pl

from rfp_retrieval.report.caveats import (
    Caveat,
    caveats,
    no_match_caveat,
    passed_filters,
    rfp_warnings,
    set_checks,
    vague_caveat,
    weak_pick_caveat,
)
from rfp_retrieval.report.chart import score_chart_svg, score_parts
from rfp_retrieval.report.filters import filter_sentence, plain_value, usd
from rfp_retrieval.report.questions import ANSWERED_BY_REFERENCES, NEEDS_SME, question_views
from rfp_retrieval.report.reasons import why_cite
from rfp_retrieval.report.wording import NOT_STATED, number_word, references_heading
from rfp_retrieval.retrieval.components import RAW_COSINES
from rfp_retrieval.retrieval.config import references_to_offer
from rfp_retrieval.retrieval.filters import constraint_labels
from rfp_retrieval.retrieval.overrides import override_line, override_marks

__all__ = [
    "brief_html",
    "brief_markdown",
    "question_views",
    "reference_facts",
    "notes_by_reference",
    "notes_record",
    "reference_notes",
    "score_chart_svg",
    "score_parts",
]
NO_SENTENCE = "(no source sentence recorded)"

SCOPE_FIELDS: tuple[tuple[str, str], ...] = (
    ("issuer", "Issuer"),
    ("issuer_type", "Issuer type"),
    ("customer_types", "Customer types required"),
    ("industries", "Industries required"),
    ("industries_preferred", "Industries preferred (ranked, not filtered)"),
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
        return NOT_STATED
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value))
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def _scope_field(scope: Mapping[str, Any], key: str) -> str:
    """The brief's text for one ``SCOPE_FIELDS`` key: ``_fmt`` of the value; a value bound
    left unset because the RFP states it per year reads "no filter (annual value stated)"
    rather than "not stated" (``scope.reading.ANNUAL_NOT_COMPARED``)."""
    value = scope.get(key)
    if value is None and key in ("value_min", "value_max"):
        for t in _trace(scope):
            reading = t.get("reading")
            if t.get("filter") == "value" and isinstance(reading, Mapping):
                if reading.get("unknown") and reading.get(key[len("value_") :]) is not None:
                    return "no filter (annual value stated: not compared with total values)"
    return _fmt(value)


_SOLICITATION = re.compile(
    r"\brequest\s+for\s+(?:proposals?|quotations?|quotes?|information|qualifications|"
    r"applications|offers?)\b|\bRF[PQIO]\b|\bsolicitation\b|\binvitation\s+(?:to|for)\s+"
    r"(?:bid|negotiate|tender)\b|\b(?:IFB|ITB|ITN)\b|\bstatement\s+of\s+(?:work|objectives)\b|"
    r"\bperformance\s+work\s+statement\b|\b(?:PWS|SOW|SOO)\b",
    re.I,
)
"""Words that name a solicitation ("Request for Proposal 1234 — Case Management System")."""

_JURISDICTION = re.compile(
    r"^(?:the\s+)?(?:state|commonwealth|county|city|town|township|village|borough|parish|"
    r"district|territory|province|government|republic|people)\s+of\s+[\w .,'&-]+$",
    re.I,
)
"""A cover line that only names a government ("STATE OF NEBRASKA", "City of Tacoma")."""


def _words_of(text: str | None) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", (text or "").lower()))


def is_cover_line(title: str | None, issuer: str | None = None) -> bool:
    """True when the document's ``title`` only names who issued it: a government's name
    ("STATE OF NEBRASKA", "County of Marin") or the issuer's name itself, with no word of a
    solicitation (rule: the first line of a state or local RFP is its letterhead; the
    solicitation's name comes below it; issue 15)."""
    if not title or _SOLICITATION.search(title):
        return False
    if issuer and _words_of(title) and _words_of(title) in _words_of(issuer):
        return True
    if _JURISDICTION.match(title.strip()):
        return True
    # the issuer's name with its place after a comma ("PINELLAS COUNTY, FLORIDA")
    head, _, place = title.partition(",")
    return bool(
        issuer
        and place.strip()
        and len(place.split()) <= 3
        and _words_of(head)
        and (_words_of(head) in _words_of(issuer) or _JURISDICTION.match(head.strip()))
    )


def brief_title(
    scope: Mapping[str, Any], headings: Sequence[str] = (), cover: Sequence[str] = ()
) -> str:
    """The brief's title: the RFP's title, unless it is a cover line (``is_cover_line``),
    then the first of ``headings`` (the outline's headings in document order) that names a
    solicitation ("Request for Proposal 1234 — Case Management System"), then the first of
    the ``cover`` lines (the document's first lines, ``COVER_LINES``) that names one, with the
    project's name when the next cover line is one (``_subject_line``: "REQUEST FOR
    PROPOSALS RFP-2027-007 — Statewide Grants Management System"); else the title as read,
    else the partition key. Source: new-user trial (two RFPs of one county would both be
    "PINELLAS COUNTY, FLORIDA")."""
    title = scope.get("title")
    if title and is_cover_line(title, scope.get("issuer")):
        for heading in headings:
            text = " ".join(str(heading or "").split())
            if text and text != title and _SOLICITATION.search(text):
                return text
        lines = [" ".join(str(line).split()) for line in cover if str(line).strip()]
        for i, text in enumerate(lines):
            if text != title and _SOLICITATION.search(text) and len(text.split()) <= 20:
                after = lines[i + 1] if i + 1 < len(lines) else ""
                if _subject_line(after, scope.get("issuer")):
                    return f"{text} — {after}"
                return text
    return title or str(scope.get("rfp_partition") or "")


COVER_LINES = 12
"""How many of the document's first non-empty lines the brief's title may come from."""

def cover_lines(text: str) -> list[str]:
    """The first ``COVER_LINES`` non-empty lines of a document's text, without Markdown
    heading marks or inline markup: what ``brief_title`` reads when the title is a cover
    line."""
    from rfp_retrieval.documents.front_matter import first_content_lines
    from rfp_retrieval.documents.text import strip_inline_markdown

    lines = first_content_lines(text.splitlines(), COVER_LINES)
    bare = (strip_inline_markdown(re.sub(r"^\s{0,3}#{1,6}\s+", "", line)).strip() for line in lines)
    return [line for line in bare if line]


_LABEL_LINE = re.compile(r"^[^:]{1,40}:\s")


def _subject_line(text: str, issuer: str | None) -> bool:
    """True when a cover line below the solicitation's name is the project's name: a short
    line that is no ``Label: value`` field, no date, no numbered heading and no cover line of
    its own ("Statewide Grants Management System (GMS) Implementation and Hosting")."""
    from rfp_retrieval.quantities.dates import find_dates

    words = text.split()
    return bool(
        2 <= len(words) <= 20
        and not _LABEL_LINE.match(text)
        and not find_dates(text)
        and not re.match(r"^(?:\d{1,2}(?:\.\d+)*\.?|[A-Z]\.\d*|[IVX]+\.)\s", text)
        and not is_cover_line(text, issuer)
        and not _SOLICITATION.search(text)
    )


def issuer_line(scope: Mapping[str, Any]) -> str:
    """ "Issued by <issuer> (<type>)" from the ``scope_query`` row, or "Issuer not stated"
    (the issuer is shown under the title whatever the title is; issue 15)."""
    issuer = scope.get("issuer")
    if not issuer:
        return "Issuer not stated"
    kind = scope.get("issuer_type")
    return f"Issued by {issuer}" + (f" ({kind})" if kind else "")


def document_warnings(
    document: Mapping[str, Any] | None, override_problem: str | None = None
) -> list[str]:
    """What the writer must know about how this RFP was read and whether their override file
    applied, one sentence each:

    - pages read by OCR (``document["ocr_pages"]``: ``{page: mean word confidence in %}``),
      with their confidence: quote nothing from them without checking the PDF;
    - pages with no text at all (``document["pages_without_text"]``): nothing on them was
      read;
    - ``override_problem``: why the RFP's override file was not applied
      (``retrieval.overrides.override_problem``), so a failed override is said in that RFP's
      brief, not only in the run output (issue 15).

    [] when there is nothing to say."""
    out: list[str] = []
    document = document or {}
    ocr = document.get("ocr_pages") or {}
    if isinstance(ocr, str):
        try:
            ocr = json.loads(ocr or "{}")
        except json.JSONDecodeError:
            ocr = {}
    if ocr:
        pages = sorted(ocr.items(), key=lambda kv: int(kv[0]))
        listed = ", ".join(f"{int(p)} ({float(c):.0f}% word confidence)" for p, c in pages)
        out.append(
            f"Read by OCR (scanned, no text layer): page{'s' if len(pages) > 1 else ''} "
            f"{listed}. OCR misreads numbers and names: check anything quoted from "
            f"{'them' if len(pages) > 1 else 'it'} against the PDF."
        )
    empty = list(document.get("pages_without_text") or [])
    if empty:
        out.append(
            f"No text could be read on page{'s' if len(empty) > 1 else ''} "
            f"{', '.join(str(p) for p in empty)}: any requirement there is missing from this "
            "brief."
        )
    if override_problem:
        out.append(f"Override file not applied: {override_problem}")
    return out


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
            value = f"{usd(funded)} funded of {usd(high)}"
        elif low and high and low != high:
            value = f"{usd(low)}–{usd(high)}"
        elif low or high:
            value = usd(high or low)
        else:
            value = "value not stated"
        start = row.get("start_date")
        end = "ongoing" if row.get("ongoing") else row.get("end_date")
        start_text = _fmt(start) if start else "start not stated"
        period = f"{start_text} to {_fmt(end) if end else 'end not stated'}"
        facts[row["id"]] = "; ".join([customer, role, value, period])
    return facts


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


def candidates_sentence(shared: Mapping[str, Any]) -> str:
    """How many candidates the ranking had, split by how they got in (plain text, no period).

    "N candidate(s) passed every hard filter, M let in by relaxation" when a filter was
    relaxed (N from the filter trace before relaxation, ``caveats.passed_filters``; M the
    rest of ``candidate_count``), else "N candidate(s) passed the hard filters"; "unknown"
    when a count is not recorded. One rule for the Markdown and HTML briefs (issue 18: the
    brief printed "38 candidates passed" next to "fewer than three survived").
    """
    total = shared.get("candidate_count")
    if not shared.get("relaxation_steps"):
        return f"{_fmt(total)} candidate(s) passed the hard filters"
    strict = passed_filters(shared.get("filter_trace") or [])
    let_in = total - strict if total is not None and strict is not None else None
    return (
        f"{'unknown' if strict is None else strict} candidate(s) passed every hard filter, "
        f"{'unknown' if let_in is None else let_in} let in by relaxation"
    )


def _step_value(step: Mapping[str, Any]) -> str:
    """A ranking trace step's value in plain words ('' for a step without one)."""
    value = step.get("value")
    if step.get("filter") == "value" and isinstance(value, list | tuple) and len(value) == 2:
        low, high = value  # USD, as the trace stores them
        return f"{usd(low) if low else 'no floor'} to {usd(high) if high else 'no ceiling'}"
    return plain_value(value) if "value" in step else ""


def _step_remaining(step: Mapping[str, Any]) -> str:
    """A ranking trace step's remaining count; a soft constraint (``soft_penalty`` in the
    step: a miss costs score, nothing is removed) says "(scored, not filtered)" so an unchanged
    count does not read as a band that was ignored."""
    remaining = "" if step.get("remaining") is None else str(step["remaining"])
    if "soft_penalty" in step:
        return f"{remaining} (scored, not filtered)".strip()
    return remaining


def _picks(references: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return sorted(
        (r for r in references if (r.get("rank") or 0) > 0), key=lambda r: r.get("rank") or 0
    )


def reference_notes(
    ref: Mapping[str, Any],
    scope: Mapping[str, Any],
    picks: Sequence[Mapping[str, Any]],
    passed: int | None,
    vague_ids: Collection[str] = (),
    relaxed: bool = False,
    entries: Mapping[str, Mapping[str, Any]] | None = None,
    relevance: Sequence[Mapping[str, Any]] = (),
    sections: Sequence[tuple[str, str]] | None = None,
) -> tuple[list[str], list[Caveat]]:
    """The "why cite" lines and "check before citing" caveats of one pick.

    ``entries`` maps entry id to its ``pp_entries`` row; None (not passed) leaves out the
    reasons and the checks that need the entry, a missing id reports the entry unknown.
    ``passed``: entries left after the hard filters (``caveats.passed_filters``), ``relaxed``
    whether the ranking relaxed a filter;
    ``relevance`` / ``sections``: the RFP's relevance criteria and scope units
    (``reasons.why_cite``).
    """
    if entries is None:
        found = [
            vague_caveat(str(ref.get("id")), vague_ids),
            weak_pick_caveat(ref, picks, passed, relaxed, scope.get("references_required")),
        ]
        return [], [c for c in found if c is not None]
    entry = entries.get(str(ref.get("id")))
    vague = str(ref.get("id")) in vague_ids
    why = why_cite(entry, scope, relevance, sections, vague) if entry is not None else []
    checks = caveats(ref, entry, scope, vague_ids, picks, passed, relaxed)
    if entry is not None:
        checks += [c for c in [no_match_caveat(why)] if c is not None]
    return why, checks


def notes_by_reference(
    references: Sequence[Mapping[str, Any]],
    scope: Mapping[str, Any],
    vague_ids: Collection[str],
    entries: Mapping[str, Mapping[str, Any]] | None,
    relevance: Sequence[Mapping[str, Any]],
    sections: Sequence[tuple[str, str]] | None,
) -> dict[Any, tuple[list[str], list[Caveat]]]:
    """``reference_notes`` per pick id: ``{id: (why_cite lines, caveats)}``."""
    picks, shared = _picks(references), _shared(references)
    passed = passed_filters(shared["filter_trace"])
    relaxed = bool(shared["relaxation_steps"])
    context = {"entries": entries, "relevance": relevance, "sections": sections}
    return {
        ref.get("id"): reference_notes(ref, scope, picks, passed, vague_ids, relaxed, **context)
        for ref in picks
    }


def notes_record(
    notes: Mapping[Any, tuple[list[str], list[Caveat]]],
) -> dict[str, dict[str, list]]:
    """``notes_by_reference`` output as JSON-ready dicts (the ``run --json`` shape):
    ``{id: {"why_cite": [str], "check_before_citing": [{"kind", "text"}]}}``."""
    return {
        str(rid): {
            "why_cite": list(why),
            "check_before_citing": [{"kind": c.kind, "text": c.text} for c in checks],
        }
        for rid, (why, checks) in notes.items()
    }


def _wanted(scope: Mapping[str, Any]) -> str:
    """How many references the ranking aimed for, in words (``config.references_to_offer`` of
    the RFP's stated count: "three" when it states none)."""
    return number_word(references_to_offer(scope.get("references_required")))


def brief_markdown(
    scope: Mapping[str, Any],
    references: Sequence[Mapping[str, Any]],
    vague_ids: Collection[str] = (),
    questions: Sequence[Mapping[str, Any]] | None = None,
    facts: Mapping[str, str] | None = None,
    entries: Mapping[str, Mapping[str, Any]] | None = None,
    relevance: Sequence[Mapping[str, Any]] = (),
    sections: Sequence[tuple[str, str]] | None = None,
    document: Mapping[str, Any] | None = None,
    override_problem: str | None = None,
) -> str:
    """The brief as Markdown (same content as ``brief_html``, no chart).

    ``scope``: the ``scope_query`` row; ``references``: the partition's ``pp_references``
    rows (a rank-0 row means no reference, with ``reason``); ``vague_ids``: library ids whose
    outcomes are vague; ``questions``: ``question_views`` output or None when not built;
    ``facts``: ``reference_facts`` output (customer, role, value, period per entry id);
    ``entries`` / ``relevance`` / ``sections`` as in ``reference_notes`` (why cite, check
    before citing); ``document``: ``{"headings": [outline headings in order], "ocr_pages":
    {page: confidence %}, "pages_without_text": [page]}`` of the RFP (title rule
    ``brief_title``, warnings ``document_warnings``); ``override_problem``: why the RFP's
    override file was not applied, None when it applied or there is none.
    """
    picks, shared = _picks(references), _shared(references)
    notes = notes_by_reference(references, scope, vague_ids, entries, relevance, sections)
    marks = override_marks(references)
    title = brief_title(
        scope, (document or {}).get("headings") or (), (document or {}).get("cover") or ()
    )
    lines = [f"# Response brief: {_md(title)}", "", _md(issuer_line(scope)), ""]
    for warning in document_warnings(document, override_problem):
        lines.append(f"> **Warning:** {_md(warning)}")
        lines.append("")
    lines += ["## ScopeQuery as read from the RFP", ""]
    for key, label in SCOPE_FIELDS:
        lines.append(f"- **{label}:** {_md(_scope_field(scope, key))}")
    lines.append(
        f"- **As-of date:** {_md(_fmt(scope.get('as_of')))} ({_md(scope.get('as_of_source'))})"
    )
    trace = _trace(scope)
    if trace:
        lines += [
            "",
            "| filter | reading | where the RFP states it | sentence |",
            "| --- | --- | --- | --- |",
        ]
        for t in trace:
            lines.append(
                f"| {_md(t.get('filter'))} | {_md(filter_sentence(t))} | "
                f"{_md(t.get('section'))} | {_md(t.get('sentence') or NO_SENTENCE)} |"
            )
    lines += [f"\n**Check the RFP:** {_md(w)}" for w in rfp_warnings(trace)]
    lines += ["", f"## {references_heading(len(picks))}", ""]
    lines.append(f"Ranking mode {_md(shared['mode'])}; {_md(candidates_sentence(shared))}.")
    lines += [f"\n**Check the set:** {_md(w)}" for w in set_checks(trace, picks, entries)]
    if shared["relaxation_steps"]:
        lines.append(
            f"**Constraints relaxed** (fewer than {_wanted(scope)} passed every hard filter): "
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
        if ref.get("id") in marks:
            lines.append("- **Writer override:** " + _md(override_line(marks[ref["id"]])))
        if facts and ref.get("id") in facts:
            lines.append("- Facts: " + _md(facts[ref["id"]]))
        parts = [f"{label} +{v:.3f}" for _, label, v in positives]
        parts += [f"{label} {v:.3f}" for _, label, v in penalties]
        lines.append("- Components: " + (_md("; ".join(parts)) or "none"))
        cos = [f"{c} {float(ref[c]):.3f}" for c in RAW_COSINES if ref.get(c) is not None]
        if cos:
            lines.append("- Cosines: " + _md("; ".join(cos)))
        if ref.get("relaxed"):
            lines.append("- **Misses:** " + _md(", ".join(constraint_labels(ref["relaxed"]))))
        why, checks = notes[ref.get("id")]
        if why:
            lines.append("- **Why cite:**")
            lines += [f"  - {_md(line)}" for line in why]
        if checks:
            lines.append("- **Check before citing:**")
            lines += [f"  - {_md(c.text)}" for c in checks]
        lines.append("")
    if shared["filter_trace"]:
        lines += ["## Filter trace", "", "| filter | value | remaining |", "| --- | --- | --- |"]
        for t in shared["filter_trace"]:
            lines.append(
                f"| {_md(t.get('filter'))} | {_md(_step_value(t))} | {_md(_step_remaining(t))} |"
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
            for item in q.get("items") or []:
                lines.append(f">  - {_md(item.get('label'))} {_md(item.get('text'))}")
            lines.append("")
            if q.get("section_path"):
                lines.append("- Section: " + _md(" > ".join(q["section_path"])))
            lines.append(
                "- Rewrite: "
                + ("skipped (specific enough)" if q.get("skipped") else _md(q.get("rewrite")))
            )
            for text in q.get("queries") or []:
                lines.append(f"  - query: {_md(text)}")
            if q.get("past_performance"):
                lines.append(f"- **Answer from the references:** {_md(ANSWERED_BY_REFERENCES)}")
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
.score-chart .seg-label{fill:#fff;font-size:11px}.why{background:#eef6ee;
border-left:4px solid #59a14f;padding:6px 10px;margin:6px 0}.why ul,.checks ul{margin:4px 0}
.override{background:#eef2fb;border-left:4px solid #4e79a7;padding:6px 10px;margin:6px 0}
.override-tag{color:#fff;background:#4e79a7;border-radius:3px;padding:1px 6px;font-size:12px}
"""


def brief_html(
    scope: Mapping[str, Any],
    references: Sequence[Mapping[str, Any]],
    vague_ids: Collection[str] = (),
    questions: Sequence[Mapping[str, Any]] | None = None,
    facts: Mapping[str, str] | None = None,
    entries: Mapping[str, Mapping[str, Any]] | None = None,
    relevance: Sequence[Mapping[str, Any]] = (),
    sections: Sequence[tuple[str, str]] | None = None,
    document: Mapping[str, Any] | None = None,
    override_problem: str | None = None,
) -> str:
    """The brief as one self-contained HTML page (inline CSS and SVG, no script).

    Arguments as in ``brief_markdown``. The three references carry ``class="reference"``
    and ``data-id``; the chart is ``<svg class="score-chart">``.
    """
    picks, shared = _picks(references), _shared(references)
    notes = notes_by_reference(references, scope, vague_ids, entries, relevance, sections)
    marks = override_marks(references)
    title = brief_title(
        scope, (document or {}).get("headings") or (), (document or {}).get("cover") or ()
    )
    h = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">",
        f"<title>Response brief: {_e(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>Response brief: {_e(title)}</h1>",
        f'<p class="issuer">{_e(issuer_line(scope))}</p>',
        f'<p class="muted">Partition {_e(scope.get("rfp_partition"))}; embedding model '
        f"{_e(scope.get('model'))}</p>",
        *(
            f'<div class="warn document-warning">{_e(w)}</div>'
            for w in document_warnings(document, override_problem)
        ),
        "<h2>ScopeQuery as read from the RFP</h2><table>",
    ]
    for key, label in SCOPE_FIELDS:
        h.append(f"<tr><th>{_e(label)}</th><td>{_e(_scope_field(scope, key))}</td></tr>")
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
                f"<td>{_e(t.get('sentence') or NO_SENTENCE)}</td>"
                f"<td>{_e(filter_sentence(t))}</td></tr>"
            )
        h.append("</table>")
    h += [f'<div class="warn"><b>Check the RFP:</b> {_e(w)}</div>' for w in rfp_warnings(trace)]
    h.append(f'<h2 id="references">{_e(references_heading(len(picks)))}</h2>')
    h.append(f"<p>Ranking mode <b>{_e(shared['mode'])}</b>; {_e(candidates_sentence(shared))}.</p>")
    h += [
        f'<div class="warn set-check"><b>Check the set:</b> {_e(w)}</div>'
        for w in set_checks(trace, picks, entries)
    ]
    if shared["relaxation_steps"]:
        h.append(
            f'<div class="miss"><b>Constraints relaxed</b> (fewer than {_wanted(scope)} '
            "references passed every hard filter): "
            f"{_e(', '.join(shared['relaxation_steps']))}</div>"
        )
    if shared["reason"]:
        h.append(f'<div class="warn">{_e(shared["reason"])}</div>')
    if picks:
        h.append(score_chart_svg(picks))
    else:
        h.append('<p class="warn">No reference could be picked.</p>')
    for ref in picks:
        positives, penalties = score_parts(ref)
        mark = marks.get(str(ref.get("id")))
        overridden = ' data-override="yes"' if mark else ""
        h.append(f'<div class="reference ref" data-id="{_e(ref.get("id"))}"{overridden}>')
        tag = ' <span class="override-tag">writer override</span>' if mark else ""
        h.append(
            f"<h3>{_e(ref.get('rank'))}. {_e(ref.get('id'))}: {_e(ref.get('title'))} "
            f'<span class="muted">score {float(ref.get("score") or 0):.3f}</span>{tag}</h3>'
        )
        if mark:
            h.append(
                f'<div class="override" data-replaced="{_e(mark["replaced"]["id"])}">'
                f"<b>Writer override.</b> {_e(override_line(mark))}</div>"
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
                f"{_e(', '.join(constraint_labels(ref['relaxed'])))}</div>"
            )
        why, checks = notes[ref.get("id")]
        if why:
            h.append(
                '<div class="why"><b>Why cite</b><ul>'
                + "".join(f"<li>{_e(line)}</li>" for line in why)
                + "</ul></div>"
            )
        if checks:
            h.append(
                '<div class="warn checks"><b>Check before citing</b><ul>'
                + "".join(f'<li data-kind="{_e(c.kind)}">{_e(c.text)}</li>' for c in checks)
                + "</ul></div>"
            )
        h.append("</div>")
    if shared["filter_trace"]:
        h.append(
            "<h2>Filter trace</h2><table><tr><th>filter</th><th>value</th><th>remaining</th></tr>"
        )
        for t in shared["filter_trace"]:
            h.append(
                f"<tr><td>{_e(t.get('filter'))}</td>"
                f"<td>{_e(_step_value(t))}</td>"
                f"<td>{_e(_step_remaining(t))}</td></tr>"
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
            if q.get("items"):
                h.append(
                    "<ul>"
                    + "".join(
                        f"<li>{_e(i.get('label'))} {_e(i.get('text'))}</li>" for i in q["items"]
                    )
                    + "</ul>"
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
            if q.get("past_performance"):
                h.append(
                    f'<p class="answer-from-references"><b>Answer from the '
                    f'<a href="#references">references</a>:</b> {_e(ANSWERED_BY_REFERENCES)}</p>'
                )
            if q.get("passages"):
                h.append("<ol>")
                for p in q["passages"]:
                    h.append(f"<li>{_e(p.get('block_id'))}: {_e(p.get('title'))}</li>")
                h.append("</ol>")
            h.append("</div>")
    h.append("</body></html>")
    return "\n".join(h) + "\n"
