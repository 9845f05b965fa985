"""Library write-ups (``*.md``): YAML front matter plus Summary / Technical Approach / Results.

Rules: ``library.ingest``'s docstring.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from rfp_retrieval.documents.text import without_controls
from rfp_retrieval.library import dates, money, outcomes, vocab
from rfp_retrieval.library.cells import (
    ENTRY_ID_RE,
    RowRejected,
    _cell_text,
    _header_key,
    _last_updated,
    read_text_file,
    spelled_entry_id,
)
from rfp_retrieval.library.records import (
    ONGOING,
    Contract,
    ContractValue,
    Customer,
    Outcomes,
    PastPerformanceEntry,
    RejectedRow,
    Technical,
)
from rfp_retrieval.quantities.money import parse_amount

WRITEUP_SECTIONS: dict[str, str] = {
    "summary": "summary",
    "overview": "summary",
    "technical approach": "technical",
    "technical description": "technical",
    "results": "results",
    "outcomes": "results",
    "results / outcomes": "results",
}


class _LenientLoader(yaml.SafeLoader):
    """PyYAML's safe loader, except that an impossible date stays text.

    ``safe_load`` turns ``2025-13-06`` (unquoted) into ``datetime.date(2025, 13, 6)`` and
    raises ``ValueError`` ("month must be in 1..12"), which is not a ``YAMLError``: one typo
    in one write-up would stop the whole load. Kept as text, the value reaches the date
    readers, which report it as a defect of that one entry or block.
    """


def _timestamp_or_text(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
    try:
        return yaml.SafeLoader.construct_yaml_timestamp(loader, node)
    except ValueError:
        return loader.construct_scalar(node)


_LenientLoader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp_or_text)


def lenient_yaml_load(text: str) -> Any:
    """``yaml.safe_load`` that keeps an impossible date (``2025-02-30``) as its text.

    Raises ``yaml.YAMLError`` for malformed YAML, like ``safe_load``.
    """
    return yaml.load(text, Loader=_LenientLoader)  # noqa: S506 - a SafeLoader subclass


# ------------------------------------------------------------------------------------ write-ups
_FRONT_MATTER_RE = re.compile(r"\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
_HEADING_RE = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$", re.MULTILINE)


def _read_writeup(path: Path, rel: str) -> Iterator[PastPerformanceEntry | RejectedRow]:
    try:
        yield _entry_from_writeup(read_text_file(path), rel)
    except RowRejected as error:
        yield RejectedRow(file=rel, row=None, reason=f"{rel}: {error}")


def _split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    text = text.replace("\r\n", "\n").lstrip("\ufeff")
    match = _FRONT_MATTER_RE.match(text)
    if match is None:
        raise RowRejected("no YAML front matter (a '---' block at the top with at least an id)")
    try:
        front = lenient_yaml_load(match.group(1)) or {}
    except yaml.YAMLError as error:
        raise RowRejected(f"YAML front matter does not parse: {error}") from error
    if not isinstance(front, dict):
        raise RowRejected("YAML front matter is not a mapping of field: value")
    return front, text[match.end() :]


def _sections(body: str) -> tuple[str | None, dict[str, str], list[tuple[str, str]]]:
    """The H1 title, the known sections (summary/technical/results) and any other sections
    (heading, text) in order; text before the first ``##`` heading counts as another section."""
    title = None
    known: dict[str, str] = {}
    other: list[tuple[str, str]] = []
    headings = list(_HEADING_RE.finditer(body))
    preamble_end = headings[0].start() if headings else len(body)
    if body[:preamble_end].strip():
        other.append(("", body[:preamble_end]))
    for k, heading in enumerate(headings):
        text = body[heading.end() : headings[k + 1].start() if k + 1 < len(headings) else len(body)]
        name = heading.group(2).strip()
        if len(heading.group(1)) == 1 and title is None:
            title = name
            if text.strip():
                other.append(("", text))
            continue
        section = WRITEUP_SECTIONS.get(_header_key(name))
        if section and section not in known:
            known[section] = text
        else:
            other.append((name, text))
    return title, known, other


def _markdown_text(text: str) -> str:
    """Markdown paragraphs as plain text: paragraphs separated by a blank line, hard-wrapped
    lines joined (list lines kept), invisible controls removed (``without_controls``)."""
    text = without_controls(text)
    paragraphs = [p.strip() for p in re.split(r"\n[ \t]*\n", text) if p.strip()]
    return "\n\n".join(outcomes.join_markdown_lines(p) for p in paragraphs)


def _mapping(front: dict[str, Any], key: str) -> dict[str, Any]:
    value = front.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RowRejected(f"front matter '{key}' should be a mapping, got {value!r}")
    return value


def _front_text(value: Any) -> str | None:
    if value is None:
        return None
    text = _cell_text(value)
    return text or None


def _front_amount(value: Any, name: str) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise RowRejected(f"contract {name} {value!r} is not a dollar amount")
    try:
        if isinstance(value, int | float):
            return money.parse_contract_value(value).min
        money.check_usd_amount_text(str(value))
        return parse_amount(str(value))
    except ValueError as error:
        raise RowRejected(f"contract {name}: {error}") from error


def _front_value(contract: dict[str, Any]) -> ContractValue:
    low = _front_amount(contract.get("value_min"), "value_min")
    high = _front_amount(contract.get("value_max"), "value_max")
    funded = _front_amount(contract.get("value_funded"), "value_funded")
    if low is None and high is None and contract.get("value") is not None:
        try:
            return money.parse_contract_value(contract["value"])
        except ValueError as error:
            raise RowRejected(f"contract value: {error}") from error
    if low is None and high is not None:
        low = high
    if high is None and low is not None:
        high = low
    return ContractValue(low, high, funded=funded)


def _front_value_text(contract: dict[str, Any]) -> str:
    """The value as written in the front matter (``value``, or its min / max fields)."""
    if contract.get("value") is not None:
        return str(contract["value"])
    parts = (contract.get(k) for k in ("value_min", "value_max", "value_funded"))
    return " / ".join(str(p) for p in parts if p is not None)


def _front_period(contract: dict[str, Any]) -> tuple[str | None, str | None]:
    start_raw, end_raw = contract.get("start_date"), contract.get("end_date")
    if start_raw is None and end_raw is None and contract.get("period") is not None:
        try:
            return dates.parse_period_of_performance(str(contract["period"]))
        except ValueError as error:
            raise RowRejected(str(error)) from error
    try:
        start = None
        if start_raw is not None and str(start_raw).strip():
            start = dates.parse_date_bound(start_raw, "start").isoformat()
        end = None
        if end_raw is not None and str(end_raw).strip():
            if str(end_raw).strip().lower() in dates.ONGOING_WORDS:
                end = ONGOING
            else:
                end = dates.parse_date_bound(end_raw, "end").isoformat()
    except ValueError as error:
        raise RowRejected(f"contract dates: {error}") from error
    return start, end


def _entry_from_writeup(text: str, rel: str) -> PastPerformanceEntry:
    front, body = _split_front_matter(text)
    entry_id = _cell_text(front.get("id"))
    if not entry_id:
        raise RowRejected("front matter has no id: add e.g. 'id: PP-181'")
    entry_id, id_defects = spelled_entry_id(entry_id)
    if not ENTRY_ID_RE.match(entry_id):
        raise RowRejected(f"id {entry_id!r} is not an entry id (expected e.g. PP-001)")
    h1, sections, other = _sections(body)
    title = _front_text(front.get("title")) or h1
    if not title:
        raise RowRejected(f"{entry_id}: no title (front matter 'title' or a '# Title' heading)")
    customer = _mapping(front, "customer")
    contract = _mapping(front, "contract")
    defects: list[str] = list(id_defects)

    customer_type, found = vocab.normalize_customer_type(
        _front_text(customer.get("type")),
        _front_text(customer.get("name", customer.get("named"))),
    )
    defects += found
    role, found = vocab.normalize_role(_front_text(front.get("role")))
    defects += found
    vehicle_type, found = vocab.normalize_vehicle_type(_front_text(contract.get("vehicle_type")))
    defects += found
    value, found = money.checked_value(_front_value(contract), _front_value_text(contract))
    defects += found
    start, end, found = dates.plausible_period(*_front_period(contract))
    defects += found + dates.period_defects(start, end)
    last_updated, found = _last_updated(front.get("last_updated"))
    defects += found

    narrative_parts = [_markdown_text(sections.get("summary", ""))]
    for heading, section_text in other:  # nothing is lost: other sections join the narrative
        narrative_parts.append("\n\n".join(p for p in (heading, _markdown_text(section_text)) if p))
    stack = front.get("stack", front.get("stack_tags", front.get("technologies")))
    return PastPerformanceEntry(
        id=entry_id,
        title=title,
        role=role,
        prime_contractor=_front_text(front.get("prime_contractor")) if role == "sub" else None,
        customer=Customer(
            type=customer_type,
            named=_front_text(customer.get("name", customer.get("named"))),
            acronym=_front_text(customer.get("acronym")),
            industry=_front_text(customer.get("industry")),
        ),
        contract=Contract(
            number=_front_text(contract.get("number")),
            vehicle_type=vehicle_type,
            vehicle_name=vocab.normalize_vehicle_name(_front_text(contract.get("vehicle_name"))),
            value=value,
            start_date=start,
            end_date=end,
        ),
        technical=Technical(
            stack_tags=vocab.stack_tags(stack),
            domains=vocab.domain_tags(front.get("domains")),
            description=_markdown_text(sections.get("technical", "")),
        ),
        outcomes=outcomes.parse_results_section(sections.get("results", ""))
        if "results" in sections
        else Outcomes(metrics=[], narrative="", vague=True),
        narrative="\n\n".join(p for p in narrative_parts if p),
        defects=defects,
        source=rel,
        source_row=None,
        last_updated=last_updated,
        updated_by=_front_text(front.get("author", front.get("updated_by"))),
        cpars=_front_text(front.get("cpars")),
    )
