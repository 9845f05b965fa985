"""The fixed JSON shapes of the command line (DESIGN.md "Command line"; outside tools parse
them), and how they are written.

Each ``--json`` output is one of the ``TypedDict`` s below; ``tests/test_cli_json_shapes.py``
checks real outputs against them (key sets and types), so a changed shape fails a test before
it reaches a tool. Dates are written as ISO strings (``YYYY-MM-DD``), paths as strings;
amounts are USD integers, recency in years, metrics in [0, 1].

- ``run --json``: ``RunPayload``
- ``library --json``: ``LibraryPayload`` (entries: ``PastPerformanceEntry.to_canonical()``)
- ``parse --json``: ``ParsePayload`` (built by ``rfp_retrieval.cli.parse.parse``)
- ``eval past-performance --json``: ``EvalPastPerformancePayload``
- ``eval answers --json``: ``EvalAnswersPayload``
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path
from typing import Any, TypedDict

from rfp_retrieval.inbox import shown_name

# --- run --json ---------------------------------------------------------------------------


class RunScopeQuery(TypedDict):
    """The ScopeQuery of one RFP as stored in ``scope_query`` (the hard filters)."""

    issuer: str | None
    issuer_type: str | None
    customer_types: list[str]
    value_min: int | None  # USD
    value_max: int | None  # USD
    ended_after: str | None  # date
    started_after: str | None  # date
    require_prime: bool  # a stated "prime contractor only"
    as_of: str  # date recency is judged against
    industries: list[str]  # industries required (a filter; preferred ones only rank)
    references_required: int | None  # references the RFP asks for (None: not stated)


class RunCheck(TypedDict):
    """One "check before citing" line of the brief (``report.caveats.Caveat``)."""

    kind: str  # miss, role, value, recency, vague, weak, few, unknown, missing (caveats.Caveat)
    text: str


class RunReplaced(TypedDict):
    """The pick a writer's override displaced, as the pipeline ranked it."""

    id: str | None
    title: str | None
    score: float | None


class RunOverride(TypedDict):
    """A writer's override (``retrieval.overrides.override_marks``)."""

    by: str
    at: str  # ISO 8601 date or date-time
    reason: str
    replaced: RunReplaced


class RunReference(TypedDict):
    """One of the top 3 (``retrieval.references.references_from_frame``), with the brief's
    notes (``report.brief.notes_record``, stored in ``response_brief.reference_notes``) and
    the writer's override when there is one."""

    id: str
    title: str | None
    score: float
    components: dict[str, float]  # every stored score component that is not null
    relaxed: list[str]  # constraints it misses when a filter was relaxed
    unknown: list[str]  # constraints whose fact its library entry does not state
    missing_facets: list[str]  # facets its library entry leaves empty (scored as missing)
    why_cite: list[str]  # the brief's "why cite" lines
    check_before_citing: list[RunCheck]  # the brief's "check before citing" lines
    override: RunOverride | None  # None: the pipeline's own pick


class RunItem(TypedDict):
    """One RFP file of a run: ``status`` is ok, warning (it ran; ``error`` says what to
    check, e.g. ``run.NO_STRUCTURE``), failed or interrupted."""

    file: str
    partition: str
    status: str
    error: str | None
    scope_query: RunScopeQuery | None
    references: list[RunReference]
    brief: str | None  # brief.html path
    # not run this time: file, override and library as at its last successful run
    # (``run.UNCHANGED``); the results shown are that run's
    unchanged: bool


class FileReason(TypedDict):
    """A file not read from the inbox, or an override file not applied."""

    file: str
    reason: str


class RunPayload(TypedDict):
    rfps: list[RunItem]
    skipped: list[FileReason]
    unmatched_overrides: list[FileReason]
    rejected_library_rows: list[dict[str, Any]]  # library.quality.rejected_library_rows
    briefs_without_rfp: list[dict[str, str]]  # cli.run.briefs_without_rfp: file, partition, reason


def run_item(file: str, partition: str) -> RunItem:
    """A ``RunItem`` before its run: failed, no error yet, nothing found."""
    return {
        "file": file,
        "partition": partition,
        "status": "failed",
        "error": None,
        "scope_query": None,
        "references": [],
        "brief": None,
        "unchanged": False,
    }


def run_scope_query(scope: dict[str, Any]) -> RunScopeQuery:
    """The ``RunScopeQuery`` of one stored ``scope_query`` row."""
    from rfp_retrieval.retrieval.scope_query import RUN_SUMMARY_FIELDS

    return {k: scope[k] for k in RUN_SUMMARY_FIELDS}  # type: ignore[return-value]


def run_references(references: Any, reference_notes: str | None) -> list[RunReference]:
    """The ``RunReference`` list of one partition.

    ``references``: its ``pp_references`` frame (polars); ``reference_notes``: the JSON of
    its ``response_brief.reference_notes`` (None when the brief was not built: the notes are
    then empty lists). The notes are the brief's own, read back rather than recomputed.

    Raises:
        json.JSONDecodeError: ``reference_notes`` is not JSON.
    """
    from rfp_retrieval.retrieval.overrides import override_marks
    from rfp_retrieval.retrieval.references import references_from_frame

    if references is None or not references.height:
        return []
    notes = json.loads(reference_notes) if reference_notes else {}
    rows = references.to_dicts()
    marks = override_marks(rows)
    # unknown facts (filters.UNKNOWN_RULE) and missing facets (components.MISSING_FACET_RULE)
    # as the ranking stored them; older tables without the columns give empty lists
    gaps = {
        row["id"]: (list(row.get("unknown") or []), list(row.get("missing_facets") or []))
        for row in rows
    }
    out: list[RunReference] = []
    for ref in references_from_frame(references):
        note = notes.get(ref["id"], {})
        unknown, missing = gaps.get(ref["id"], ([], []))
        out.append(
            {
                **ref,  # type: ignore[typeddict-item]
                "unknown": unknown,
                "missing_facets": missing,
                "why_cite": list(note.get("why_cite", [])),
                "check_before_citing": list(note.get("check_before_citing", [])),
                "override": marks.get(ref["id"]),  # type: ignore[typeddict-item]
            }
        )
    return out


# --- library --json -----------------------------------------------------------------------


class LibraryRejected(TypedDict):
    file: str
    row: int | None
    reason: str


class LibrarySuperseded(TypedDict):
    id: str
    file: str
    row: int | None  # None for a write-up
    last_updated: str | None
    superseded_by_file: str | None
    superseded_by_row: int | None
    reason: str  # why the kept row won (older date, no date, or a tie to check)


class LibraryPayload(TypedDict):
    entries: list[dict[str, Any]]  # PastPerformanceEntry.to_canonical(): the seed's types
    rejected: list[LibraryRejected]
    superseded: list[LibrarySuperseded]  # older duplicates of an id, kept with the winner


# --- parse --json -------------------------------------------------------------------------


class ParseSection(TypedDict):
    number: str | None
    heading: str
    level: int
    parent: str | None  # the parent's number, else its heading


class ParsePart(TypedDict):
    label: str  # ``matrix.part_label_of``: "3.2(1)", "(a)"
    text: str
    kind: str  # the compliance-matrix kind of the item's row (``matrix.matrix_rows``)


class ParseQuestion(TypedDict):
    label: str | None
    text: str
    section_path: list[str]
    kind: str  # the compliance-matrix kind (``matrix.matrix_kind``): an ask kind or not
    parts: list[ParsePart]  # the list items of a compound ask, in order


class ParsePastPerformance(TypedDict):
    references_required: int | None
    recency_years: int | float | None
    ended_after: str | None  # date
    started_after: str | None  # date
    value_min: int | None  # USD
    value_max: int | None  # USD
    customer_types: list[str]
    require_prime: bool  # prime contractor only (False: not stated)


class ParseIssuer(TypedDict):
    name: str | None
    type: str | None


class ParsePayload(TypedDict):
    sections: list[ParseSection]
    questions: list[ParseQuestion]
    past_performance: ParsePastPerformance
    issuer: ParseIssuer
    summary: str


# --- eval past-performance --json ---------------------------------------------------------


class EvalScope(TypedDict):
    """One golden scope under one mode (``eval.past_performance.evaluate_modes``)."""

    scope_id: str
    top3: list[str]
    ideal: list[str]
    hits: int
    recall: float
    recall_alt: float | None
    relaxed: list[str]  # constraints relaxed for this scope
    candidates: int  # entries left after the hard filters


class EvalMode(TypedDict):
    recall_at_3: float
    recall_at_3_alt: float | None
    mrr: float
    per_scope: list[EvalScope]


class EvalPastPerformancePayload(TypedDict):
    modes: dict[str, EvalMode]  # naive, facet, facet+bumps, default


# --- eval answers --json ------------------------------------------------------------------


class AnswerMetrics(TypedDict):
    questions: int
    recall_at_5: float
    hit_rate_at_5: float
    mrr_at_10: float
    ndcg_at_10: float


class AnswerQuestion(TypedDict):
    """One labelled question (``eval.answers.evaluate_answers``); metrics rounded to 4."""

    qid: str
    type: str
    found: bool  # the parser found the question in its document
    retrieved: list[str]  # block ids, best first
    relevant: dict[str, int]  # block id -> grade 1|2
    confidence: float | None  # cosine in [-1, 1] over the top passages; None: not found
    status: str | None  # "ok" or "needs SME"; None: not found
    recall_at_5: float
    hit_rate_at_5: float
    mrr_at_10: float
    ndcg_at_10: float


class AnswerRun(AnswerMetrics):
    found: int
    by_type: dict[str, AnswerMetrics]  # contextual, specific, compound, table, cross-reference
    per_question: list[AnswerQuestion]


class EvalAnswersPayload(TypedDict):
    runs: dict[str, AnswerRun]  # "on" / "off": with and without rewriting


# --- writing ------------------------------------------------------------------------------


def _json_default(value: Any) -> Any:
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"not JSON serializable: {type(value).__name__}")


def _shown(value: Any) -> Any:
    if isinstance(value, str):
        return shown_name(value)
    if isinstance(value, Path):
        return shown_name(str(value))
    if isinstance(value, dict):
        return {_shown(k): _shown(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_shown(v) for v in value]
    return value


def print_json(payload: Any) -> None:
    """Write ``payload`` to stdout as indented JSON (dates ISO, paths as strings; a file
    name that is not UTF-8 with U+FFFD, ``inbox.shown_name``, never a ``\\udcXX`` escape).

    Raises:
        TypeError: a value is not JSON serializable (names its type).
    """
    sys.stdout.write(json.dumps(_shown(payload), indent=2, default=_json_default) + "\n")
