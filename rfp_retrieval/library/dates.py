"""Periods of performance and the partial dates people write in them.

Rules (one place):

- a month without a day is the first of the month for a start and the last day of the month for
  an end (``Feb 2024`` ends 2024-02-29);
- a year alone is January 1 for a start and December 31 for an end;
- a federal fiscal year runs October 1 to September 30 and is named for the year it ends in
  (31 U.S.C. 1102): ``FY20`` starts 2019-10-01 and ends 2020-09-30;
- ``Present``, ``Current``, ``ongoing`` end a period as ``"ongoing"``, never as today's date;
- numeric dates are US order (``06/01/2021`` is June 1).
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from typing import Literal

from dateutil import parser as dateutil_parser

from rfp_retrieval.library.records import ONGOING

Bound = Literal["start", "end"]

END_BEFORE_START = "end-before-start"
MISSING_START_DATE = "missing-start-date"
MISSING_END_DATE = "missing-end-date"

ONGOING_WORDS = frozenset(
    {"present", "current", "ongoing", "now", "to date", "today", "active", "open"}
)

MONTHS: dict[str, int] = {}
for _number in range(1, 13):
    MONTHS[calendar.month_name[_number].lower()] = _number
    MONTHS[calendar.month_abbr[_number].lower()] = _number
MONTHS["sept"] = 9

_MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
_FY_RE = re.compile(r"^fy\s*'?(\d{4}|\d{2})$")
_YEAR_RE = re.compile(r"^(\d{4})$")
_ISO_RE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_ISO_MONTH_RE = re.compile(r"^(\d{4})-(\d{1,2})$")
_US_DATE_RE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})$")
_US_MONTH_RE = re.compile(r"^(\d{1,2})/(\d{4})$")
_MONTH_YEAR_RE = re.compile(rf"^({_MONTH_RE})\.?,?\s+'?(\d{{4}}|\d{{2}})$")
_MONTH_DAY_YEAR_RE = re.compile(rf"^({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})$")

# Separators between the two ends of a period, tried in order. A bare hyphen only separates
# ends that contain no hyphen themselves (years, fiscal years, month names).
_SEPARATORS = (
    re.compile(r"\s+(?:to|through|thru|until)\s+", re.IGNORECASE),
    re.compile(r"\s*[–—‒―]\s*"),
    re.compile(r"\s+-+\s+"),
)
_PERIOD_END_RE = rf"(?:\d{{4}}|fy\s*'?\d{{2,4}}|(?:{_MONTH_RE})\.?\s+\d{{4}})"
_BARE_HYPHEN = re.compile(
    rf"^({_PERIOD_END_RE})\s*-+\s*({_PERIOD_END_RE}|{'|'.join(sorted(ONGOING_WORDS))})$",
    re.IGNORECASE,
)


def _year(text: str) -> int:
    year = int(text)
    if len(text) == 2:  # two-digit years: 00-68 are 2000s, 69-99 are 1900s (as strptime %y)
        year += 2000 if year < 69 else 1900
    return year


def _month_bound(year: int, month: int, bound: Bound) -> dt.date:
    if not 1 <= month <= 12:
        raise ValueError(f"month {month} is not 1-12")
    if bound == "start":
        return dt.date(year, month, 1)
    return dt.date(year, month, calendar.monthrange(year, month)[1])


def parse_date_bound(text: str | dt.date, bound: Bound) -> dt.date:
    """Read one written date as the start or end of a period; returns a ``datetime.date``.

    Accepts ``2019-08-12``, ``06/01/2021``, ``Oct 1, 2021``, ``03/2018``, ``Sept 2019``,
    ``September 2018``, ``2016``, ``FY20``/``FY2017`` and, through python-dateutil, other
    spellings that name a day (``1 October 2021``). Month-only and year-only dates and fiscal
    years resolve to their first day for ``bound="start"`` and their last day for ``"end"``
    (module docstring). Raises ``ValueError`` naming the text when it is not a date, or is an
    ongoing word (``Present``), which only ``parse_period_of_performance`` accepts as an end.
    """
    if isinstance(text, dt.datetime):
        return text.date()
    if isinstance(text, dt.date):
        return text
    cleaned = " ".join(str(text).replace("\u00a0", " ").split()).strip(" .,")
    lowered = cleaned.lower()
    if not cleaned:
        raise ValueError("empty date")
    if lowered in ONGOING_WORDS:
        raise ValueError(f"{text!r} means ongoing, not a date")
    try:
        return _parse_known_forms(lowered, bound)
    except _NoMatch:
        pass
    return _parse_with_dateutil(cleaned, bound)


class _NoMatch(Exception):
    pass


def _parse_known_forms(lowered: str, bound: Bound) -> dt.date:
    if match := _FY_RE.match(lowered):
        fiscal_year = _year(match.group(1))
        if bound == "start":
            return dt.date(fiscal_year - 1, 10, 1)
        return dt.date(fiscal_year, 9, 30)
    if match := _YEAR_RE.match(lowered):
        year = int(match.group(1))
        return dt.date(year, 1, 1) if bound == "start" else dt.date(year, 12, 31)
    if match := _ISO_RE.match(lowered):
        return dt.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    if match := _ISO_MONTH_RE.match(lowered):
        return _month_bound(int(match.group(1)), int(match.group(2)), bound)
    if match := _US_DATE_RE.match(lowered):
        return dt.date(_year(match.group(3)), int(match.group(1)), int(match.group(2)))
    if match := _US_MONTH_RE.match(lowered):
        return _month_bound(int(match.group(2)), int(match.group(1)), bound)
    if match := _MONTH_YEAR_RE.match(lowered):
        return _month_bound(_year(match.group(2)), MONTHS[match.group(1)], bound)
    if match := _MONTH_DAY_YEAR_RE.match(lowered):
        return dt.date(int(match.group(3)), MONTHS[match.group(1)], int(match.group(2)))
    raise _NoMatch


def _parse_with_dateutil(cleaned: str, bound: Bound) -> dt.date:
    # Parse with two different defaults: a component that changes with the default was not
    # written, so month-only and year-only text still follows this module's rules.
    try:
        first = dateutil_parser.parse(cleaned, default=dt.datetime(1904, 1, 1))
        second = dateutil_parser.parse(cleaned, default=dt.datetime(1908, 12, 28))
    except (ValueError, OverflowError) as error:
        raise ValueError(
            f"{cleaned!r} is not a date: write e.g. 2019-08-12, 06/01/2021, Oct 2019, 2016 or FY20"
        ) from error
    if first.year != second.year:
        raise ValueError(f"{cleaned!r} has no year")
    if first.month != second.month:
        return dt.date(first.year, 1, 1) if bound == "start" else dt.date(first.year, 12, 31)
    if first.day != second.day:
        return _month_bound(first.year, first.month, bound)
    return first.date()


def _split_period(text: str) -> tuple[str, str | None]:
    for separator in _SEPARATORS:
        parts = separator.split(text, maxsplit=1)
        if len(parts) == 2:
            return parts[0], parts[1]
    if match := _BARE_HYPHEN.match(text):  # "2011-2014", "FY20-FY23", "FY24-Present"
        return match.group(1), match.group(2)
    return text, None


def parse_period_of_performance(text: str | None) -> tuple[str | None, str | None]:
    """Read a period of performance into ``(start, end)``.

    ``start`` is an ISO date or None; ``end`` is an ISO date, ``"ongoing"`` or None. Ends are
    separated by an en/em dash, a spaced hyphen, ``to``/``through``, or a bare hyphen between
    years (``2011-2014``, ``FY20-FY23``). ``Oct 2019 – Present`` gives
    ``("2019-10-01", "ongoing")``; ``FY20-FY23`` gives ``("2019-10-01", "2023-09-30")``;
    ``03/2018 - 02/2024`` gives ``("2018-03-01", "2024-02-29")``. A single date or a missing end
    gives ``end=None`` and empty text gives ``(None, None)``: ``period_defects`` reports them.
    Raises ``ValueError`` naming the text when either end is not a date (rules: module docstring).
    """
    if text is None:
        return None, None
    cleaned = " ".join(str(text).replace("\u00a0", " ").split())
    if not cleaned:
        return None, None
    start_text, end_text = _split_period(cleaned)
    try:
        start = parse_date_bound(start_text, "start").isoformat() if start_text.strip() else None
        end: str | None
        if end_text is None or not end_text.strip(" .,"):
            end = None
        elif end_text.strip(" .,").lower() in ONGOING_WORDS:
            end = ONGOING
        else:
            end = parse_date_bound(end_text, "end").isoformat()
    except ValueError as error:
        raise ValueError(f"period of performance {text!r}: {error}") from error
    return start, end


def period_defects(start: str | None, end: str | None) -> list[str]:
    """Defect codes for a period (ISO dates or ``"ongoing"``): ``missing-start-date``,
    ``missing-end-date``, ``end-before-start``; ``[]`` when consistent."""
    defects = []
    if start is None:
        defects.append(MISSING_START_DATE)
    if end is None:
        defects.append(MISSING_END_DATE)
    if start and end and end != ONGOING and end < start:
        defects.append(END_BEFORE_START)
    return defects
