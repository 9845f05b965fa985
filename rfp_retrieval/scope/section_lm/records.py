"""What Section L/M says about past-performance references, as typed records.

Each requirement carries the ``Statement`` (phrase, sentence, section) it was read from.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, field

APPROX_BAND = (0.5, 2.0)
"""``value_approx`` X becomes the band [0.5 X, 2 X] in ``value_min``/``value_max``: "comparable in
size (approximately $25M)" admits references from $12.5M to $50M. Proposal practice treats a
reference within a factor of two of the target as similar in size."""

FEDERAL_CIVILIAN = "federal-civilian"
FEDERAL_DEFENSE = "federal-defense"
GOVERNMENT_TYPES = [FEDERAL_CIVILIAN, FEDERAL_DEFENSE, "state", "local"]


@dataclass
class Statement:
    """Where a requirement is stated: the phrase, its sentence and its section.

    ``section`` is the section path joined with `` > `` (``"(front matter)"`` before the first
    section); ``section_key`` is the outline key or None.
    """

    text: str
    sentence: str
    section: str
    section_key: str | None


@dataclass
class Recency:
    """A recency window: ``months`` back from an anchor date, or a fixed ``since`` date.

    ``applies_to`` is ``"ended"`` (performance ongoing or ended after the date) or
    ``"started"`` (work started/awarded after it); ``due_date_anchor`` is True when the
    sentence counts back from the proposal due date rather than the issue date.
    """

    months: int | None
    since: dt.date | None
    applies_to: str
    due_date_anchor: bool
    stated: Statement


@dataclass
class ValueRange:
    """Contract value constraint in USD whole dollars (``approx``: "approximately $25M").

    ``min_inclusive`` / ``max_inclusive``: whether an entry valued exactly at the bound meets
    it ("at least $1M" and "under $1M will not be considered" include $1M; "more than $1M" and
    "$1M or less will not be considered" do not). ``conflict``: the writer's warning when the
    RFP's value statements contradict each other or state a band's ends in reverse order, with
    the rule applied (``section_lm.value.read_value``); None when they agree.
    """

    min: int | None
    max: int | None
    approx: int | None
    basis: str  # "total" | "annual"
    stated: Statement
    min_inclusive: bool = True
    max_inclusive: bool = True
    conflict: str | None = None


@dataclass
class SizeConstraint:
    """A non-dollar size constraint on a reference.

    ``measure`` is ``fte`` (full-time equivalent staff), ``users``, ``employees`` (a customer
    workforce) or ``months`` (period of performance); ``min``/``max`` are counts (None: open);
    ``preferred`` is True when the RFP states a preference ("are preferable", "greatest
    weight") rather than a rule.
    """

    measure: str
    min: float | None
    max: float | None
    preferred: bool
    stated: Statement


@dataclass
class CustomerConstraint:
    """Customer types (``library`` vocabulary, in the RFP's order; [] with ``any_customer``
    True for "any industry or sector") and industries a reference must come from.

    ``alternatives``: industries named as an alternative to the customer types ("state
    agencies or electric utilities"): an entry in one of them qualifies whatever its customer
    type (one filter, type OR industry: ``retrieval.filters.CustomerType``)."""

    types: list[str]
    industries: list[str]
    any_customer: bool
    stated: Statement
    alternatives: list[str] = field(default_factory=list)


@dataclass
class PastPerformanceRequirements:
    """Everything Section L/M says about past-performance references (None / [] = not stated).

    ``no_value_constraint`` is True when the RFP says outright that no minimum value applies.
    ``value_foreign`` is a value bound stated in another currency than USD ("EUR 5 million"):
    not compared (no exchange rates at run time), shown as such in the trace.
    ``references_max`` is the upper end of a stated range of references ("two (2) to three
    (3)") or a count stated as a ceiling ("up to five (5)"), None when one number is stated
    as such. ``industries_preferred`` are industries the RFP
    prefers ("insurance or financial services preferred"): they rank, never filter;
    ``industries_preferred_stated`` the first sentence stating one. ``prime_in_set``: the
    RFP asks for at least some references as prime ("at least one of the three ... prime"),
    a rule on the set of picks, not a filter; ``customers_in_set`` the same for customer kinds
    ("at least one reference must be for a county government": ["local"]), with
    ``customers_in_set_stated``. ``ongoing_min_months``: work still in progress
    counts only once this many months have been performed ("work still in progress counts if
    at least one year has been performed"), with ``ongoing_min_stated`` its statement.
    """

    references_required: int | None = None
    references_max: int | None = None
    references_stated: Statement | None = None
    recency: Recency | None = None
    value: ValueRange | None = None
    no_value_constraint: Statement | None = None
    value_foreign: Statement | None = None
    sizes: list[SizeConstraint] = field(default_factory=list)
    customers: CustomerConstraint | None = None
    relevance: list[Statement] = field(default_factory=list)
    require_prime: Statement | None = None
    prime_in_set: Statement | None = None
    customers_in_set: list[str] = field(default_factory=list)
    customers_in_set_stated: Statement | None = None
    industries_preferred: list[str] = field(default_factory=list)
    industries_preferred_stated: Statement | None = None
    ongoing_min_months: int | None = None
    ongoing_min_stated: Statement | None = None

    def to_dict(self) -> dict:
        """Plain JSON-ready dict (dates as ISO strings)."""
        data = asdict(self)
        if self.recency is not None and self.recency.since is not None:
            data["recency"]["since"] = self.recency.since.isoformat()
        return data
