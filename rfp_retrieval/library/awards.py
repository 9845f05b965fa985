"""Draft library entries from a company's federal award records (``library import-awards``).

Reads USAspending / FPDS exports, one award a row: the USAspending API ``spending_by_award``
JSONL (``award_id``, ``generated_internal_id`` holding the parent IDV, ``awarding_sub_agency``,
``award_amount``, ``start_date``/``end_date``), the flattened FPDS ATOM CSV (``piid``,
``ref_idv_piid``, ``department_name``/``contracting_office_agency_name``,
``total_obligated_amount``, ``total_base_and_all_options_value``, ``effective_date``,
``current_completion_date``) and the legacy USAspending contracts CSV (``piid``, ``idvpiid``,
``maj_agency_cat``, ``contractingofficeagencyid``, ``dollarsobligated``,
``baseandalloptionsvalue``, ``effectivedate``, ``currentcompletiondate``). Column names are
looked up in ``AWARD_COLUMNS`` (first name present wins), so any export with those names reads,
as CSV, JSONL/JSON or an Excel ``.xlsx`` (its first sheet); a folder, a ZIP download, an old
``.xls`` is rejected saying what to pass instead (``NOT_AN_EXPORT``).

Each award becomes a ``PastPerformanceEntry`` draft (``draft_entry``) and a Markdown write-up
in the library's own format (``writeup_text``: YAML front matter as ``library.writeups`` reads
it, then a body). The mapping:

- id ``AW-<PIID>`` (stable: importing the same award again gives the same file; a PIID that
  loses characters in an id, or is very long, gets a hash suffix: ``draft_id``), contract
  number = PIID (a legacy short order PIID ``0003`` is written under its parent IDV:
  ``TCC15HQB0007 / 0003``), role ``prime`` (a prime award's recipient is the prime);
- customer: the agency resolved by ``agencies.resolve_agency`` (name, acronym); its type by the
  rule of ``awards/agencies.csv``: an agency in the Department of Defense (FPDS department
  ``9700``, or a DoD sub-tier code ``17xx``/``21xx``/``57xx``/``97xx``) is ``federal-defense``,
  any other federal agency ``federal-civilian`` (``customer_type``);
- vehicle: the parent IDV (or the award's own PIID for an IDV) matched against
  ``VEHICLE_PIID_STEMS`` (the real vehicles of ``awards/vehicles.csv``) gives the vehicle name
  and type; otherwise the award type (``DELIVERY ORDER``, ``BPA CALL``, ``DEFINITIVE
  CONTRACT``...) through ``vocab.normalize_vehicle_type`` plus ``AWARD_TYPE_VEHICLES`` (the
  FPDS IDV types the vocabulary does not know: ``IDC``/``BOA`` -> ``other``);
- value (USD, whole dollars): min = funded = obligated, max = ceiling (base and all options);
  one of the two alone gives min = max; a ceiling of 0, or an obligation of 0 on an IDV, is
  FPDS's "not stated" and is unknown, and so is a negative amount (a net de-obligation)
  (``contract_value``); a modification's amounts in a
  transaction export (legacy ``dollarsobligated``) are changes, so unknown too;
- dates: start = effective/start date, end = completion/end date (an IDV has none: unknown).

The narrative, technical approach, results, stack and domains are never in award data: the
draft has none, its front matter says ``status: needs write-up`` with the fields to write, and
its body has a ``## Needs write-up`` section that ingest keeps in the entry's narrative
(``needs_write_up`` tells a loaded draft apart). A record that cannot be read (no PIID, an
amount or date that is not one, a JSON line that does not parse) is returned as a
``RejectedRow`` with its file, row and reason; an amount that reads but is no contract's
worth (above ``money.PLAUSIBLE_VALUE_LIMIT_USD``, or infinite) leaves the draft's value
unknown with an ``implausible-value`` defect; a PIID seen twice keeps the first record and
reports the others (``AwardImport.duplicates``).

Row numbers: a CSV's first record is row 2 (the header is row 1, as ``library.ingest``); a JSONL
file's first line is row 1; in a ``.json`` file (a list, or the API's ``{"results": [...]}``)
row N is the N-th award.
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import yaml

from rfp_retrieval import agencies
from rfp_retrieval.library import money, vocab
from rfp_retrieval.library.records import (
    Contract,
    ContractValue,
    Customer,
    Outcomes,
    PastPerformanceEntry,
    RejectedRow,
    Technical,
)

NEEDS_WRITE_UP = "needs write-up"
NEEDS_WRITE_UP_HEADING = "Needs write-up"
WRITE_UP_FIELDS = ("summary", "technical approach", "results", "stack", "domains")
"""What a human must write in every draft (award data never holds them)."""
IMPORTER = "rfp-retrieval library import-awards"

# Canonical award field -> column names of the known exports, first present wins.
AWARD_COLUMNS: dict[str, tuple[str, ...]] = {
    "piid": ("piid", "award_id", "PIID", "Award ID"),
    "parent_idv": ("ref_idv_piid", "idvpiid", "parent_idv", "parent_award_piid"),
    "internal_id": ("generated_internal_id",),
    "sub_agency": (
        "contracting_office_agency_name",
        "awarding_sub_agency",
        "contractingofficeagencyid",
        "agency_name",
        "agency",
    ),
    "sub_agency_id": ("contracting_office_agency_id", "agency_id"),
    "department": ("department_name", "awarding_agency", "maj_agency_cat", "department"),
    "department_id": ("department_id",),
    "obligated": (
        "total_obligated_amount",
        "award_amount",
        "dollarsobligated",
        "obligated_amount",
        "obligated",
    ),
    "ceiling": (
        "total_base_and_all_options_value",
        "base_and_all_options_value",
        "baseandalloptionsvalue",
        "ceiling",
    ),
    "start": ("start_date", "effective_date", "effectivedate"),
    "end": ("end_date", "current_completion_date", "currentcompletiondate"),
    "award_type": ("contract_award_type", "contract_action_type", "contractactiontype"),
    "description": (
        "description",
        "description_of_contract_requirement",
        "descriptionofcontractrequirement",
    ),
    "recipient": ("recipient_name", "vendor_name", "vendorname"),
    "naics": ("naics_code", "principalnaicscode"),
    "psc": ("psc_code", "productorservicecode"),
    "last_date_to_order": ("last_date_to_order", "lastdatetoorder"),
    "mod_number": ("mod_number", "modnumber"),
}
TRANSACTION_AMOUNT_COLUMNS = frozenset(
    {"dollarsobligated", "baseandalloptionsvalue", "obligated_amount", "base_and_all_options_value"}
)
"""Columns holding one transaction's amounts: on a modification they are changes (deltas, often
negative), not the contract's size, so a modification read from them has unknown amounts."""
SHORT_PIID = 9
"""An order PIID shorter than this (legacy ``0003``) is unique only under its parent IDV."""

# Real contract vehicles (``awards/vehicles.csv``) by the PIID stem of their IDVs, most
# specific first: (pattern, vehicle name, vehicles.csv type).
VEHICLE_PIID_STEMS: tuple[tuple[str, str, str], ...] = (
    (r"NNG15S", "SEWP V", "gwac"),
    (r"NNG07D", "SEWP IV", "gwac"),
    (r"NAS50114", "SEWP III", "gwac"),
    (r"HHSN316201[236]", "CIO-SP3", "gwac"),
    (r"HHSN3162015", "CIO-CS", "gwac"),
    (r"47QTCK18D", "Alliant 2", "gwac"),
    (r"GS00Q09BGD", "Alliant", "gwac"),
    (r"47QTCH18D", "VETS 2", "gwac"),
    (r"GS00Q14OAD[US]|47QRAD", "OASIS", "idiq"),
    (r"GS00Q17NSD", "EIS", "idiq"),
    (r"47QFCA22D", "ASTRO", "idiq"),
    (r"W52P1J18DA", "ITES-3S", "idiq"),
    (r"W52P1J16D0013", "ITES-3H", "idiq"),
    (r"W15P7T17D", "RS3", "idiq"),
    (r"FA873213D", "NETCENTS-2", "idiq"),
    (r"N0017819D", "SeaPort-NxG", "idiq"),
    (r"HC102808D", "ENCORE II", "idiq"),
    (r"VA11816D", "T4NG", "idiq"),
    (r"HHSM500201600003I", "SPARC", "idiq"),
    (r"HSHQDC07D", "FirstSource", "idiq"),
    (r"70RTAC19A00000009", "ADAPTS", "bpa"),
    (r"70RTAC20A00000003", "DHS OCIO Desktop Support Services BPA", "bpa"),
    (r"70RDAD21A00000010", "DHS ICAM BPA", "bpa"),
    (r"70RTAC21A00000001", "DHS Microsoft ELA", "bpa"),
    (r"89303019AIM000005", "CBOSS", "bpa"),
    (r"HHSM500201600011B", "ADELE-QRI", "bpa"),
    (r"DOCYA132315BU0033", "ESF", "bpa"),
    (r"FA872622A0001", "EITAAS", "bpa"),
    (r"FA805517A1101", "CCS-2", "bpa"),
    (r"19AQMM23A0218", "ILMS BPA", "bpa"),
    (r"HC108420A0003", "JELA II", "bpa"),
    (r"70B04C20A00000008", "CBP Traveler Processing Vetting Service BPA", "bpa"),
    (r"GS35F", "IT Schedule 70", "gsa-schedule"),
    (r"GS\d\dF|47QTCA", "GSA MAS", "gsa-schedule"),
    (r"V797", "VA FSS", "gsa-schedule"),
)
_VEHICLE_STEMS = tuple((re.compile(p), n, t) for p, n, t in VEHICLE_PIID_STEMS)
VEHICLE_KIND_TYPES = {
    "gwac": "gwac-task-order",
    "idiq": "idiq-task-order",
    "bpa": "bpa-call",
    "gsa-schedule": "gsa-schedule",
}
"""vehicles.csv type -> the library's vehicle type of an order placed under that vehicle."""

AWARD_TYPE_VEHICLES = {"idc": "other", "boa": "other"}
"""FPDS award types ``vocab.normalize_vehicle_type`` does not know (an IDV itself)."""

_DOD_CODE = re.compile(r"^(?:97|17|21|57)[0-9A-Z]{2}$")
_CODE_PREFIX = re.compile(r"^\s*([0-9A-Z]{1,6})\s*:\s+")
_NO_PARENT = {"", "-none-", "none", "n/a"}


@dataclass(frozen=True)
class AwardRecord:
    """One award as read: PIID, parent IDV, agency texts and codes, USD amounts, ISO dates."""

    file: str
    row: int
    piid: str
    parent_idv: str | None
    sub_agency: str | None
    department: str | None
    agency_codes: tuple[str, ...]
    obligated: int | None
    ceiling: int | None
    start_date: str | None
    end_date: str | None
    award_type: str | None
    description: str | None
    recipient: str | None = None
    naics: str | None = None
    psc: str | None = None
    last_date_to_order: str | None = None
    mod_number: str | None = None
    implausible_amounts: tuple[str, ...] = ()
    """Amounts the record gives that are no contract's worth (``money.is_plausible_amount``:
    above $100B, or infinite), as ``"<field> <text>"``; the record's amount is None."""

    @property
    def contract_number(self) -> str:
        """The PIID; a short order PIID under its parent: ``"TCC15HQB0007 / 0003"``."""
        if len(self.piid) < SHORT_PIID and self.parent_idv:
            return f"{self.parent_idv} / {self.piid}"
        return self.piid


@dataclass(frozen=True)
class DuplicateAward:
    """A record whose PIID was already imported from an earlier record (kept: ``kept_*``)."""

    piid: str
    file: str
    row: int
    kept_file: str
    kept_row: int


@dataclass
class AwardImport:
    """What ``import_awards`` read: drafts (entry + record), rejected rows, duplicates, and
    per file the columns no award field reads (``unread_columns``: said, never silent)."""

    drafts: list[tuple[PastPerformanceEntry, AwardRecord]] = field(default_factory=list)
    rejected: list[RejectedRow] = field(default_factory=list)
    duplicates: list[DuplicateAward] = field(default_factory=list)
    unread_columns: dict[str, list[str]] = field(default_factory=dict)


class _Unreadable(ValueError):
    """A record field that is not what its column says (message names the field)."""


class ImplausibleAmount(ValueError):
    """An award amount that reads but is no contract's worth (``money.is_plausible_amount``);
    ``written`` is the amount as the record gives it."""

    def __init__(self, name: str, written: str) -> None:
        super().__init__(
            f"{name} {written} is above ${money.PLAUSIBLE_VALUE_LIMIT_USD:,}: read as unknown"
        )
        self.written = written


# ------------------------------------------------------------------------------- field rules
def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = " ".join(str(value).split())
    return text or None


def _strip_code(text: str | None) -> tuple[str | None, str | None]:
    """``"2050: INTERNAL REVENUE SERVICE"`` -> ("INTERNAL REVENUE SERVICE", "2050")."""
    if text is None:
        return None, None
    match = _CODE_PREFIX.match(text)
    if match is None:
        return text, None
    return _text(text[match.end() :]), match.group(1)


def _code_of(text: str | None) -> str | None:
    """``"7035: INFORMATION TECHNOLOGY SUPPORT EQUIPMENT"`` -> ``"7035"``; a bare code as is."""
    name, code = _strip_code(text)
    return code or name


_THOUSANDS = re.compile(r"[-+]?\d{1,3}(?:,\d{3})+(?:\.\d*)?")
"""An amount whose commas group thousands (``1,250,000.50``); any other comma is refused."""


def award_amount(value: Any, name: str) -> int | None:
    """A dollar amount of an award export in whole USD (half up), None when empty.

    Accepts numbers and plain decimal strings with an optional ``$`` and thousands commas
    (``"16015794.63"`` -> 16015795; a comma that groups no thousands, ``"1250000,50"``, is a
    decimal comma or a typo and is refused, never read as 125000050: break-it). Raises
    ``ImplausibleAmount`` for an amount that reads but
    is no contract's worth (``1e29``, ``"inf"``, a JSON ``1e309``, ``5e11``: above
    ``money.PLAUSIBLE_VALUE_LIMIT_USD``, break-it: ``1e29`` stopped the import with a
    traceback), and ``ValueError`` naming ``name`` for anything else that is not an amount.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        raise _Unreadable(f"{name} {value!r} is not a dollar amount")
    text = str(value).replace("$", "").strip()
    if "," in text and not _THOUSANDS.fullmatch(text):
        raise _Unreadable(
            f"{name} {value!r} has a comma that is not a thousands separator (a decimal "
            "comma?): write the amount with a decimal point, e.g. 1250000.50"
        )
    text = text.replace(",", "")
    if not text:
        return None
    try:
        amount = Decimal(text)
    except InvalidOperation as error:
        raise _Unreadable(f"{name} {value!r} is not a dollar amount") from error
    if amount.is_nan():
        raise _Unreadable(f"{name} {value!r} is not a dollar amount")
    if not money.is_plausible_amount(amount):
        raise ImplausibleAmount(name, str(value).strip())
    return int(amount.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def award_date(value: Any, name: str) -> str | None:
    """An ISO date from ``2023-05-31``, ``2020-09-30 00:00:00``, ``2020-09-30T00:00:00Z``
    (a UTC offset such as ``-04:00`` too: the date as written is kept) or ``9/8/2016``; None
    if empty.

    Raises ``ValueError`` naming ``name`` for anything else (or an impossible date).
    """
    text = _text(value)
    if text is None:
        return None
    try:
        # a time after the date, with its UTC offset or Z (ISO 8601, as API exports write it)
        match = re.fullmatch(
            r"(\d{4})-(\d{2})-(\d{2})(?:[ T][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?", text, re.I
        )
        if match:
            return dt.date(*map(int, match.groups())).isoformat()
        match = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", text)
        if match:
            month, day, year = map(int, match.groups())
            return dt.date(year, month, day).isoformat()
    except ValueError as error:
        raise _Unreadable(f"{name} {text!r} is not a date: {error}") from error
    raise _Unreadable(f"{name} {text!r} is not a date (expected YYYY-MM-DD or M/D/YYYY)")


def vehicle_of_piid(piid: str | None) -> tuple[str, str] | None:
    """``(vehicle name, vehicles.csv type)`` of an IDV PIID by its stem, or None when unknown."""
    if not piid:
        return None
    key = piid.replace("-", "").upper()
    for pattern, name, kind in _VEHICLE_STEMS:
        if pattern.match(key):
            return name, kind
    return None


def vehicle(record: AwardRecord) -> tuple[str | None, str | None, list[str]]:
    """``(vehicle_type, vehicle_name, defects)`` of an award (rules: module docstring)."""
    award_type = record.award_type
    known = vehicle_of_piid(record.piid if is_idv(record) else record.parent_idv)
    if known is not None:
        name, kind = known
        return VEHICLE_KIND_TYPES[kind], name, []
    if award_type and award_type.lower() in AWARD_TYPE_VEHICLES:
        return AWARD_TYPE_VEHICLES[award_type.lower()], None, []
    vehicle_type, defects = vocab.normalize_vehicle_type(award_type)
    return vehicle_type, None, defects


def customer_type(
    sub_agency: str | None, department: str | None, codes: tuple[str, ...] | list[str] = ()
) -> str | None:
    """``federal-defense`` for an agency in the Department of Defense, ``federal-civilian`` for
    any other federal agency (the rule of ``awards/agencies.csv``), None when nothing says.

    ``codes`` are FPDS agency codes (department ``9700``, sub-tier ``2100``...). A DoD code, or
    a name ``agencies.resolve_agency`` puts under DoD, is defense; another code or a resolved
    civilian agency is civilian; otherwise ``agencies.issuer_type`` reads the wording.
    """
    if any(_DOD_CODE.match(code) for code in codes if code):
        return agencies.FEDERAL_DEFENSE
    agency = _resolve(sub_agency, department)
    if agency is not None:
        return agency.type
    if any(code for code in codes):
        return agencies.FEDERAL_CIVILIAN
    for text in (sub_agency, department):
        kind = agencies.issuer_type(text)
        if kind is not None:
            return kind
    return None


def _department_first(text: str | None) -> str | None:
    """``"AGRICULTURE, DEPARTMENT OF"`` -> ``"Department of AGRICULTURE"`` (FPDS order)."""
    if text is None:
        return None
    match = re.fullmatch(r"(.+?),\s*(DEPARTMENT|DEPT) OF( THE)?", text, re.IGNORECASE)
    return f"Department of{' the' if match.group(3) else ''} {match.group(1)}" if match else text


def _resolve(sub_agency: str | None, department: str | None) -> agencies.Agency | None:
    sub, dep = _department_first(sub_agency), _department_first(department)
    agency = agencies.resolve_agency(sub) if sub else None
    if agency is None and dep:
        agency = agencies.resolve_agency(", ".join(t for t in (sub, dep) if t))
    return agency


def customer(record: AwardRecord) -> Customer:
    """The award's customer: resolved agency name and acronym (else the name as written)."""
    sub = _department_first(record.sub_agency)
    agency = _resolve(record.sub_agency, record.department)
    named: str | None
    if agency is None:
        named = sub or _department_first(record.department)
    elif sub and agencies.resolve_agency(sub) is None:
        named = f"{agency.name}, {sub}"  # "Departmental Offices" of the Treasury
    else:
        named = agency.name
    return Customer(
        type=customer_type(record.sub_agency, record.department, record.agency_codes),
        named=named,
        acronym=agency.acronym if agency is not None and named == agency.name else None,
        industry=None,
    )


IDV_AWARD_TYPES = frozenset({"idc", "fss", "gwac", "bpa", "boa"})
"""FPDS award types of an IDV (a vehicle), not of an order or a standalone contract."""


def is_idv(record: AwardRecord) -> bool:
    """True when the record is an IDV itself (``IDC``, ``FSS``, ``GWAC``, ``BPA``, ``BOA``)."""
    return (record.award_type or "").lower() in IDV_AWARD_TYPES


def contract_value(record: AwardRecord) -> ContractValue:
    """Min = funded = obligated, max = ceiling (USD); one alone gives min = max; else unknown.

    A ceiling of 0 is FPDS's "not stated"; so is an obligation of 0 on an IDV (its own
    obligations leave out every order placed under it): both are unknown. A negative amount
    (more de-obligated than obligated, as real FPDS records show) is not what the contract is
    worth: unknown too (the library rejects a negative value, ``money.check_usd_amount_text``).
    An implausible amount (``record.implausible_amounts``) makes the whole value unknown, as
    ``money.checked_value`` does for a library cell.
    """
    if record.implausible_amounts:
        return ContractValue(None, None)
    ceiling = record.ceiling if record.ceiling and record.ceiling > 0 else None
    obligated = record.obligated
    if (obligated == 0 and is_idv(record)) or (obligated is not None and obligated < 0):
        obligated = None
    low = obligated if obligated is not None else ceiling
    high = ceiling if ceiling is not None else obligated
    return ContractValue(low, high, funded=obligated)


# ------------------------------------------------------------------------------------ reading
def _column(raw: dict[str, Any], name: str) -> Any:
    return _named_column(raw, name)[1]


@functools.lru_cache(maxsize=4096)
def column_key(name: str) -> str:
    """A column name as the export readers compare it: lower case, spaces and hyphens as
    underscores (``"Award ID"``, ``"award_id"`` and ``"AWARD-ID"`` are one column; break-it:
    an export with ``Agency`` and ``Obligated`` columns gave drafts with every field empty)."""
    return re.sub(r"[\s\-_]+", "_", str(name).strip().lower())


_KNOWN_KEYS = {column_key(c) for names in AWARD_COLUMNS.values() for c in names}


def unread_columns(columns: Iterable[str]) -> list[str]:
    """The names among ``columns`` (a file's header) that no award field reads, in order."""
    return [c for c in columns if c is not None and column_key(c) not in _KNOWN_KEYS]


def _named_column(raw: dict[str, Any], name: str) -> tuple[str | None, Any]:
    """``(the AWARD_COLUMNS spelling matched, value)`` of field ``name`` in ``raw``, columns
    compared by ``column_key``; ``(None, None)`` when no column of it holds a value."""
    keys = {column_key(k): k for k in raw if k is not None}
    for column in AWARD_COLUMNS[name]:
        key = keys.get(column_key(column))
        if key is not None and _text(raw[key]) is not None:
            return column, raw[key]
    return None, None


def _amount(
    raw: dict[str, Any], name: str, label: str, modification: bool, implausible: list[str]
) -> int | None:
    """Field ``name``'s amount (``award_amount``); an implausible one is None and its
    ``"<label> <text>"`` goes to ``implausible``."""
    column, value = _named_column(raw, name)
    change = modification and column in TRANSACTION_AMOUNT_COLUMNS
    try:
        amount = award_amount(value, label)
    except ImplausibleAmount as error:
        if not change:
            implausible.append(f"{label} {error.written}")
        return None
    if change:
        return None  # a modification's change, not the contract's value
    return amount


def _has_column(columns: set[str], name: str) -> bool:
    keys = {column_key(c) for c in columns if c is not None}
    return any(column_key(column) in keys for column in AWARD_COLUMNS[name])


def record_from_row(raw: dict[str, Any], file: str, row: int) -> AwardRecord:
    """One export row (column name -> value) as an ``AwardRecord``.

    Raises ``ValueError`` (message naming the field) when the PIID is missing or an amount or
    date does not read.
    """
    piid = _text(_column(raw, "piid"))
    if piid is None:
        raise _Unreadable("no PIID (award_id / piid is empty)")
    parent = _text(_column(raw, "parent_idv"))
    codes: list[str] = []
    internal = _text(_column(raw, "internal_id"))
    if internal and internal.startswith("CONT_"):
        parts = internal.split("_")
        # CONT_AWD_<PIID>_<agency>_<parent IDV PIID>_<agency>
        if len(parts) >= 4:
            codes.append(parts[3])
        if parent is None and len(parts) >= 5:
            parent = parts[4]
    if parent is not None and parent.lower() in _NO_PARENT:
        parent = None
    mod_number = _text(_column(raw, "mod_number"))
    modification = mod_number is not None and mod_number != "0"
    sub, sub_code = _strip_code(_text(_column(raw, "sub_agency")))
    department, department_code = _strip_code(_text(_column(raw, "department")))
    for code in (
        department_code,
        sub_code,
        _text(_column(raw, "department_id")),
        _text(_column(raw, "sub_agency_id")),
    ):
        if code and code not in codes:
            codes.append(code)
    implausible: list[str] = []
    obligated = _amount(raw, "obligated", "obligated amount", modification, implausible)
    ceiling = _amount(raw, "ceiling", "ceiling (base and all options)", modification, implausible)
    return AwardRecord(
        file=file,
        row=row,
        piid=piid,
        parent_idv=parent,
        sub_agency=sub,
        department=department,
        agency_codes=tuple(codes),
        obligated=obligated,
        ceiling=ceiling,
        start_date=award_date(_column(raw, "start"), "start date"),
        end_date=award_date(_column(raw, "end"), "end date"),
        award_type=_strip_code(_text(_column(raw, "award_type")))[0],
        description=_text(_column(raw, "description")),
        recipient=_text(_column(raw, "recipient")),
        naics=_code_of(_text(_column(raw, "naics"))),
        psc=_code_of(_text(_column(raw, "psc"))),
        last_date_to_order=award_date(_column(raw, "last_date_to_order"), "last date to order"),
        mod_number=mod_number,
        implausible_amounts=tuple(implausible),
    )


def _json_rows(path: Path) -> Iterator[tuple[int, dict[str, Any] | None, str | None]]:
    """A ``.json`` file: a list of award objects, or the API's ``{"results": [...]}``; row N is
    the N-th object (1-based)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as error:
        yield 1, None, f"file is not JSON ({error.msg} at line {error.lineno})"
        return
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        data = data["results"]
    if not isinstance(data, list):
        yield 1, None, 'not a list of awards (expected [...] or {"results": [...]})'
        return
    for number, raw in enumerate(data, start=1):
        if isinstance(raw, dict):
            yield number, raw, None
        else:
            yield number, None, "not a JSON object of field: value"


def _xlsx_rows(path: Path) -> Iterator[tuple[int, dict[str, Any] | None, str | None]]:
    """The first sheet of an Excel export (an award CSV opened and saved in Excel): row 1 the
    header, row N the sheet's row N; cells as their saved values (dates as date-times)."""
    from openpyxl import load_workbook

    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises BadZipFile, KeyError, InvalidFileException...
        yield (
            1,
            None,
            f"cannot be read as an Excel workbook ({type(error).__name__}: {error}); save it "
            "from Excel again as .xlsx or CSV",
        )
        return
    try:
        rows = book.worksheets[0].iter_rows(values_only=True)
        header = [str(c).strip() if c is not None else "" for c in next(rows, ())]
        while header and not header[-1]:  # a sheet's rows are as wide as its widest row
            header.pop()
        if not _has_column(set(header), "piid"):
            yield 1, None, _NO_PIID_COLUMN
            return
        for number, cells in enumerate(rows, start=2):
            if all(c is None or str(c).strip() == "" for c in cells):
                continue
            extra = [c for c in cells[len(header) :] if c is not None and str(c).strip()]
            if extra:
                yield number, None, f"{len(extra)} more cells than the header has columns"
                continue
            yield number, {h: c for h, c in zip(header, cells, strict=False) if h}, None
    finally:
        book.close()


_NO_PIID_COLUMN = (
    f"no PIID column (expected one of {', '.join(AWARD_COLUMNS['piid'])}): "
    "not an award export this command reads; nothing in the file was imported"
)
NOT_AN_EXPORT = {
    ".xls": "an old Excel .xls workbook: save it as CSV (or .xlsx) and import that",
    ".zip": "a ZIP archive (as USAspending downloads come): unzip it and import the CSV "
    "files in it",
    ".gz": "a compressed file: decompress it and import the CSV or JSONL file",
}
"""Files an award export may arrive as that are not read, by suffix, with what to do."""


CSV_DELIMITERS = (",", ";", "\t", "|")
"""Separators an award export's header may use: a comma (USAspending, FPDS), a semicolon (a
CSV saved by Excel in a locale whose decimal mark is a comma), a tab (a TSV or "text"
export), a bar."""


def _delimiter(handle: Any) -> str:
    """The separator of a CSV file (the one of ``CSV_DELIMITERS`` its header line holds most
    often; a comma when it holds none), the file rewound (break-it: a semicolon export was
    "no PIID column", its whole header read as one column)."""
    header = handle.readline()
    handle.seek(0)
    counts = {d: header.count(d) for d in CSV_DELIMITERS}
    best = max(CSV_DELIMITERS, key=lambda d: counts[d])
    return best if counts[best] else ","


def _rows(path: Path, file: str) -> Iterator[tuple[int, dict[str, Any] | None, str | None]]:
    """(row, raw record or None, reason when unreadable) for each record of a file."""
    suffix = path.suffix.lower()
    if suffix in NOT_AN_EXPORT:
        yield 1, None, f"{NOT_AN_EXPORT[suffix]}; nothing in the file was imported"
        return
    if suffix in {".xlsx", ".xlsm"}:
        yield from _xlsx_rows(path)
        return
    if suffix == ".json":
        yield from _json_rows(path)
        return
    if path.suffix.lower() in {".jsonl", ".ndjson"}:
        with path.open(encoding="utf-8-sig") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    raw = json.loads(line)
                except json.JSONDecodeError as error:
                    yield number, None, f"line is not JSON ({error.msg})"
                    continue
                if not isinstance(raw, dict):
                    yield number, None, "line is not a JSON object of field: value"
                    continue
                yield number, raw, None
        return
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle, delimiter=_delimiter(handle))
        columns = set(reader.fieldnames or [])
        if not _has_column(columns, "piid"):
            yield 1, None, _NO_PIID_COLUMN
            return
        previous_line = 1
        for raw in reader:
            row = previous_line + 1  # the line the record starts on
            previous_line = reader.line_num
            if None in raw:
                yield row, None, f"{len(raw[None])} more cells than the header has columns"
                continue
            yield row, raw, None


def read_award_file(
    path: Path | str, columns: dict[str, None] | None = None
) -> Iterator[AwardRecord | RejectedRow]:
    """Every award record of one CSV/JSONL export, or a ``RejectedRow`` (file, row, reason,
    raw cells) for each one that cannot be read. A missing file is one rejected row (row None).
    ``columns``, when given, receives every column name the records hold (in first-seen order).
    """
    path = Path(path)
    file = str(path)
    if path.is_dir():
        yield RejectedRow(
            file=file,
            row=None,
            reason=f"{file}: is a folder; pass the export files in it (e.g. {path / '*.csv'})",
        )
        return
    if not path.is_file():
        yield RejectedRow(file=file, row=None, reason=f"{file}: no such file")
        return
    try:
        for row, raw, reason in _rows(path, file):
            if columns is not None and raw is not None:
                columns.update(dict.fromkeys(k for k in raw if k is not None))
            if raw is None:
                yield RejectedRow(file=file, row=row, reason=f"{file} row {row}: {reason}")
                continue
            try:
                yield record_from_row(raw, file, row)
            except ValueError as error:
                kept = {k: v for k, v in raw.items() if k is not None and _text(v) is not None}
                yield RejectedRow(file=file, row=row, reason=f"{file} row {row}: {error}", raw=kept)
    except (UnicodeDecodeError, csv.Error) as error:
        yield RejectedRow(
            file=file, row=None, reason=f"{file}: cannot be read as CSV/JSONL: {error}"
        )


# ------------------------------------------------------------------------------------ drafts
DRAFT_ID_PIID_CHARS = 80
"""Most characters of a PIID kept in a draft id (and its file name, ``<id>.md``); a longer one
is cut and given a hash suffix (``draft_id``)."""


def draft_id(contract_number: str) -> str:
    """The draft entry id of an award: ``AW-<PIID>`` (``AW-<parent>-<PIID>`` for a short order
    PIID). A PIID that loses characters an id cannot hold (slashes, spaces, accents: ``AB/12``,
    ``AB 12``, ``ÅB12``) or is longer than ``DRAFT_ID_PIID_CHARS`` keeps what is left, cut to
    that length, plus ``-`` and 8 hex digits of the PIID's SHA-256, so two PIIDs never share a
    draft id, a file, or a duplicate report (break-it: ``AB/12`` was reported as a duplicate
    of ``AB12`` and dropped). The same PIID always gives the same id, whatever its case: FPDS
    writes PIIDs in upper case, so ``ab12`` is the award ``AB12`` (a duplicate), never a
    second file ``AW-ab12.md`` that a case-insensitive disk (macOS, Windows) would take for
    ``AW-AB12.md``."""
    spelled = contract_number.replace(" / ", "-").upper()
    kept = re.sub(r"[^A-Z0-9._-]", "", spelled)
    if kept == spelled and len(kept) <= DRAFT_ID_PIID_CHARS:
        return "AW-" + kept
    digest = hashlib.sha256(contract_number.upper().encode("utf-8")).hexdigest()[:8]
    cut = kept[:DRAFT_ID_PIID_CHARS].rstrip("._-")
    return f"AW-{cut}-{digest}" if cut else f"AW-{digest}"


def _title(record: AwardRecord) -> str:
    if record.description:
        text = record.description
        if len(text) > 100:
            text = text[:100].rsplit(" ", 1)[0] + " …"
        return text
    return f"{record.award_type or 'Award'} {record.piid}"


def draft_entry(record: AwardRecord) -> PastPerformanceEntry:
    """The library entry an award record gives (rules: module docstring); no write-up fields.
    An implausible amount leaves the value unknown with an ``implausible-value (<field>
    <text>)`` defect (``money.implausible_value_defect``)."""
    vehicle_type, vehicle_name, defects = vehicle(record)
    defects = defects + [money.implausible_value_defect(a) for a in record.implausible_amounts]
    return PastPerformanceEntry(
        id=draft_id(record.contract_number),
        title=_title(record),
        role="prime",
        prime_contractor=None,
        customer=customer(record),
        contract=Contract(
            number=record.contract_number,
            vehicle_type=vehicle_type,
            vehicle_name=vehicle_name,
            value=contract_value(record),
            start_date=record.start_date,
            end_date=record.end_date,
        ),
        technical=Technical(stack_tags=[], domains=[], description=""),
        outcomes=Outcomes(metrics=[], narrative="", vague=True),
        narrative="",
        defects=defects,
        source=f"{record.file} row {record.row}",
        source_row=record.row,
        updated_by=IMPORTER,
    )


def writeup_text(entry: PastPerformanceEntry, record: AwardRecord) -> str:
    """The draft as a library write-up: YAML front matter (``library.writeups``' fields, plus
    ``status``, ``needs_write_up`` and ``source_record``) and a body with a ``## Needs
    write-up`` section and the award record's facts."""
    c = entry.contract
    front = {
        "id": entry.id,
        "title": entry.title,
        "status": NEEDS_WRITE_UP,
        "needs_write_up": list(WRITE_UP_FIELDS),
        "role": entry.role,
        "customer": {
            "type": entry.customer.type,
            "name": entry.customer.named,
            "acronym": entry.customer.acronym,
            "industry": None,
        },
        "contract": {
            "number": c.number,
            "parent_idv": record.parent_idv,
            "vehicle_type": c.vehicle_type,
            "vehicle_name": c.vehicle_name,
            "value_min": c.value.min,
            "value_max": c.value.max,
            "value_funded": c.value.funded,
            "start_date": c.start_date,
            "end_date": c.end_date,
        },
        "stack": [],
        "domains": [],
        "author": IMPORTER,
        "source_record": entry.source,
    }
    facts = [
        ("Award type", record.award_type),
        ("PIID", record.piid),
        ("Modification", record.mod_number if record.mod_number != "0" else None),
        ("Parent IDV", record.parent_idv),
        ("Agency", " / ".join(t for t in (record.department, record.sub_agency) if t) or None),
        ("Recipient", record.recipient),
        ("Obligated (USD)", _usd(record.obligated, record, "obligated amount")),
        ("Ceiling (USD)", _usd(record.ceiling, record, "ceiling (base and all options)")),
        ("Last date to order", record.last_date_to_order),
        ("NAICS", record.naics),
        ("PSC", record.psc),
        ("Description", record.description),
        ("Source", entry.source),
    ]
    lines = [f"- {label}: {value}" for label, value in facts if value is not None]
    body = (
        f"# {entry.title}\n\n"
        f"## {NEEDS_WRITE_UP_HEADING}\n\n"
        f"Draft made by `{IMPORTER}` from a federal award record. Write the Summary, the "
        "Technical Approach and the Results (outcome metrics with numbers), fill stack and "
        "domains, check the role, then delete this section and the status line.\n\n"
        "## Award record\n\n" + "\n".join(lines) + "\n"
    )
    dumped = yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=100)
    return f"---\n{dumped}---\n\n{body}"


def _usd(amount: int | None, record: AwardRecord, label: str) -> str | None:
    if amount is not None:
        return f"{amount:,}"
    for written in record.implausible_amounts:
        if written.startswith(f"{label} "):
            return (
                f"unknown (the record says {written[len(label) + 1 :]}, above "
                f"${money.PLAUSIBLE_VALUE_LIMIT_USD:,}: check the award and write the value)"
            )
    if record.mod_number not in (None, "0"):
        return "unknown (the record is a modification: its amounts are changes)"
    return None


def needs_write_up(entry: PastPerformanceEntry) -> bool:
    """True for a loaded entry that is still an award draft: its narrative keeps the
    ``Needs write-up`` section (ingest joins other sections as heading + text paragraphs)."""
    marker = f"{NEEDS_WRITE_UP_HEADING}\n\n"
    return entry.narrative.startswith(marker) or f"\n\n{marker}" in entry.narrative


def import_awards(paths: list[Path] | list[str]) -> AwardImport:
    """Read award exports into drafts (in file order), rejected rows and duplicate PIIDs.

    Never raises for bad input: unreadable files and records are ``rejected`` with file, row
    and reason; a PIID already drafted from an earlier record is listed in ``duplicates``.
    """
    result = AwardImport()
    seen: dict[str, AwardRecord] = {}
    for path in paths:
        columns: dict[str, None] = {}
        for item in read_award_file(path, columns):
            if isinstance(item, RejectedRow):
                result.rejected.append(item)
                continue
            key = draft_id(item.contract_number)
            if key in seen:
                kept = seen[key]
                result.duplicates.append(
                    DuplicateAward(item.piid, item.file, item.row, kept.file, kept.row)
                )
                continue
            seen[key] = item
            result.drafts.append((draft_entry(item), item))
        unread = unread_columns(columns)
        if unread:
            result.unread_columns[str(path)] = unread
    return result


@dataclass(frozen=True)
class WrittenDraft:
    """A draft file: its entry id, path, and whether it was written (False: a file of that
    name already existed and was kept)."""

    id: str
    path: Path
    written: bool
    source: str


class DraftFolderError(ValueError):
    """The drafts folder cannot be created or written (the message names it and the reason)."""


def write_drafts(
    result: AwardImport, out: Path | str, overwrite: bool = False
) -> list[WrittenDraft]:
    """Write one ``<id>.md`` per draft into ``out`` (created). An existing file is kept (a
    writer may have started on it) unless ``overwrite``. Each file is written to
    ``.<id>.md.partial`` and renamed into place, so a failed write never leaves a truncated
    draft that a later import would keep as a writer's file.

    Raises:
        DraftFolderError: ``out`` cannot be created (a file of that name, a read-only disk,
            no permission) or a draft cannot be written in it; the message names the folder,
            the reason and how many drafts were written before (break-it: a traceback).
    """
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise DraftFolderError(
            f"{folder}: is a file, not a folder; pass --out a folder for the draft write-ups"
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DraftFolderError(
            f"{folder}: cannot create the drafts folder ({_os_reason(exc)}); pass --out a "
            "folder you can write"
        ) from exc
    written: list[WrittenDraft] = []
    for entry, record in result.drafts:
        path = folder / f"{entry.id}.md"
        if path.exists() and not overwrite:
            written.append(WrittenDraft(entry.id, path, False, entry.source))
            continue
        partial = path.with_name(f".{path.name}.partial")
        try:
            partial.write_text(writeup_text(entry, record), encoding="utf-8")
            partial.replace(path)
        except OSError as exc:
            done = sum(w.written for w in written)
            raise DraftFolderError(
                f"{folder}: cannot write the draft {path.name} ({_os_reason(exc)}); "
                f"{done} of {len(result.drafts)} drafts were written before it; pass --out a "
                "folder you can write"
            ) from exc
        finally:
            partial.unlink(missing_ok=True)
        written.append(WrittenDraft(entry.id, path, True, entry.source))
    return written


def _os_reason(exc: OSError) -> str:
    """An OS error's reason without the path the message already names."""
    return exc.strerror or type(exc).__name__
