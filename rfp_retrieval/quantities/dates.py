"""Calendar dates as RFPs and past-performance libraries write them (one module).

Rules (one place):

- numeric dates are US order (``06/01/2021`` is June 1, month first); a library date written
  with dots is day.month.year, the European style (``01.02.2020`` is 1 February: nobody writes
  US dates with dots), and a slash date whose first number cannot be a month (``15/01/2020``)
  is reported, never guessed;
- a federal fiscal year runs October 1 to September 30 and is named for the year it ends in
  (31 U.S.C. 1102): ``FY20`` starts 2019-10-01 and ends 2020-09-30 (``fiscal_year_start``);
- a month without a day is the first of the month for a start and the last day of the month for
  an end (``Feb 2024`` ends 2024-02-29); a year alone is January 1 / December 31
  (``parse_date_bound``);
- two-digit years: the two readers disagree by one year today and each keeps its pivot, named
  here: a solicitation date (``find_dates``: ``10 NOV 04``) is 20xx below
  ``SOLICITATION_PIVOT`` (70), a library date (``parse_date_bound``: ``06/01/21``, ``FY20``) is
  20xx below ``LIBRARY_PIVOT`` (69, as strptime ``%y``). Only ``69`` reads differently.

Free text (``find_dates``, ``parse_date``): ``June 8, 2026``, ``08/03/2026``, ``08 JUL 2026``,
``10 NOV 04``, ``22-Jun-2020``, ``2026-09-15``, and year-first with one separator
(``2018/10/29``, ``2018.10.29``: year-first is never ambiguous). One written date read as a
period bound (``parse_date_bound``): also ``03/2018``, ``Sept 2019``, ``2016``, ``FY2017``.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from typing import Literal

from dateutil import parser as dateutil_parser

Bound = Literal["start", "end"]

ONGOING_WORDS = frozenset(
    {"present", "current", "ongoing", "now", "to date", "today", "active", "open"}
)

MONTHS: dict[str, int] = {}
"""Month names and abbreviations (``january``, ``jan``, ``sept``) -> 1..12."""
for _number in range(1, 13):
    MONTHS[calendar.month_name[_number].lower()] = _number
    MONTHS[calendar.month_abbr[_number].lower()] = _number
MONTHS["sept"] = 9

MONTH_NAME_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
_FY_RE = re.compile(r"^fy\s*'?(\d{4}|\d{2})$")
_YEAR_RE = re.compile(r"^(\d{4})$")
_ISO_RE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_ISO_MONTH_RE = re.compile(r"^(\d{4})-(\d{1,2})$")
_ISO_DATETIME_RE = re.compile(
    r"^(\d{4})-(\d{1,2})-(\d{1,2})[ t]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?$"
)
_US_DATE_RE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})$")
_US_MONTH_RE = re.compile(r"^(\d{1,2})/(\d{4})$")
_DOTTED_DATE_RE = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})$")
_MONTH_YEAR_RE = re.compile(rf"^({MONTH_NAME_RE})\.?,?\s+'?(\d{{4}}|\d{{2}})$")
_MONTH_DAY_YEAR_RE = re.compile(
    rf"^({MONTH_NAME_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})$"
)

WEEKDAY_RE = re.compile(
    r"(?:Mon(?:day)?|Tue(?:s(?:day)?)?|Wed(?:nesday)?|Thu(?:r(?:s(?:day)?)?)?|Fri(?:day)?|"
    r"Sat(?:urday)?|Sun(?:day)?)\.?,?\s+",
    re.I,
)
"""A weekday name written before a date (``Monday, January 5, 2026``, ``Fri. 6/5/2026``):
it says nothing the date does not, and readers skip it."""

SOLICITATION_PIVOT = 70
"""A two-digit year in a solicitation below this is 20xx, else 19xx (``10 NOV 04``)."""
LIBRARY_PIVOT = 69
"""A two-digit year in a library cell below this is 20xx, else 19xx (as strptime ``%y``)."""


def two_digit_year(text: str, pivot: int) -> int:
    """The year written as ``text`` (4 digits as is; 2 digits 20xx below ``pivot``, else 19xx)."""
    year = int(text)
    if len(text) == 2:
        year += 2000 if year < pivot else 1900
    return year


def fiscal_year_start(fiscal_year: int) -> dt.date:
    """October 1 before federal fiscal year ``fiscal_year`` (31 U.S.C. 1102): FY2021 starts
    2020-10-01."""
    return dt.date(fiscal_year - 1, 10, 1)


def fiscal_year_end(fiscal_year: int) -> dt.date:
    """September 30 of federal fiscal year ``fiscal_year``: FY2020 ends 2020-09-30."""
    return dt.date(fiscal_year, 9, 30)


# --------------------------------------------------------------------------------------------
# dates in free text (cover pages, Section L/M sentences)

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
DATE_RE = re.compile(
    r"(?<![\w/])(?:"
    rf"(?P<mdy_m>{_MONTH})\.?\s+(?P<mdy_d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<mdy_y>\d{{4}})"
    rf"|(?P<dmy_d>\d{{1,2}})(?:st|nd|rd|th)?[\s\-]*(?P<dmy_m>{_MONTH})\.?[\s\-,]*(?P<dmy_y>\d{{4}}|\d{{2}})"
    r"|(?P<iso_y>\d{4})(?P<iso_sep>[-/.])(?P<iso_m>\d{1,2})(?P=iso_sep)(?P<iso_d>\d{1,2})"
    r"|(?P<us_m>\d{1,2})/(?P<us_d>\d{1,2})/(?P<us_y>\d{4}|\d{2})"
    r")(?![\w/])",
    re.I,
)
"""A calendar date as written in a solicitation (see module docstring for the forms)."""

NUMERIC_DATE_LIKE_RE = re.compile(r"(?<![\w/.])\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})(?![\w/])")
"""Three numbers written as a date (``30/11/2026``, ``31.12.2025``, ``11-30-2026``), read or
not: what a reader names as a stated date it could not read when ``DATE_RE``/``match_date``
give no date (a day-first slash date, a dotted solicitation date, an impossible day)."""


def _solicitation_year(text: str) -> int:
    return two_digit_year(text, SOLICITATION_PIVOT)


def match_date(m: re.Match[str]) -> dt.date | None:
    """The date a ``DATE_RE`` match names, or None when it is not a calendar date."""
    g = m.groupdict()
    try:
        if g["mdy_m"]:
            return dt.date(
                _solicitation_year(g["mdy_y"]), MONTHS[g["mdy_m"][:3].lower()], int(g["mdy_d"])
            )
        if g["dmy_m"]:
            return dt.date(
                _solicitation_year(g["dmy_y"]), MONTHS[g["dmy_m"][:3].lower()], int(g["dmy_d"])
            )
        if g["iso_y"]:
            return dt.date(int(g["iso_y"]), int(g["iso_m"]), int(g["iso_d"]))
        if g["us_m"]:  # US order: month/day/year
            return dt.date(_solicitation_year(g["us_y"]), int(g["us_m"]), int(g["us_d"]))
    except ValueError:
        return None
    return None


def find_dates(text: str) -> list[tuple[int, int, dt.date]]:
    """Every valid date in ``text`` as (start, end, date), in order of appearance."""
    out = []
    for m in DATE_RE.finditer(text):
        d = match_date(m)
        if d is not None and 1950 <= d.year <= 2100:
            out.append((m.start(), m.end(), d))
    return out


def parse_date(text: str) -> dt.date | None:
    """The first date written in ``text``, or None."""
    found = find_dates(text)
    return found[0][2] if found else None


# --------------------------------------------------------------------------------------------
# one written date as the start or end of a period (library cells)


def _library_year(text: str) -> int:
    return two_digit_year(text, LIBRARY_PIVOT)


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
    spellings that name a day (``1 October 2021``); an ISO date with a time (``2019-01-01
    00:00:00``, a spreadsheet date exported as text) is its date. Month-only and year-only
    dates and fiscal years resolve to their first day for ``bound="start"`` and their last day
    for ``"end"`` (module docstring). Raises ``ValueError`` naming the text when it is not a
    date; when python-dateutil would read part of it as a time or a time-zone offset
    (``2019-01-01-2021-06-30`` is never 2019-01-01 at UTC-30:00); or when it is an ongoing word
    (``Present``), which only ``parse_period_of_performance`` accepts as an end.
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
    except ValueError as error:  # a known form with an impossible part (month 13, Feb 30)
        if str(error).startswith(repr(lowered)):
            raise
        raise ValueError(f"{cleaned!r} is not a calendar date ({error})") from error
    return _parse_with_dateutil(cleaned, bound)


class _NoMatch(Exception):
    pass


def _parse_known_forms(lowered: str, bound: Bound) -> dt.date:
    if match := _FY_RE.match(lowered):
        fiscal_year = _library_year(match.group(1))
        if bound == "start":
            return fiscal_year_start(fiscal_year)
        return fiscal_year_end(fiscal_year)
    if match := _YEAR_RE.match(lowered):
        year = int(match.group(1))
        return dt.date(year, 1, 1) if bound == "start" else dt.date(year, 12, 31)
    if match := _ISO_RE.match(lowered):
        return dt.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    if match := _ISO_DATETIME_RE.match(lowered):  # a spreadsheet date exported with its time
        return dt.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    if match := _ISO_MONTH_RE.match(lowered):
        return _month_bound(int(match.group(1)), int(match.group(2)), bound)
    if match := _US_DATE_RE.match(lowered):
        month, day = int(match.group(1)), int(match.group(2))
        if month > 12 and day <= 12:
            raise ValueError(
                f"{lowered!r} is day/month/year, but a date with slashes is read month/day/"
                "year (US order): write it as year-month-day, e.g. "
                f"{_library_year(match.group(3)):04d}-{day:02d}-{month:02d}"
            )
        return dt.date(_library_year(match.group(3)), month, day)
    if match := _DOTTED_DATE_RE.match(lowered):  # 31.12.2022: day.month.year
        return dt.date(_library_year(match.group(3)), int(match.group(2)), int(match.group(1)))
    if match := _US_MONTH_RE.match(lowered):
        return _month_bound(int(match.group(2)), int(match.group(1)), bound)
    if match := _MONTH_YEAR_RE.match(lowered):
        return _month_bound(_library_year(match.group(2)), MONTHS[match.group(1)], bound)
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
    if first.tzinfo is not None or second.tzinfo is not None or first.time() != dt.time(0, 0):
        # "2019-01-01-2021-06-30" reads as 2019-01-01 at UTC-30:00 and "2019-01-01-2021" as
        # 2019-01-01 20:21: a period bound names a day, so text dateutil reads with a time of
        # day or a time-zone offset holds more than one date and is reported, never half-read
        raise ValueError(
            f"{cleaned!r} is not one date (it reads as {first.date().isoformat()} followed by "
            "a time or time-zone offset): write one date such as 2019-08-12, or a period as "
            "2019-01-01 to 2021-06-30"
        )
    if first.year != second.year:
        raise ValueError(f"{cleaned!r} has no year")
    if first.month != second.month:
        return dt.date(first.year, 1, 1) if bound == "start" else dt.date(first.year, 12, 31)
    if first.day != second.day:
        return _month_bound(first.year, first.month, bound)
    return first.date()
