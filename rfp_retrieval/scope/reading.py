"""The ScopeReading of an RFP and ``read_scope``, which fills it (see the package docstring)."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, field

from dateutil.relativedelta import relativedelta

from rfp_retrieval.documents.front_matter import find_due_date
from rfp_retrieval.documents.records import RfpDocument
from rfp_retrieval.scope.issuer import read_issuer
from rfp_retrieval.scope.ranking_texts import ranking_texts
from rfp_retrieval.scope.section_lm import (
    PastPerformanceRequirements,
    Statement,
    document_sentences,
    find_pp_requirements,
)
from rfp_retrieval.scope.section_lm.value import FOREIGN_NOT_COMPARED

ANNUAL_NOT_COMPARED = "annual value: not compared with total contract values"
"""Trace note of an annual value bound (the library states total contract values only)."""


@dataclass
class ScopeReading:
    """The ScopeQuery read from one RFP (field names of ``pp_golden_dev/scopes_truth.jsonl``).

    Dates are ISO strings; ``value_min``/``value_max``/``value_approx`` are USD whole dollars;
    ``value_basis`` is ``"total"`` or ``"annual"`` (per-year value stated). An annual bound is
    not a filter: the library states total contract values, so ``value_min``/``value_max`` stay
    None and ``value_annual`` holds the stated ``{"min", "max", "approx"}`` per year (USD).
    ``value_conflict``: the writer's warning when the RFP's value statements contradict
    each other (``section_lm.value.VALUE_CONFLICT_RULE``; None when they agree).
    ``recency_years`` is the window in years (``recency_months / 12``; an int when whole), None
    when the RFP states a fixed date instead ("since FY2021"). ``recency_anchor`` names the
    date the window counts back from: ``issue date``, ``proposal due date``, ``as_of`` or
    ``today``. ``customer_types_required`` holds ``CUSTOMER_TYPES`` values
    in the order the RFP names them ([] = any).
    ``industries_preferred``: industries the RFP prefers but does not require (rank only).
    ``industries_alternative``: industries that qualify a reference in place of the required
    customer types ("state agencies or electric utilities": type OR industry).
    ``references_required`` is the number of references required (the lower end of a range such
    as "two (2) to three (3)"; ``references_max`` its upper end, or the count of "up to five
    (5)"; None when the RFP states no ceiling).
    ``emphasized_domains`` uses the library's domain tags (``library.vocab.DOMAIN_TAGS``).
    ``trace`` holds one dict per filter read: ``{"filter", "section", "sentence", "reading"}``.
    ``size_constraints`` holds the non-dollar size bounds (FTE, users, employees, months) and
    ``relevance`` the relevance-criteria sentences, each with its section (from
    ``section_lm.find_pp_requirements``); they rank and explain, they do not filter.
    """

    issuer: str | None = None
    issuer_acronym: str | None = None
    parent_agency: str | None = None
    issuer_type: str | None = None
    rfp_date: str | None = None
    references_required: int | None = None
    references_max: int | None = None
    recency_text: str | None = None
    recency_years: int | float | None = None
    recency_months: int | None = None
    recency_anchor: str | None = None
    ended_after: str | None = None
    started_after: str | None = None
    value_text: str | None = None
    value_min: int | None = None
    value_max: int | None = None
    value_approx: int | None = None
    value_basis: str | None = None
    value_annual: dict | None = None
    value_conflict: str | None = None
    customer_types_required: list[str] = field(default_factory=list)
    industries_required: list[str] = field(default_factory=list)
    industries_preferred: list[str] = field(default_factory=list)
    industries_alternative: list[str] = field(default_factory=list)
    emphasized_domains: list[str] = field(default_factory=list)
    domain_weights: dict[str, float] = field(default_factory=dict)
    require_prime: bool = False
    narrative_text: str = ""
    technical_text: str = ""
    outcome_text: str = ""
    trace: list[dict] = field(default_factory=list)
    size_constraints: list[dict] = field(default_factory=list)
    relevance: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        """Plain JSON-ready dict of every field."""
        return asdict(self)


def read_scope(doc: RfpDocument, as_of: dt.date | None = None) -> ScopeReading:
    """The ScopeQuery filters, issuer and ranking texts of ``doc``.

    ``as_of`` is the date recency counts back from when the RFP states no issue date (the
    golden files' ``as_of``); the wall clock is used only when both are missing. Never raises
    for an unusual document: a filter the text does not state stays None / [] and the trace
    says so.
    """
    reading = ScopeReading()
    trace = reading.trace
    lines = doc.text.splitlines()
    sentences = document_sentences(doc)

    read_issuer(doc, lines, reading)
    reading.rfp_date = doc.issue_date.isoformat() if doc.issue_date else None

    anchor_issue, anchor_name = _anchor(doc, as_of)
    due = find_due_date(lines)
    _apply_requirements(
        find_pp_requirements(doc, sentences), reading, anchor_issue, anchor_name, due
    )
    ranking_texts(doc, sentences, reading)
    for name, value in (
        ("recency", reading.ended_after or reading.started_after),
        ("value", reading.value_min or reading.value_max),
        ("customer_types", reading.customer_types_required),
    ):
        if not value and not any(t["filter"] == name for t in trace):
            trace.append(
                {"filter": name, "section": None, "sentence": None, "reading": "not stated"}
            )
    return reading


def _window_start(anchor: dt.date, months: int) -> dt.date | None:
    """``anchor`` minus ``months`` calendar months, or None when that is before year 1."""
    try:
        return anchor - relativedelta(months=months)
    except (ValueError, OverflowError):
        return None


def _apply_requirements(
    req: PastPerformanceRequirements,
    reading: ScopeReading,
    anchor: dt.date,
    anchor_name: str,
    due: dt.date | None,
) -> None:
    """Copy the Section L/M requirements into ``reading``, dating the recency window.

    A window counts back from the proposal due date when its sentence says so and the due date
    is stated, else from ``anchor`` (issue date, ``as_of`` or today).
    """
    if req.references_required is not None and req.references_stated is not None:
        reading.references_required = req.references_required
        reading.references_max = req.references_max
        _trace(reading, "references_required", req.references_stated, req.references_required)
    rec = req.recency
    counted_from = due if rec is not None and rec.due_date_anchor and due is not None else anchor
    if (
        rec is not None
        and rec.months is not None
        and _window_start(counted_from, rec.months) is None
    ):
        # an anchor such as "Issue Date: 0001-01-01" cannot be counted back from: the window
        # stays unknown (no filter) and the trace says why
        _trace(
            reading,
            "recency",
            rec.stated,
            {
                "months": rec.months,
                "anchor": anchor_name if counted_from is anchor else "proposal due date",
                "anchor_date": counted_from.isoformat(),
                "unknown": "the window would start before year 1; check the RFP's issue date",
            },
        )
        rec = None
    if rec is not None:
        started = rec.applies_to == "started"
        key = "started_after" if started else "ended_after"
        if rec.months is not None:
            base, base_name = anchor, anchor_name
            if rec.due_date_anchor and due is not None:
                base, base_name = due, "proposal due date"
            date = _window_start(base, rec.months) or base
            reading.recency_months = rec.months
            reading.recency_years = (
                rec.months // 12 if rec.months % 12 == 0 else round(rec.months / 12, 2)
            )
            reading.recency_anchor = base_name
            value: dict = {
                "months": rec.months,
                "anchor": base_name,
                "anchor_date": base.isoformat(),
                key: date.isoformat(),
            }
        else:
            date = rec.since  # type: ignore[assignment]
            reading.recency_anchor = "stated date"
            value = {key: date.isoformat()}
        reading.recency_text = rec.stated.text
        setattr(reading, key, date.isoformat())
        _trace(reading, "recency", rec.stated, value)
    if req.value is None and req.value_foreign is not None:
        _trace(
            reading,
            "value",
            req.value_foreign,
            {"stated": req.value_foreign.text, "unknown": FOREIGN_NOT_COMPARED},
        )
    if req.no_value_constraint is not None:
        _trace(reading, "value", req.no_value_constraint, "no value constraint")
    elif req.value is not None:
        v = req.value
        reading.value_text = v.stated.text
        reading.value_basis = v.basis
        value_reading: dict = {"min": v.min, "max": v.max, "approx": v.approx, "basis": v.basis}
        # whether an entry valued exactly at a bound meets it ("more than $1M": no)
        if v.min is not None:
            value_reading["min_inclusive"] = v.min_inclusive
        if v.max is not None:
            value_reading["max_inclusive"] = v.max_inclusive
        if v.conflict is not None:
            value_reading["conflict"] = v.conflict
            reading.value_conflict = v.conflict
        if v.basis == "annual":
            # the library states total contract values, not values per year: an annual bound
            # is not compared with them (no value filter), and the trace says so
            reading.value_annual = {"min": v.min, "max": v.max, "approx": v.approx}
            value_reading["unknown"] = ANNUAL_NOT_COMPARED
        else:
            reading.value_min, reading.value_max, reading.value_approx = v.min, v.max, v.approx
        _trace(reading, "value", v.stated, value_reading)
    if req.customers is not None:
        c = req.customers
        if c.any_customer:
            _trace(reading, "customer_types", c.stated, "any")
        else:
            reading.customer_types_required = list(c.types)
            reading.industries_required = list(c.industries)
            reading.industries_alternative = list(c.alternatives)
            read = {"types": list(c.types), "industries": list(c.industries)}
            if c.alternatives:
                read["or_industries"] = list(c.alternatives)
            _trace(reading, "customer_types", c.stated, read)
    preferred = [i for i in req.industries_preferred if i not in reading.industries_required]
    if preferred and req.industries_preferred_stated is not None:
        reading.industries_preferred = preferred
        _trace(reading, "industries_preferred", req.industries_preferred_stated, preferred)
    if req.prime_in_set is not None and req.require_prime is None:
        _trace(reading, "prime_in_set", req.prime_in_set, req.prime_in_set.text)
    if req.customers_in_set_stated is not None:
        _trace(reading, "customer_types_in_set", req.customers_in_set_stated, req.customers_in_set)
    if req.require_prime is not None:
        reading.require_prime = True
        _trace(reading, "require_prime", req.require_prime, True)
    if req.ongoing_min_months is not None and req.ongoing_min_stated is not None:
        start = _window_start(anchor, req.ongoing_min_months)
        _trace(
            reading,
            "ongoing_min_months",
            req.ongoing_min_stated,
            {
                "months": req.ongoing_min_months,
                "anchor": anchor_name,
                "started_by": start.isoformat() if start else None,
            },
        )
    reading.size_constraints = [
        {
            "measure": s.measure,
            "min": s.min,
            "max": s.max,
            "preferred": s.preferred,
            "text": s.stated.text,
            "section": s.stated.section,
        }
        for s in req.sizes
    ]
    reading.relevance = [{"sentence": r.sentence, "section": r.section} for r in req.relevance]


def _anchor(doc: RfpDocument, as_of: dt.date | None) -> tuple[dt.date, str]:
    if doc.issue_date is not None:
        return doc.issue_date, "issue date"
    if as_of is not None:
        return as_of, "as_of"
    return dt.date.today(), "today"


def _trace(reading: ScopeReading, name: str, s: Statement, value: object) -> None:
    reading.trace.append(
        {"filter": name, "section": s.section, "sentence": s.sentence, "reading": value}
    )
