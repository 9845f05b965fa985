"""What a writer checks before citing a reference: one rule per function, plain rows in.

``entry`` is a ``pp_entries`` row (``library.frames.ENTRY_SCHEMA``: values USD, dates
``datetime.date``), ``scope`` the ``scope_query`` row, ``ref`` a ``pp_references`` row. Each
rule returns a ``Caveat`` or None. A fact the library or the RFP does not state is reported
as unknown, never as a miss (``retrieval.filters.UNKNOWN_RULE``), and a facet the entry
leaves empty as missing (``retrieval.components.MISSING_FACET_RULE``).
"""

from __future__ import annotations

import datetime as dt
import re
import statistics
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dateutil.relativedelta import relativedelta

from rfp_retrieval.report.filters import usd
from rfp_retrieval.retrieval.config import references_to_offer

RECENCY_MARGIN_MONTHS = 6
"""An end date this close after the recency cut-off is flagged (the RFP may count from a
later date than the one read)."""
WEAK_SCORE_RATIO = 0.6
"""A pick scoring below this share of the picks' median score is weak."""


CAVEAT_KINDS = (
    "miss", "role", "value", "recency", "predecessor", "vague", "weak", "few", "unknown",
    "missing",
)  # fmt: skip
"""Every ``Caveat.kind`` (the brief's ``data-kind`` and ``run --json``'s ``kind``)."""


@dataclass(frozen=True)
class Caveat:
    """One check: ``kind`` (one of ``CAVEAT_KINDS``) and the
    sentence (``few``: a pick that passed every filter when fewer did than the RFP asks
    references for)."""

    kind: str
    text: str


def _date(value: Any) -> dt.date | None:
    if value is None or isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def role_caveat(entry: Mapping[str, Any], scope: Mapping[str, Any]) -> Caveat | None:
    """Sub role (not prime); the role unknown when the library does not state it."""
    role = entry.get("role")
    if role is None:
        return Caveat("unknown", "Role unknown: the library does not say prime or sub.")
    if role != "sub":
        return None
    prime = entry.get("prime_contractor")
    text = "Sub role: performed as a subcontractor" + (f" to {prime}" if prime else "")
    if scope.get("require_prime"):
        text += "; the RFP asks for prime work only."
    else:
        text += ", not prime; say which part of the work was ours."
    return Caveat("role", text)


_PREDECESSOR_RE = re.compile(
    r"\b(?:(?:performed|delivered|completed|executed|held) by\b[^!?]{0,120}?\b"
    r"(?:acquired|merged|predecessor)|predecessor (?:company|firm|contractor)|"
    r"(?:company|firm) (?:we|that we) acquired|before (?:its|our|the) (?:acquisition|merger))",
    re.IGNORECASE,
)
# a sentence ends at . ! ? before a capital, except after a short abbreviation ("Corp.")
_SENTENCE_END_RE = re.compile(
    r"(?<!\bCorp)(?<!\bInc)(?<!\bLtd)(?<!\bCo)(?<!\bU\.S)(?<!\bSt)(?<!\bDr)(?<!\bMr)(?<!\bMs)"
    r"[.!?](?=\s+[A-Z\"'(])"
)


def _sentence_at(text: str, start: int, end: int) -> str:
    """The sentence of ``text`` holding ``text[start:end]`` (``_SENTENCE_END_RE``)."""
    ends = [m.end() for m in _SENTENCE_END_RE.finditer(text)]
    begin = max((e for e in ends if e <= start), default=0)
    finish = min((e for e in ends if e >= end), default=len(text))
    return " ".join(text[begin:finish].split())


def predecessor_caveat(entry: Mapping[str, Any]) -> Caveat | None:
    """Work the entry says another company performed before an acquisition or merger ("This
    project was performed by X, which we acquired in 2021"): the sentence quoted, and the
    check that evaluators count a predecessor's record only where the people or the business
    unit carried over (FAR 15.305(a)(2)(iii) lets them weigh predecessor companies' past
    performance when relevant). Reads the narrative and technical approach; None when neither
    says so. Source: new-user trial (a cited entry's write-up said so, the brief did not)."""
    for field in ("narrative", "technical_description"):
        text = str(entry.get(field) or "")
        for match in _PREDECESSOR_RE.finditer(text):
            if _SENTENCE_END_RE.search(match.group()):
                continue  # "performed by" and "acquired" in two sentences: not this rule
            said = _sentence_at(text, match.start(), match.end())
            return Caveat(
                "predecessor",
                f'Performed by another company: "{said}" Say so, and name the staff or '
                "business unit that carried over: evaluators may weigh a predecessor's record "
                "less.",
            )
    return None


def value_caveat(entry: Mapping[str, Any], scope: Mapping[str, Any]) -> Caveat | None:
    """Funded value below the RFP's floor while the ceiling is inside the band, or funded
    inside the band while the ceiling is above the RFP's maximum (USD: one of the two amounts
    meets the RFP, the other does not, and the RFP may count either); a value
    given as two amounts (lower and ceiling, no funded amount) that runs across the RFP's
    ceiling or floor (the value filter passes any overlap, so the writer checks which amount
    counts); the value unknown when the RFP states a bound and the library no value."""
    floor, top = scope.get("value_min"), scope.get("value_max")
    if floor is None and top is None:
        return None
    funded, ceiling = entry.get("value_funded"), entry.get("value_max")
    if funded is None and ceiling is None and entry.get("value_min") is None:
        bounds = ", ".join(
            f"{word} {usd(v)}" for word, v in (("floor", floor), ("ceiling", top)) if v is not None
        )
        return Caveat("unknown", f"Value unknown: the library states no value ({bounds}).")
    low = entry.get("value_min")
    if funded is None and low is not None and ceiling is not None and low < ceiling:
        # two amounts ("$12.7M (our share) of $34M ceiling", "$8M-$14M"): the value filter
        # passes a range that overlaps the band, so a range across a bound needs a look
        shown = f"{usd(low)}–{usd(ceiling)}"
        if top is not None and low <= top < ceiling:
            return Caveat(
                "value",
                f"Value {shown} runs past the RFP's ceiling of {usd(top)}: only the lower "
                "amount is within it; check which amount the RFP counts (our share or the "
                "whole contract).",
            )
        if floor is not None and low < floor <= ceiling:
            return Caveat(
                "value",
                f"Value {shown} starts below the RFP's floor of {usd(floor)}: only the upper "
                "amount reaches it; check which amount the RFP counts (our share or the whole "
                "contract).",
            )
    if funded is None or ceiling is None:
        return None

    def inside(amount: float) -> bool:
        return (floor is None or amount >= floor) and (top is None or amount <= top)

    if floor is not None and funded < floor and inside(ceiling):
        return Caveat(
            "value",
            f"Funded {usd(funded)} is below the RFP's floor of {usd(floor)} while the ceiling "
            f"{usd(ceiling)} is inside the band; check which value the RFP counts.",
        )
    if top is not None and inside(funded) and ceiling > top:
        # "$18.2M funded of $52.0M" against "not more than $20,000,000": the funded amount
        # meets the RFP, the ceiling does not
        return Caveat(
            "value",
            f"Funded {usd(funded)} is inside the RFP's band while the ceiling {usd(ceiling)} is "
            f"above its maximum of {usd(top)}; check which value the RFP counts (funded or "
            "ceiling).",
        )
    return None


def recency_caveat(entry: Mapping[str, Any], scope: Mapping[str, Any]) -> Caveat | None:
    """End (or start) date within ``RECENCY_MARGIN_MONTHS`` after the recency cut-off."""
    for cut_key, date_key, word in (
        ("ended_after", "end_date", "Ended"),
        ("started_after", "start_date", "Started"),
    ):
        cut = _date(scope.get(cut_key))
        if cut is None:
            continue
        if date_key == "end_date" and entry.get("ongoing"):
            continue
        date = _date(entry.get(date_key))
        if date is None:
            return Caveat(
                "unknown",
                f"{word[:-2]} date unknown: the library states none (cut-off {cut.isoformat()}).",
            )
        if cut <= date < cut + relativedelta(months=RECENCY_MARGIN_MONTHS):
            days = (date - cut).days
            return Caveat(
                "recency",
                f"{word} {date.isoformat()}, {days} days after the recency cut-off "
                f"{cut.isoformat()}; confirm the date the RFP counts back from.",
            )
    return None


def start_unknown_caveat(entry: Mapping[str, Any], scope: Mapping[str, Any]) -> Caveat | None:
    """The start date unknown when the library states none: the ranking let the entry in
    (``retrieval.filters.STARTED_BY_RULE``: work must have started by the RFP's date,
    ``scope["as_of"]``), the writer checks it had. None when the RFP also states a start
    cut-off (``recency_caveat`` reports it) or the scope has no as-of date."""
    as_of = _date(scope.get("as_of"))
    if as_of is None or entry.get("start_date") is not None or scope.get("started_after"):
        return None
    return Caveat(
        "unknown",
        f"Start date unknown: the library states none; check the work had started by the "
        f"RFP's date {as_of.isoformat()} (past performance is work already under way).",
    )


def _ongoing_minimum(scope: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The ``ongoing_min_months`` reading of the scope's trace (``scope.reading``), or None."""
    from rfp_retrieval.retrieval.scope_query import trace_reading

    return trace_reading(scope.get("trace"), "ongoing_min_months")


def ongoing_minimum_caveat(entry: Mapping[str, Any], scope: Mapping[str, Any]) -> Caveat | None:
    """Work still in progress that started after the RFP's ``started_by`` date when the RFP
    counts ongoing work only once a minimum has been performed ("counts if at least one year
    has been performed": ``scope.section_lm.readers.read_ongoing_minimum``). Completed work,
    an RFP stating no minimum and an unknown start date (``start_unknown_caveat`` says it):
    None."""
    minimum = _ongoing_minimum(scope)
    by = _date(minimum.get("started_by")) if minimum else None
    if by is None or not entry.get("ongoing"):
        return None
    months = int(minimum["months"])
    need = f"{months // 12} year(s)" if months % 12 == 0 else f"{months} month(s)"
    start = _date(entry.get("start_date"))
    if start is not None and start > by:
        return Caveat(
            "recency",
            f"Ongoing since {start.isoformat()}: the RFP counts ongoing work once {need} "
            f"performed (started by {by.isoformat()}); it may not count yet.",
        )
    return None


def customer_type_caveat(entry: Mapping[str, Any], scope: Mapping[str, Any]) -> Caveat | None:
    """The customer type unknown when the RFP limits customer types and the library states
    none for the entry (it was ranked, not excluded)."""
    wanted = list(scope.get("customer_types") or [])
    if not wanted or entry.get("customer_type"):
        return None
    return Caveat(
        "unknown",
        "Customer type unknown: the library does not say; the RFP accepts "
        + ", ".join(wanted)
        + ".",
    )


FACET_WORDS = {"outcome": "outcomes", "technical": "technical approach", "narrative": "summary"}
"""How the brief names a facet of ``retrieval.facets.FACET_SOURCES``."""


def missing_facet_caveat(ref: Mapping[str, Any]) -> Caveat | None:
    """The facets the entry leaves empty (``pp_references.missing_facets``): scored as
    missing, their weight shared out over the entry's other parts."""
    missing = [FACET_WORDS.get(f, f) for f in ref.get("missing_facets") or []]
    if not missing:
        return None
    return Caveat(
        "missing",
        f"Missing in the library entry: {', '.join(missing)}; ranked on its other parts. "
        "Write it up before citing this reference.",
    )


def vague_caveat(entry_id: str, vague_ids: Collection[str]) -> Caveat | None:
    """Vague outcomes (``library.quality.vague_outcome_ids``: no measurable metric)."""
    if entry_id not in vague_ids:
        return None
    return Caveat(
        "vague",
        "Vague outcomes: no measurable metric in the library entry; ask its project manager "
        "for numbers before citing it.",
    )


def _listed(values: Sequence[Any]) -> str:
    return ", ".join(str(v) for v in values)


def missed_constraint_caveats(
    ref: Mapping[str, Any], entry: Mapping[str, Any], scope: Mapping[str, Any]
) -> list[Caveat]:
    """One ``miss`` caveat per constraint the pick misses (``ref["relaxed"]``: let in by a
    relaxation, or charged the soft value penalty), saying the entry's own fact beside what
    the RFP states ("Value $6.6M is below the RFP's floor of $10.0M"), so the writer sees how
    far off it is, not only which constraint. The entry's size is judged as the filter judges
    it (``retrieval.filters.effective_value_range``: USD). A sub role under a prime-only RFP
    (``role_caveat``) and a too-short ongoing period (``ongoing_minimum_caveat``) are said
    there, not twice. Source: new-user trial (a pick below the value floor showed only
    "Misses: contract value")."""
    from rfp_retrieval.retrieval.filters import constraint_labels

    found: list[Caveat] = []
    for name in ref.get("relaxed") or []:
        text = _miss_text(name, entry, scope)
        if (
            text is None
            and name != "ongoing_performed"
            and not (name == "role" and entry.get("role") == "sub")
        ):
            text = f"Misses the RFP's {constraint_labels([name])[0]}."
        if text is not None:
            found.append(Caveat("miss", text))
    return found


def _miss_text(name: str, entry: Mapping[str, Any], scope: Mapping[str, Any]) -> str | None:
    """The sentence of ``missed_constraint_caveats`` for one constraint ``name``; None when
    the entry's fact does not show the miss (the generic line is used)."""
    if name == "value":
        from rfp_retrieval.retrieval.filters import effective_value_range

        low, high = effective_value_range(dict(entry))
        floor, top = scope.get("value_min"), scope.get("value_max")
        if low is None or high is None:
            return None
        shown = usd(low) if low == high else f"{usd(low)}–{usd(high)}"
        if floor is not None and high < floor:
            return (
                f"Value {shown} is below the RFP's floor of {usd(floor)}: it misses the stated "
                "size; show why the work is comparable, or cite a runner-up."
            )
        if top is not None and low > top:
            return (
                f"Value {shown} is above the RFP's ceiling of {usd(top)}: it misses the stated "
                "size; show which part of the work is comparable, or cite a runner-up."
            )
        return None
    if name in ("recency", "started_after"):
        cut = _date(scope.get("ended_after" if name == "recency" else "started_after"))
        key, word = ("end_date", "Ended") if name == "recency" else ("start_date", "Started")
        date = _date(entry.get(key))
        if cut is None or date is None or date >= cut:
            return None
        which = "recency cut-off" if name == "recency" else "start cut-off"
        return (
            f"{word} {date.isoformat()}, {(cut - date).days} days before the RFP's {which} "
            f"{cut.isoformat()}: evaluators may not count it."
        )
    if name == "customer_type" and entry.get("customer_type") and scope.get("customer_types"):
        return (
            f"Customer type {entry['customer_type']}; the RFP accepts "
            f"{_listed(scope['customer_types'])}."
        )
    if name == "industry" and entry.get("industry") and scope.get("industries"):
        return f"Industry {entry['industry']}; the RFP asks for {_listed(scope['industries'])}."
    return None


def _entries(count: int) -> str:
    """'no entry' / 'only 1 entry' / 'only 2 entries'."""
    if count == 0:
        return "no entry"
    return f"only {count} entr{'y' if count == 1 else 'ies'}"


def weak_pick_caveat(
    ref: Mapping[str, Any],
    picks: Sequence[Mapping[str, Any]],
    passed: int | None,
    relaxed: bool = False,
    required: int | None = None,
) -> Caveat | None:
    """A pick scoring far below the picks' median, or chosen when fewer entries passed the
    RFP's filters than the RFP asks references for (``required``: the scope's
    ``references_required``, counted by ``retrieval.config.references_to_offer``: three when
    the RFP states none; ``passed``: the count before any relaxation, None unknown;
    ``relaxed``: the ranking relaxed a filter to fill the picks).

    With fewer passing than that, only a pick that misses one of the RFP's constraints is
    weak (``ref["relaxed"]``, the constraints it misses, non-empty; absent: unknown, so weak).
    A pick that passed every filter is not weak for the others' sake: it gets a ``few`` note
    that it is the only one (or one of the few) that passed; its score is still checked."""
    missed = ref.get("relaxed")
    if passed is not None and passed < references_to_offer(required):
        if passed == 0 or missed is None or len(missed) > 0:
            how = ", so they were relaxed" if relaxed else ""
            return Caveat(
                "weak",
                f"Weak pick: {_entries(passed)} passed the RFP's filters{how}; check this one "
                "fits the RFP at all.",
            )
        which = "the only entry" if passed == 1 else f"one of only {passed} entries"
        rest = "; the other picks were let in by relaxing them" if relaxed else ""
        few = Caveat("few", f"Passed every filter: {which} that did{rest}.")
        return _score_caveat(ref, picks) or few
    return _score_caveat(ref, picks)


def _score_caveat(ref: Mapping[str, Any], picks: Sequence[Mapping[str, Any]]) -> Caveat | None:
    """``ref`` scoring below ``WEAK_SCORE_RATIO`` of the picks' median score (None: not)."""
    scores = [float(p["score"]) for p in picks if p.get("score") is not None]
    score = ref.get("score")
    if len(scores) < 2 or score is None:
        return None
    typical = statistics.median(scores)
    if typical > 0 and float(score) < WEAK_SCORE_RATIO * typical:
        return Caveat(
            "weak",
            f"Weak pick: score {float(score):.3f} is far below the typical {typical:.3f} of "
            "the picks; a runner-up may fit better.",
        )
    return None


def no_match_caveat(why: Sequence[str]) -> Caveat | None:
    """A pick whose "why cite" lines (``reasons.why_cite``) hold no topical reason: it meets
    none of the RFP's relevance criteria, matches no scope section and covers none of the
    domains the RFP emphasises (``reasons.has_topical_reason``), so only its similarity score
    put it here. None when it has one. Source: new-user trial (an eligibility system cited for
    a grants-management RFP with only an outcome quote as its reason)."""
    from rfp_retrieval.report.reasons import has_topical_reason

    if has_topical_reason(why):
        return None
    return Caveat(
        "weak",
        "No stated match: it meets none of the RFP's relevance criteria, matches no scope "
        "section and covers none of its emphasised domains; only its similarity score put it "
        "here. Check it fits the RFP, or cite a runner-up.",
    )


def caveats(
    ref: Mapping[str, Any],
    entry: Mapping[str, Any] | None,
    scope: Mapping[str, Any],
    vague_ids: Collection[str],
    picks: Sequence[Mapping[str, Any]],
    passed: int | None,
    relaxed: bool = False,
) -> list[Caveat]:
    """Every check that applies to ``ref`` in a fixed order: the constraints it misses,
    role, value, recency, ongoing
    minimum, start date, customer type, predecessor, missing facets, vague, weak (``passed`` /
    ``relaxed`` as in ``weak_pick_caveat``).
    ``entry`` None (the library row is missing) leaves the entry checks unknown."""
    found: list[Caveat | None] = []
    if entry is None:
        found.append(Caveat("unknown", "Library entry not found: role, value and dates unknown."))
    else:
        found += missed_constraint_caveats(ref, entry, scope)
        found += [role_caveat(entry, scope), value_caveat(entry, scope)]
        found.append(recency_caveat(entry, scope))
        found.append(ongoing_minimum_caveat(entry, scope))
        found.append(start_unknown_caveat(entry, scope))
        found.append(customer_type_caveat(entry, scope))
        found.append(predecessor_caveat(entry))
    found.append(missing_facet_caveat(ref))
    found.append(vague_caveat(str(ref.get("id")), vague_ids))
    found.append(weak_pick_caveat(ref, picks, passed, relaxed, scope.get("references_required")))
    return [c for c in found if c is not None]


def passed_filters(filter_trace: Sequence[Mapping[str, Any]]) -> int | None:
    """Entries left after the hard filters, before any relaxation (None: no trace)."""
    strict = [t for t in filter_trace if not str(t.get("filter", "")).startswith("relax")]
    if not strict or strict[-1].get("remaining") is None:
        return None
    return int(strict[-1]["remaining"])


_LEVEL = re.compile(
    r"\b(?:(?P<county>count(?:y|ies))|(?P<city>cit(?:y|ies)|municipal(?:ity|ities)?|towns?)|"
    r"(?P<school>school districts?))\b",
    re.I,
)
"""A level of local government a set rule names ("at least one reference must be a county
government"): the customer kind ``local`` covers all of them, so the customer's name decides."""
_LEVEL_NAMES = {
    "county": re.compile(r"\bcount(?:y|ies)\b|\bparish\b|\bborough\b", re.I),
    "city": re.compile(r"\b(?:city|cities|municipal\w*|town|village|borough)\b", re.I),
    "school": re.compile(r"\bschool", re.I),
}


def set_checks(
    filter_trace: Sequence[Mapping[str, Any]],
    picks: Sequence[Mapping[str, Any]],
    entries: Mapping[str, Mapping[str, Any]] | None,
) -> list[str]:
    """Rules the RFP states on the set of references, checked against the picks: at least one
    for a customer kind (``customer_types_in_set``: "at least one reference must be a county
    government") or as prime (``prime_in_set``). One sentence per rule no pick meets, naming
    the picks' own facts; a pick whose fact the library does not state makes the rule unknown,
    never unmet (``retrieval.filters.UNKNOWN_RULE``). ``entries`` maps entry id to its
    ``pp_entries`` row; None or no picks: nothing is checked. Source: new-user trial (three
    picks, none a county, under "at least one reference must be a county government")."""
    if not entries or not picks:
        return []
    rows = [entries.get(str(p.get("id"))) or {} for p in picks]
    ids = [str(p.get("id")) for p in picks]
    out = []
    for item in filter_trace:
        name, reading = item.get("filter"), item.get("reading")
        if name == "customer_types_in_set" and isinstance(reading, list | tuple) and reading:
            wanted, key, facts = " or ".join(map(str, reading)), "customer_type", set(reading)
        elif name == "prime_in_set":
            wanted, key, facts = "prime", "role", {"prime"}
        else:
            continue
        values = [row.get(key) for row in rows]
        level = _LEVEL.search(str(item.get("sentence") or "")) if key == "customer_type" else None
        if level is not None:  # "a county government": the kind "local" is not enough
            word, names = level.group(0).lower(), _LEVEL_NAMES[level.lastgroup or ""]
            near = [
                (i, row.get("customer_named"))
                for i, v, row in zip(ids, values, rows, strict=True)
                if v in facts
            ]
            if any(names.search(str(n or "")) for _, n in near):
                continue
            if near:
                shown = ", ".join(f"{i} {n or 'unnamed'}" for i, n in near)
                out.append(
                    f'The RFP asks for at least one {word} reference ("{item.get("sentence")}"); '
                    f"no pick's customer is named one ({shown}: {wanted}). Check, or swap one "
                    f"for a {word} entry."
                )
                continue
        elif any(v in facts for v in values):
            continue
        said = f'The RFP asks for at least one {wanted} reference ("{item.get("sentence")}")'
        unknown = [i for i, v in zip(ids, values, strict=True) if v is None]
        if unknown:
            out.append(
                f"{said}; no pick is known to be: the library does not state "
                f"{key.replace('_', ' ')} for {', '.join(unknown)}. Check them."
            )
            continue
        shown = ", ".join(f"{i} {v}" for i, v in zip(ids, values, strict=True))
        out.append(f"{said}; none of the picks is ({shown}). Swap one for a {wanted} entry.")
    return out


def rfp_warnings(filter_trace: Sequence[Mapping[str, Any]]) -> list[str]:
    """What the writer resolves with the RFP before citing anything: each ``conflict`` note of
    the scope's reading trace (``{"filter", "reading"}`` dicts; contradictory or reversed
    value statements, ``scope.section_lm.value.VALUE_CONFLICT_RULE``), in trace order."""
    out = []
    for item in filter_trace:
        reading = item.get("reading")
        if isinstance(reading, Mapping) and reading.get("conflict"):
            out.append(f"{item.get('filter')}: {reading['conflict']}")
    return out
