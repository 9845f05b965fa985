"""Ingest a past-performance library folder into canonical entries (no Dagster here).

Modules: this one (the folder, duplicates), ``library.spreadsheet_rows`` (CSV / XLSX rows),
``library.writeups`` (Markdown write-ups), ``library.cells`` (cell text, encodings, ids).

``load_library(folder)`` reads every ``*.csv`` and ``*.xlsx`` under the folder (one row per
entry, columns of ``SPREADSHEET_COLUMNS``) and every ``*.md`` write-up under it (YAML front
matter plus ``## Summary``, ``## Technical Approach`` and ``## Results`` sections).

Nothing is lost:

- a row or file that cannot be read goes to ``rejected`` with its file, row and the reason
  (no id, a required column missing from the file, a cell that is not a value or a period...);
- a row whose facts are inconsistent or incomplete is kept and its ``defects`` list the issues
  (``end-before-start``, ``min-above-max``, ``missing-value``, ``missing-start-date``,
  ``missing-end-date``, ``nonstandard-customer-type``, ``unknown-customer-type``,
  ``unknown-vehicle-type``, ``unknown-role``, ``unreadable-last-updated``, and, where a fact
  was made unknown or is only a floor, ``implausible-value (...)``, ``lower-bound-value (...)``,
  ``implausible-date (...)``, ``two-customer-types``);
- when an id appears more than once the most recently updated row wins (``Last Updated`` /
  ``last_updated``; a row without a date is the oldest; on a tie the row read last wins) and
  the others are listed in ``superseded``; the kept entry takes the id as most of its rows
  spell it (on a tie, the first read: ``canonical_spelling``).

Spreadsheets: the header is the row (among the first ``HEADER_SEARCH_ROWS``) naming the most
known columns, so title rows above it are skipped. A header row whose cells are merged over
sub-columns is a two-row header when the row below is not an entry (no PP #) and names a
sub-column under a merged cell: each sub-column is named parent + sub-header (``Period of
Performance`` over ``Start`` / ``End``), and a period in two columns (those, or ``Start Date`` /
``End Date``) reads as one; a two-row header whose sub-headers under a library column name
nothing the library reads rejects the sheet, naming the sheet and rows. Columns outside
``SPREADSHEET_COLUMNS`` are ignored; a file missing a required column is rejected whole; an
unreadable Contract Value or Period of Performance rejects the row (empty or ``TBD`` is a defect
instead). Write-ups: sections other than Summary / Technical Approach / Results are appended to
the narrative.

``load_library_frame(folder)`` is the same ingest streamed into a ``pp_entries`` frame: entries
go into the frame in batches as they are read (never a million entry objects at once), and
the result is exactly ``entries_frame(load_library(folder).entries)`` with the same rejected and
superseded rows.

Row numbers are the row numbers a spreadsheet program shows: 1-based and counting the header
and any title rows above it, so in a CSV with the header on row 1 the first entry is row 2 (a
cell with line breaks still counts as one row). Rejections of a whole file carry the header's
row number, or None when no header was found. Write-ups have no row number (None).
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import polars as pl

from rfp_retrieval.library.cells import entry_id_key
from rfp_retrieval.library.files import library_files
from rfp_retrieval.library.frames import entries_frame
from rfp_retrieval.library.records import (
    LibraryLoad,
    PastPerformanceEntry,
    RejectedRow,
    SupersededRow,
)
from rfp_retrieval.library.spreadsheet_rows import (
    _read_spreadsheet,
)
from rfp_retrieval.library.writeups import _read_writeup

__all__ = [
    "LibraryFrame",
    "entry_id_sort_key",
    "load_library",
    "load_library_frame",
]

# Entries converted to frame rows at a time by ``load_library_frame`` (a few tens of MB of
# entry objects at the widest rows the sample library has).
_FRAME_BATCH = 20_000


@dataclass(frozen=True)
class _Candidate:
    entry: PastPerformanceEntry
    order: int


# ------------------------------------------------------------------------------- load_library
def load_library(folder: Path | str) -> LibraryLoad:
    """Ingest a library folder: entries (sorted by id), rejected rows, superseded duplicates.

    Reads ``*.csv``/``*.xlsx`` spreadsheets and ``*.md`` write-ups anywhere under ``folder``
    (``library.files``: hidden files, README files and Excel lock files ``~$*`` are skipped;
    a file in any other format is a rejected row "not read: ..."). ``source`` is the path
    relative to ``folder`` (``past_performance_matrix.csv``, ``writeups/PP-151.md``). Rules: module
    docstring. Raises ``FileNotFoundError`` when ``folder`` is not a directory; problems inside
    files never raise, they are returned in ``rejected`` or as entry ``defects``.
    """
    candidates: list[_Candidate] = []
    rejected: list[RejectedRow] = []
    for item in _library_items(folder):
        if isinstance(item, RejectedRow):
            rejected.append(item)
        else:
            candidates.append(_Candidate(item, len(candidates)))
    entries, superseded = _resolve_duplicates(candidates)
    return LibraryLoad(entries=entries, rejected=rejected, superseded=superseded)


@dataclass(frozen=True)
class LibraryFrame:
    """``load_library_frame``'s result: the ``pp_entries`` frame (``frames.ENTRY_SCHEMA``,
    rows sorted by id as ``load_library`` sorts its entries), the rejected rows and the
    superseded duplicates (as in ``LibraryLoad``)."""

    entries: pl.DataFrame
    rejected: list[RejectedRow]
    superseded: list[SupersededRow]


def load_library_frame(folder: Path | str, batch: int = _FRAME_BATCH) -> LibraryFrame:
    """``load_library`` streamed into the ``pp_entries`` frame, ``batch`` entries at a time.

    Returns a ``LibraryFrame`` whose ``entries`` equal ``entries_frame(load_library(folder)
    .entries)`` and whose ``rejected`` / ``superseded`` equal ``load_library``'s: same rules
    (module docstring: the most recently updated duplicate wins, natural id order). Memory
    is the frame plus one batch of entry objects, not every entry as a Python object (at
    1,000,000 entries the frame is about 1.6 GB; the entry objects and their row dicts were
    about 10 GB more). Raises ``FileNotFoundError`` when ``folder`` is not a directory;
    problems inside files are returned, never raised.
    """
    batches: list[pl.DataFrame] = []
    pending: list[PastPerformanceEntry] = []
    rejected: list[RejectedRow] = []
    ids: list[str] = []
    facts: list[tuple[str | None, int | None, str]] = []  # last_updated, row, source
    for item in _library_items(folder):
        if isinstance(item, RejectedRow):
            rejected.append(item)
            continue
        pending.append(item)
        ids.append(item.id)
        facts.append((item.last_updated, item.source_row, item.source))
        if len(pending) >= batch:
            batches.append(entries_frame(pending))
            pending = []
    if pending or not batches:
        batches.append(entries_frame(pending))
    frame = pl.concat(batches, rechunk=False) if len(batches) > 1 else batches[0]
    del batches
    order, superseded, kept_ids = _winners_in_id_order(ids, facts)
    if not np.array_equal(order, np.arange(len(ids))):
        frame = frame[order]
    if kept_ids != frame["id"].to_list():
        frame = frame.with_columns(pl.Series("id", kept_ids, dtype=frame.schema["id"]))
    return LibraryFrame(frame.rechunk(), rejected, superseded)


def _winners_in_id_order(
    ids: list[str], facts: list[tuple[str | None, int | None, str]]
) -> tuple[np.ndarray, list[SupersededRow], list[str]]:
    """Rows (in read order) of the entries ``_resolve_duplicates`` keeps, in its output order,
    the superseded rows it lists and the kept entries' ids (``canonical_spelling`` of each
    group); ``facts`` per read row: (last_updated, source row, source file). Ids sort as
    there: natural order, first-read order on equal keys."""
    first: dict[str, int] = {}  # entry_id_key -> first row read with it
    duplicated: dict[str, list[int]] = {}
    for k, entry_id in enumerate(ids):
        key = entry_id_key(entry_id)
        if key in first:
            duplicated.setdefault(key, [first[key]]).append(k)
        else:
            first[key] = k
    winner = dict(first)
    spelling = {key: ids[k] for key, k in first.items()}
    superseded: list[SupersededRow] = []
    for key in sorted(duplicated, key=lambda i: (entry_id_sort_key(ids[first[i]]), first[i])):
        group = duplicated[key]
        best = max(group, key=lambda k: (facts[k][0] or "", k))
        winner[key] = best
        spelling[key] = canonical_spelling([ids[k] for k in group])
        for k in group:
            if k != best:
                superseded.append(_superseded_row(spelling[key], facts[k], facts[best]))
    # stable: first-read order on equal keys
    ordered = sorted(first, key=lambda i: entry_id_sort_key(ids[first[i]]))
    order = np.fromiter((winner[i] for i in ordered), dtype=np.int64, count=len(ordered))
    return order, superseded, [spelling[i] for i in ordered]


def canonical_spelling(spellings: list[str]) -> str:
    """The id a group of duplicate rows (one ``entry_id_key``) is kept under: the spelling
    most of its rows use, on a tie the one read first (``PP-004`` then `` pp-004 `` -> the
    library's ``PP-004``). ``spellings`` in read order, not empty. Rule: an id is a label;
    a row retyping it in another case or punctuation updates the entry, it does not rename
    it."""
    counts = Counter(spellings)
    return max(spellings, key=lambda s: (counts[s], -spellings.index(s)))


def superseded_reason(
    loser_updated: str | None, winner_updated: str | None, today: dt.date | None = None
) -> str:
    """Why a duplicate row of an id lost to the kept one, in words for the library listing.

    ``loser_updated`` / ``winner_updated`` are ISO dates (``Last Updated``) or None. The rule
    is the module docstring's: the most recently updated row wins, a row without a date is
    the oldest, on a tie the row read last wins. A tie says so, because then nothing in the
    library shows which row is current and a person should check. A kept row whose Last
    Updated is after ``today`` (the run's date; the wall clock when None) won on a date that
    cannot be right (``library.quality``'s "dates not in the future"): the reason says so.
    """
    today = today or dt.date.today()
    if winner_updated and winner_updated > today.isoformat():
        return (
            f"the kept row's Last Updated {winner_updated} is after today ({today.isoformat()}), "
            f"so it won on a date that cannot be right (this row's: {loser_updated or 'none'}); "
            "check which one is current"
        )
    if winner_updated and loser_updated and winner_updated > loser_updated:
        return f"older Last Updated ({loser_updated} before {winner_updated})"
    if winner_updated and not loser_updated:
        return f"no Last Updated; the kept row's is {winner_updated}"
    if winner_updated:
        return (
            f"same Last Updated ({winner_updated}) as the kept row: the row read last is kept; "
            "check which one is current"
        )
    return "neither row has a Last Updated: the row read last is kept; check which one is current"


def _superseded_row(
    entry_id: str,
    loser: tuple[str | None, int | None, str],
    winner: tuple[str | None, int | None, str],
) -> SupersededRow:
    """The ``SupersededRow`` of ``loser`` kept out by ``winner``: (last_updated, row, file)."""
    return SupersededRow(
        id=entry_id,
        file=loser[2],
        row=loser[1],
        last_updated=loser[0],
        superseded_by_row=winner[1],
        superseded_by_file=winner[2],
        reason=superseded_reason(loser[0], winner[0]),
    )


def _library_items(folder: Path | str) -> Iterator[PastPerformanceEntry | RejectedRow]:
    """Every entry and rejected row of the library folder, in reading order: spreadsheets,
    then write-ups, each sorted by relative path (``library.files.library_files``), rows in
    file order; then a rejected row (no row number) for each file that is not read."""
    root = Path(folder)
    if root.is_file():  # break-it: a file was reported as a folder that does not exist
        raise FileNotFoundError(
            f"past-performance library folder {root} is a file, not a folder: point it at "
            f"the folder holding the library spreadsheet and write-ups (perhaps {root.parent})"
        )
    if not root.is_dir():
        raise FileNotFoundError(f"past-performance library folder {root} does not exist")
    spreadsheets, writeups, not_read = library_files(root)
    for path in spreadsheets:
        yield from _read_spreadsheet(path, path.relative_to(root).as_posix())
    for path in writeups:
        yield from _read_writeup(path, path.relative_to(root).as_posix())
    for path, reason in not_read:
        yield RejectedRow(file=path.relative_to(root).as_posix(), row=None, reason=reason)


def entry_id_sort_key(entry_id: str) -> tuple:
    """Natural sort key for ids (``PP-9`` before ``PP-10``)."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", entry_id))


def _resolve_duplicates(
    candidates: list[_Candidate],
) -> tuple[list[PastPerformanceEntry], list[SupersededRow]]:
    # One id however it is typed (entry_id_key: PP-001 and pp-001 are one entry); the kept
    # row takes the group's canonical_spelling, every other row is superseded by it.
    by_id: dict[str, list[_Candidate]] = {}
    for candidate in candidates:
        by_id.setdefault(entry_id_key(candidate.entry.id), []).append(candidate)
    entries: list[PastPerformanceEntry] = []
    superseded: list[SupersededRow] = []
    for key in sorted(by_id, key=lambda i: entry_id_sort_key(by_id[i][0].entry.id)):
        group = by_id[key]
        winner = max(group, key=lambda c: (c.entry.last_updated or "", c.order))
        entry_id = canonical_spelling([c.entry.id for c in sorted(group, key=lambda c: c.order)])
        entries.append(
            winner.entry if winner.entry.id == entry_id else replace(winner.entry, id=entry_id)
        )
        for loser in sorted(group, key=lambda c: c.order):
            if loser is winner:
                continue
            superseded.append(
                _superseded_row(
                    entry_id,
                    (loser.entry.last_updated, loser.entry.source_row, loser.entry.source),
                    (winner.entry.last_updated, winner.entry.source_row, winner.entry.source),
                )
            )
    return entries, superseded
