"""Periods of performance of the past-performance library.

The date grammar (partial dates, fiscal years, two-digit years) is
``rfp_retrieval.quantities.dates``; this module splits a period into its two ends and names
its defects. Rules of the dates:

- a month without a day is the first of the month for a start and the last day of the month for
  an end (``Feb 2024`` ends 2024-02-29);
- a year alone is January 1 for a start and December 31 for an end;
- a federal fiscal year runs October 1 to September 30 and is named for the year it ends in
  (31 U.S.C. 1102): ``FY20`` starts 2019-10-01 and ends 2020-09-30;
- a period written as one fiscal year (``FY22``) is that whole year, 2021-10-01 to 2022-09-30:
  a fiscal year names a period, where a lone date or year only names a start;
- a date before ``EARLIEST_YEAR`` (1950) or after ``LATEST_YEAR`` (2060) is a typo (``FY2099``,
  ``1899``): that end of the period is unknown, with an ``implausible-date`` defect naming it;
- ``Present``, ``Current``, ``ongoing`` end a period as ``"ongoing"``, never as today's date;
- numeric dates are US order (``06/01/2021`` is June 1); with dots they are day.month.year
  (``01.02.2020`` is 1 February; ``quantities.dates``);
- a bare hyphen between two whole dates separates them (``2019-01-01-2021-06-30``); a cell
  that is not read whole is reported, never read as its first date (a trailing date is not a
  time-zone offset).
"""

from __future__ import annotations

import datetime as dt
import re

from rfp_retrieval.library.money import MISSING_VALUE_WORDS
from rfp_retrieval.library.records import ONGOING
from rfp_retrieval.quantities.dates import (
    MONTH_NAME_RE,
    ONGOING_WORDS,
    parse_date_bound,
)

__all__ = [
    "EARLIEST_YEAR",
    "END_BEFORE_START",
    "IMPLAUSIBLE_DATE",
    "LATEST_YEAR",
    "MISSING_END_DATE",
    "MISSING_START_DATE",
    "parse_period_of_performance",
    "period_from_columns",
    "period_defects",
    "plausible_period",
]

END_BEFORE_START = "end-before-start"
MISSING_START_DATE = "missing-start-date"
MISSING_END_DATE = "missing-end-date"
IMPLAUSIBLE_DATE = "implausible-date"
# Past performance is work done in the era of the systems a proposal describes; a start before
# 1950 or any date after 2060 is a mistyped year (break-it: FY2099, 1899), not a fact to rank on.
EARLIEST_YEAR = 1950
LATEST_YEAR = 2060
_FISCAL_YEAR_ALONE = re.compile(r"^fy\s*'?(?:\d{4}|\d{2})$", re.IGNORECASE)


# Separators between the two ends of a period, tried in order. A bare hyphen separates two
# ends only when each end is a whole date of a known form (a year, a fiscal year, a month
# name and year, a US date, an ISO date with or without its time): "2019-01-01-2021-06-30" is
# 2019-01-01 to 2021-06-30, read by the pattern, not by guessing where the hyphen falls.
_SEPARATORS = (
    re.compile(r"\s+(?:to|through|thru|until)\s+", re.IGNORECASE),
    re.compile(r"\s*[–—‒―]\s*"),
    re.compile(r"\s+-+\s+"),
)
_PERIOD_END_RE = (
    r"(?:\d{4}-\d{1,2}-\d{1,2}(?:[ t]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?"  # ISO [time]
    r"|\d{1,2}/\d{1,2}/\d{2,4}|\d{1,2}/\d{4}"  # US dates, US months
    r"|\d{1,2}\.\d{1,2}\.\d{2,4}"  # day.month.year
    rf"|\d{{4}}|fy\s*'?\d{{2,4}}|(?:{MONTH_NAME_RE})\.?\s+\d{{4}})"
)
_BARE_HYPHEN = re.compile(
    rf"^({_PERIOD_END_RE})\s*-+\s*({_PERIOD_END_RE}|{'|'.join(sorted(ONGOING_WORDS))})$",
    re.IGNORECASE,
)


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
    two whole dates (``2011-2014``, ``FY20-FY23``, ``2019-01-01-2021-06-30``,
    ``2019-01-01 00:00:00-2021-06-30 00:00:00``). ``Oct 2019 – Present`` gives
    ``("2019-10-01", "ongoing")``; ``FY20-FY23`` gives ``("2019-10-01", "2023-09-30")``;
    ``03/2018 - 02/2024`` gives ``("2018-03-01", "2024-02-29")``. A single date or a missing end
    gives ``end=None`` (but one fiscal year alone, ``FY22``, is that whole year) and empty text
    gives ``(None, None)``: ``period_defects`` reports them;
    a placeholder end (``Jan 2019 - TBD``, ``TBD``) is unknown like an empty one.
    Raises ``ValueError`` naming the text when either end is not a date (rules: module docstring).
    """
    if text is None:
        return None, None
    cleaned = " ".join(str(text).replace("\u00a0", " ").split())
    if not cleaned:
        return None, None
    start_text, end_text = _split_period(cleaned)
    if end_text is None and _FISCAL_YEAR_ALONE.match(start_text):
        end_text = start_text  # "FY22" is the whole fiscal year (module docstring)
    try:
        return _period_ends(start_text, end_text)
    except ValueError as error:
        raise ValueError(f"period of performance {text!r}: {error}") from error


def _period_ends(
    start: str | dt.date | None, end: str | dt.date | None
) -> tuple[str | None, str | None]:
    start_text = start if isinstance(start, dt.date) else _unless_placeholder(start or "")
    end_text = end if isinstance(end, dt.date) else _unless_placeholder((end or "").strip(" .,"))
    start_iso = parse_date_bound(start_text, "start").isoformat() if start_text else None
    if not end_text:
        return start_iso, None
    if isinstance(end_text, str) and end_text.lower() in ONGOING_WORDS:
        return start_iso, ONGOING
    return start_iso, parse_date_bound(end_text, "end").isoformat()


def _unless_placeholder(text: str) -> str:
    """``text`` stripped, or ``""`` when it says "not known yet" (``TBD``, ``N/A``, ``?``: the
    words of ``money.MISSING_VALUE_WORDS``, one list for values and dates): a period end
    written as a placeholder is unknown (a ``missing-*-date`` defect), not an unreadable date
    that rejects the row (break-it: "Jan 2019 - TBD" rejected the whole row)."""
    text = text.strip()
    return "" if text.lower().strip(" .") in MISSING_VALUE_WORDS else text


def period_from_columns(
    start: str | dt.date | None, end: str | dt.date | None
) -> tuple[str | None, str | None]:
    """Read a period written in two cells (``Period of Performance`` merged over ``Start`` and
    ``End`` sub-columns, or ``Start Date`` / ``End Date`` columns) into ``(start, end)``, as
    ``parse_period_of_performance`` reads one cell: ``("Oct 2019", "Present")`` gives
    ``("2019-10-01", "ongoing")``; a spreadsheet date cell is its date; an empty cell is None.
    Raises ``ValueError`` naming the cell (``Start`` / ``End``) that is not a date.
    """
    try:
        start_iso, _ = _period_ends(start, None)
    except ValueError as error:
        raise ValueError(f"Start {start!s}: {error}") from error
    try:
        _, end_iso = _period_ends(None, end)
    except ValueError as error:
        raise ValueError(f"End {end!s}: {error}") from error
    return start_iso, end_iso


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


def plausible_period(
    start: str | None, end: str | None
) -> tuple[str | None, str | None, list[str]]:
    """``(start, end, defects)``: an end dated before ``EARLIEST_YEAR`` or after ``LATEST_YEAR``
    becomes unknown (None) with ``implausible-date (start <date>)`` / ``(end <date>)``, so a
    mistyped year is shown as unknown rather than ranked as very old or still running. ISO
    dates or ``"ongoing"`` in, the same out; never raises. Rule: module docstring."""
    defects = []
    checked: list[str | None] = []
    for name, iso in (("start", start), ("end", end)):
        if iso is not None and iso != ONGOING and not EARLIEST_YEAR <= int(iso[:4]) <= LATEST_YEAR:
            defects.append(f"{IMPLAUSIBLE_DATE} ({name} {iso})")
            iso = None
        checked.append(iso)
    return checked[0], checked[1], defects
