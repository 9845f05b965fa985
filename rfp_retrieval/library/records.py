"""Typed records of the past-performance library (seed 1's PastPerformanceEntry).

The canonical JSON shape (``PastPerformanceEntry.to_canonical``) is fixed: it is the shape of
``canonical_dev.jsonl`` and of ``rfp-retrieval library --json``. The flat shape
(``PastPerformanceEntry.to_row`` / ``from_row``) is what the ``pp_entries`` table stores.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, field
from typing import Any

ONGOING = "ongoing"

CUSTOMER_TYPES = (
    "federal-civilian",
    "federal-defense",
    "state",
    "local",
    "commercial",
    "international",
)
VEHICLE_TYPES = (
    "standalone",
    "idiq-task-order",
    "gwac-task-order",
    "gsa-schedule",
    "bpa-call",
    "other",
)


@dataclass(frozen=True)
class Customer:
    """Who the work was for. ``type`` is one of ``CUSTOMER_TYPES``."""

    type: str | None
    named: str | None
    acronym: str | None
    industry: str | None


@dataclass(frozen=True)
class ContractValue:
    """Contract value band in USD. ``min == max`` for a single figure; both None when unknown.

    ``funded`` is the obligated/funded amount when the source states one separately from the
    ceiling (e.g. ``Funded: $11.8M; Ceiling: $16.5M`` gives min=funded=11.8M, max=16.5M).
    """

    min: int | None
    max: int | None
    funded: int | None = None


@dataclass(frozen=True)
class Contract:
    """Contract facts. ``end_date`` is an ISO date string or ``"ongoing"`` (never "today")."""

    number: str | None
    vehicle_type: str | None
    vehicle_name: str | None
    value: ContractValue
    start_date: str | None
    end_date: str | None

    @property
    def ongoing(self) -> bool:
        return self.end_date == ONGOING

    def start(self) -> dt.date | None:
        return dt.date.fromisoformat(self.start_date) if self.start_date else None

    def end(self) -> dt.date | None:
        """End date, or None when ongoing or unknown."""
        if not self.end_date or self.end_date == ONGOING:
            return None
        return dt.date.fromisoformat(self.end_date)


@dataclass(frozen=True)
class Technical:
    """Stable stack tags and domain tags (slugs) plus the technical-approach text."""

    stack_tags: list[str]
    domains: list[str]
    description: str


@dataclass(frozen=True)
class Outcomes:
    """Outcome metrics as written, the outcome narrative, and the vague-outcome flag.

    ``vague`` is True when no metric carries a number, percentage or measurable before/after.
    """

    metrics: list[str]
    narrative: str
    vague: bool


@dataclass(frozen=True)
class PastPerformanceEntry:
    """One past-performance reference candidate (seed 1: PastPerformanceEntry).

    ``defects`` lists data-quality issues found at ingest (``end-before-start``,
    ``missing-value``, ``nonstandard-customer-type``, ``min-above-max``...): the entry is kept
    and the issues are reported, never silently fixed.
    """

    id: str
    title: str
    role: str | None  # "prime" | "sub"
    prime_contractor: str | None
    customer: Customer
    contract: Contract
    technical: Technical
    outcomes: Outcomes
    narrative: str
    defects: list[str] = field(default_factory=list)
    source: str = ""
    source_row: int | None = None
    last_updated: str | None = None
    updated_by: str | None = None
    cpars: str | None = None

    def to_canonical(self) -> dict[str, Any]:
        """The canonical record (field names and order of ``canonical_dev.jsonl``)."""
        value = {"min": self.contract.value.min, "max": self.contract.value.max}
        return {
            "id": self.id,
            "title": self.title,
            "role": self.role,
            "prime_contractor": self.prime_contractor,
            "customer": asdict(self.customer),
            "contract": {
                "number": self.contract.number,
                "vehicle_type": self.contract.vehicle_type,
                "vehicle_name": self.contract.vehicle_name,
                "value": value,
                "start_date": self.contract.start_date,
                "end_date": self.contract.end_date,
            },
            "technical": {
                "stack_tags": list(self.technical.stack_tags),
                "domains": list(self.technical.domains),
                "description": self.technical.description,
            },
            "outcomes": {
                "metrics": list(self.outcomes.metrics),
                "narrative": self.outcomes.narrative,
                "vague": self.outcomes.vague,
            },
            "narrative": self.narrative,
            "defects": list(self.defects),
            "source": self.source,
        }

    def to_row(self) -> dict[str, Any]:
        """Flat row for the ``pp_entries`` table (one column per facet field)."""
        c = self.contract
        return {
            "id": self.id,
            "title": self.title,
            "role": self.role,
            "prime_contractor": self.prime_contractor,
            "customer_type": self.customer.type,
            "customer_named": self.customer.named,
            "customer_acronym": self.customer.acronym,
            "industry": self.customer.industry,
            "contract_number": c.number,
            "vehicle_type": c.vehicle_type,
            "vehicle_name": c.vehicle_name,
            "value_min": c.value.min,
            "value_max": c.value.max,
            "value_funded": c.value.funded,
            "start_date": c.start(),
            "end_date": c.end(),
            "ongoing": c.ongoing,
            "stack_tags": list(self.technical.stack_tags),
            "domains": list(self.technical.domains),
            "technical_description": self.technical.description,
            "outcome_metrics": list(self.outcomes.metrics),
            "outcome_narrative": self.outcomes.narrative,
            "outcome_vague": self.outcomes.vague,
            "narrative": self.narrative,
            "defects": list(self.defects),
            "source": self.source,
            "source_row": self.source_row,
            "last_updated": dt.date.fromisoformat(self.last_updated) if self.last_updated else None,
            "updated_by": self.updated_by,
            "cpars": self.cpars,
        }

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> PastPerformanceEntry:
        """Inverse of ``to_row`` (dates may come back as ``datetime.date``)."""

        def iso(value: Any) -> str | None:
            if value is None:
                return None
            return value.isoformat() if hasattr(value, "isoformat") else str(value)

        end = ONGOING if row.get("ongoing") else iso(row.get("end_date"))
        return cls(
            id=row["id"],
            title=row["title"],
            role=row.get("role"),
            prime_contractor=row.get("prime_contractor"),
            customer=Customer(
                type=row.get("customer_type"),
                named=row.get("customer_named"),
                acronym=row.get("customer_acronym"),
                industry=row.get("industry"),
            ),
            contract=Contract(
                number=row.get("contract_number"),
                vehicle_type=row.get("vehicle_type"),
                vehicle_name=row.get("vehicle_name"),
                value=ContractValue(
                    min=row.get("value_min"),
                    max=row.get("value_max"),
                    funded=row.get("value_funded"),
                ),
                start_date=iso(row.get("start_date")),
                end_date=end,
            ),
            technical=Technical(
                stack_tags=list(row.get("stack_tags") or []),
                domains=list(row.get("domains") or []),
                description=row.get("technical_description") or "",
            ),
            outcomes=Outcomes(
                metrics=list(row.get("outcome_metrics") or []),
                narrative=row.get("outcome_narrative") or "",
                vague=bool(row.get("outcome_vague")),
            ),
            narrative=row.get("narrative") or "",
            defects=list(row.get("defects") or []),
            source=row.get("source") or "",
            source_row=row.get("source_row"),
            last_updated=iso(row.get("last_updated")),
            updated_by=row.get("updated_by"),
            cpars=row.get("cpars"),
        )


@dataclass(frozen=True)
class RejectedRow:
    """A library row that could not be turned into an entry: kept with file, row and reason."""

    file: str
    row: int | None
    reason: str
    raw: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SupersededRow:
    """An older duplicate of an id: the most recently updated row wins, this one is recorded.

    ``row``/``superseded_by_row`` follow the ingest row convention (the row number a spreadsheet
    program shows; None for a write-up); ``superseded_by_file`` is the winner's source.
    """

    id: str
    file: str
    row: int | None
    last_updated: str | None
    superseded_by_row: int | None
    superseded_by_file: str | None = None
    reason: str = ""  # why the other row won (``ingest.superseded_reason``)


@dataclass
class LibraryLoad:
    """Result of ingesting a library folder: entries, rejected rows and superseded duplicates."""

    entries: list[PastPerformanceEntry]
    rejected: list[RejectedRow]
    superseded: list[SupersededRow]
