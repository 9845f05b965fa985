"""Each filter the RFP states, in plain English for the brief (no raw JSON).

Input is one item of the ``scope_query`` trace (``{"filter", "section", "sentence",
"reading"}``, written by ``scope.reading``) or of the ranking's ``filter_trace``
(``{"filter", "value", "remaining"}``). An approximation the reading makes is said as such.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from rfp_retrieval.report.wording import NOT_STATED

# Wording that the end (or completion) date states directly; any other recency wording
# ("went live within 7 years", "awarded in the last 5 years") is approximated by the end date.
_END_WORDING = re.compile(
    r"\b(?:end(?:ed|ing|s)?|complet\w*|conclu\w*|perform\w*|current\w*|ongoing|active)\b", re.I
)
_START_WORDING = re.compile(r"\b(?:start(?:ed|ing|s)?|began|begun|commenc\w*|initiat\w*)\b", re.I)


def usd(value: Any) -> str:
    """$14.8M / $850K / $1,200 from whole dollars."""
    value = float(value)
    if value >= 1_000_000:
        return f"${value / 1_000_000:,.1f}M"
    if value >= 10_000:
        return f"${value / 1_000:,.0f}K"
    return f"${value:,.0f}"


def _window(months: int) -> str:
    if months % 12 == 0:
        years = months // 12
        return f"{years} year{'s' if years != 1 else ''}"
    return f"{months} month{'s' if months != 1 else ''}"


def plain_value(value: Any) -> str:
    """A trace value as text: lists joined with ", ", dicts as "key value", None "none"."""
    if value is None or value == [] or value == {}:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(plain_value(v) for v in value)
    if isinstance(value, Mapping):
        return "; ".join(f"{k.replace('_', ' ')} {plain_value(v)}" for k, v in value.items())
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def _recency(reading: Mapping[str, Any], sentence: str) -> str:
    if "unknown" in reading:
        return f"recency window unknown: {reading['unknown']}"
    started = "started_after" in reading
    date = reading.get("started_after") if started else reading.get("ended_after")
    verb = "started" if started else "ended"
    text = f"{verb} on or after {date}"
    if reading.get("months") is not None:
        text += (
            f" ({_window(int(reading['months']))} before the {reading.get('anchor')}"
            f" {reading.get('anchor_date')})"
        )
    else:
        text += " (the date the RFP states)"
    if not started:
        text += ", or still ongoing"
    wording = _START_WORDING if started else _END_WORDING
    if sentence and not wording.search(sentence):
        text += (
            f"; approximation: the RFP's wording is read as the {'start' if started else 'end'}"
            " date of the work"
        )
    return text


def _value(reading: Mapping[str, Any]) -> str:
    low, high, approx = reading.get("min"), reading.get("max"), reading.get("approx")
    per = " per year" if reading.get("basis") == "annual" else ""
    # a strict bound ("more than $1M", "$500K or less will not be considered") is said as one
    floor = "more than" if reading.get("min_inclusive") is False else "at least"
    top = "less than" if reading.get("max_inclusive") is False else "at most"
    if low is not None and high is not None:
        text = f"contract value between {usd(low)} and {usd(high)}{per}"
        if reading.get("min_inclusive") is False or reading.get("max_inclusive") is False:
            text = f"contract value {floor} {usd(low)} and {top} {usd(high)}{per}"
    elif low is not None:
        text = f"contract value {floor} {usd(low)}{per}"
    elif high is not None:
        text = f"contract value {top} {usd(high)}{per}"
    elif reading.get("stated"):
        text = f"contract value stated as '{reading['stated']}'"  # foreign currency
    else:
        text = "contract value not bounded"
    if approx is not None:
        text += f"; approximation: the RFP states about {usd(approx)}{per}, read as this band"
    if reading.get("unknown"):
        # an annual or foreign-currency bound is stated but not compared
        # (scope.reading.ANNUAL_NOT_COMPARED, section_lm.value.FOREIGN_NOT_COMPARED)
        text += f"; {reading['unknown']} (no value filter)"
    if reading.get("conflict"):
        # contradictory value statements (scope.section_lm.value.VALUE_CONFLICT_RULE)
        text += f"; WARNING: {reading['conflict']}"
    return text


def _customers(reading: Mapping[str, Any]) -> str:
    types = list(reading.get("types") or [])
    industries = list(reading.get("industries") or [])
    # an industry stated without a customer type leaves the type unstated, not "any"
    # (wording.NOT_STATED: "any" reads as if the RFP had said so)
    text = "customer type " + (" or ".join(types) if types else NOT_STATED)
    alternatives = list(reading.get("or_industries") or [])
    if types and alternatives:
        # one filter: that customer type OR that industry (ScopeFilters.industries_alternative)
        text += ", or industry " + " or ".join(alternatives)
    if industries:
        text += "; industry " + " or ".join(industries)
    return text


def filter_sentence(item: Mapping[str, Any]) -> str:
    """The reading of one ``scope_query`` trace item in plain English.

    E.g. ``{"filter": "recency", "reading": {"months": 60, "anchor": "proposal due date",
    "anchor_date": "2026-06-01", "ended_after": "2021-06-01"}, ...}`` gives "ended on or after
    2021-06-01 (5 years before the proposal due date 2026-06-01), or still ongoing". Values
    are USD. A reading the filter does not name is written with ``plain_value``.
    """
    name, reading = item.get("filter"), item.get("reading")
    sentence = item.get("sentence") or ""
    if reading == "not stated":
        return f"{NOT_STATED} in the RFP (no filter)"
    if name == "recency" and isinstance(reading, Mapping):
        return _recency(reading, sentence)
    if name == "value" and isinstance(reading, Mapping):
        return _value(reading)
    if name == "value" and reading == "no value constraint":
        return "no value constraint (the RFP says any size)"
    if name == "customer_types" and isinstance(reading, Mapping):
        return _customers(reading)
    if name == "prime_in_set":
        return (
            f"the set of references needs prime work ({plain_value(reading)}); each reference "
            "may be prime or sub: check that the picks include one as prime"
        )
    if name == "customer_types_in_set" and isinstance(reading, list | tuple):
        return (
            "at least one reference for a " + " or ".join(map(str, reading)) + " customer (a "
            "rule on the set of references, not a filter on each): the brief checks the picks"
        )
    if name == "industries_preferred" and isinstance(reading, list | tuple):
        return "industry " + " or ".join(map(str, reading)) + " preferred (ranked, not filtered)"
    if name == "customer_types" and reading == "any":
        return "any customer type (the RFP says so)"
    if name == "issuer" and isinstance(reading, str):
        return f"issuer type {reading}"
    if name == "require_prime":
        return "prime contractor only" if reading else "prime or sub"
    if name == "ongoing_min_months" and isinstance(reading, Mapping):
        by = reading.get("started_by")
        return (
            f"work still in progress counts once {_window(int(reading['months']))} performed"
            + (f" (started by {by})" if by else "")
            + "; ongoing work started later is left out unless too few entries qualify; "
            "completed work is not affected"  # filters.ONGOING_PERFORMED_RULE
        )
    if name == "references_required" and isinstance(reading, int):
        return f"{reading} reference{'s' if reading != 1 else ''} required"
    return plain_value(reading)
