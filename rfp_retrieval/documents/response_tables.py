"""Response tables: which column of a table holds the ask, its label, the response to fill in,
and the grouping topic (``Domain``, ``Category``), read from the header names and the cells.

Read by ``questions`` for table rows (kind ``table-row``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rfp_retrieval.documents.text import strip_inline_markdown

# table column roles (header names)
_RESPONSE_HEADER = re.compile(
    r"\b(?:response|responses|answer|answers|comments?|explanation|compl(?:y|iance|ies)|"
    r"remarks|y/n|yes/no|proposal (?:page|reference|section)|page (?:no|number|ref)|"
    r"offeror(?:'s)? (?:response|reference)|vendor (?:response|comments))\b",
    re.I,
)
_NOT_RESPONSE_HEADER = re.compile(r"\b(?:options?|choices|types?|formats?|values)\b", re.I)
_LABEL_HEADER = re.compile(
    r"^(?:#|no\.?|num(?:ber)?\.?|id|item(?: no\.?| #| number)?|ref(?:erence)?(?: no\.?| #)?|"
    r"req(?:uirement)?\.? ?(?:id|no\.?|#|number)|control(?: id| no\.?| #)?|question (?:id|no\.?|#)|"
    r"q ?#|qid|criteri(?:on|a) (?:id|no\.?)|line(?: no\.?)?)$",
    re.I,
)
_QUESTION_HEADER = re.compile(
    r"\b(?:question|questions|requirement|requirements|description|prompt|criteria|criterion|"
    r"specification|request|requested information|item|task|deliverable|control|statement)\b",
    re.I,
)
_GROUP_HEADER = re.compile(
    r"^(?:(?:[a-z/&-]+\s+){0,2}(?:domain|domains|category|categories|sub-?category|topic|"
    r"topics|area|areas|family|families|group|capability|function|module|subject|theme)"
    r"|section|control|controls|control (?:objective|name|title))$",
    re.I,
)
"""Headers naming the topic a row belongs to (``Domain``, ``Control Area``, ``Category``,
``Control Family``, ``Control``), in any column position (issue 14: the topic may sit in a
middle column). ``Control`` alone names the topic only when another column holds the ask."""
_ID_CELL = re.compile(
    r"^(?:[A-Z]{1,8}[-_. ]?\d{1,4}(?:[.-]\d{1,4})*[a-z]?|\d{1,4}(?:\.\d{1,4})*\.?|[a-z]\.|"
    r"\(?[a-z]\)|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)$"
)
GENERIC_HEADERS = re.compile(
    r"^(?:question|questions|requirement|requirements|description|requirement description|"
    r"item|items|prompt|criteria|column \d+)$",
    re.I,
)


@dataclass
class ColumnRoles:
    """Column indexes of a response table: the ask, its label, the response, grouping columns
    and a row header (None or ``[]`` when the table has none)."""

    question: int | None
    label: int | None
    response: int | None
    groups: list[int]
    row_header: int | None


def row_cells(line: str) -> list[str]:
    """The cells of a ``| a | b |`` row, inline Markdown stripped."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|"):
        s = s[:-1]
    return [strip_inline_markdown(c) for c in s.split("|")]


_SEPARATOR_CELL = re.compile(r"^:?-{3,}:?$")


def header_index(rows: list[list[str]]) -> int:
    """Index of a table's header row among its ``rows`` (issue 14: not always the first line).

    The row just above a Markdown ``| --- |`` separator; without one, the first row whose
    cells name a role (a response, label, ask or topic column) in at least two columns,
    else 0. Rows above the header are titles ("Table 3 — Security Questionnaire").
    """
    for i, row in enumerate(rows):
        cells = [c.strip() for c in row if c.strip()]
        if i > 0 and cells and all(_SEPARATOR_CELL.match(c) for c in cells):
            return i - 1
    for i, row in enumerate(rows[:5]):
        named = sum(
            1
            for c in row
            if c.strip()
            and (
                _RESPONSE_HEADER.search(c)
                or _LABEL_HEADER.match(c.strip())
                or _QUESTION_HEADER.search(c)
                or _GROUP_HEADER.match(c.strip())
            )
            and len(c.split()) <= 4
        )
        if named >= 2:
            return i
    return 0


def is_separator(row: list[str]) -> bool:
    """The row is a Markdown alignment row (``| --- | :---: |``)."""
    cells = [c.strip() for c in row if c.strip()]
    return bool(cells) and all(_SEPARATOR_CELL.match(c) for c in cells)


def spanning_label(row: list[str]) -> str | None:
    """The text of a row that spans the table (merged cells): one filled cell, or every
    filled cell the same text ("| Access Control | | |", "| Access Control | Access Control |");
    None for an ordinary row."""
    cells = [c.strip() for c in row if c.strip()]
    if cells and len(set(cells)) == 1 and (len(cells) == 1 or len(cells) == len(row)):
        return cells[0] if len(row) > 1 else None
    return None


def cells_repeat_header(row: list[str], header: list[str]) -> bool:
    """The row repeats the header (a table continued on the next page)."""
    return [c.lower() for c in row] == [c.lower() for c in header]


def column_roles(header: list[str], data: list[list[str]]) -> ColumnRoles:
    """Which columns hold the ask, label, response, groups and row header, read from the header
    names and how the data cells look (ids, average words)."""
    width = len(header)
    names = [h.strip().rstrip(":").strip() for h in header]

    def filled(j: int) -> list[str]:
        return [r[j].strip() for r in data if j < len(r) and r[j].strip()]

    def avg_words(j: int) -> float:
        cells = filled(j)
        return sum(len(c.split()) for c in cells) / len(cells) if cells else 0.0

    response = next(
        (
            j
            for j in range(width)
            if _RESPONSE_HEADER.search(names[j]) and not _NOT_RESPONSE_HEADER.search(names[j])
        ),
        None,
    )
    groups = [j for j in range(width) if _GROUP_HEADER.match(names[j])]
    if groups:
        others = [
            j
            for j in range(width)
            if j not in groups and j != response and _QUESTION_HEADER.search(names[j])
        ]
        if not others:
            # the only ask-like column is a topic-named one ("Control" with a response
            # column): it is the ask, not a grouping
            groups = [j for j in groups if not _QUESTION_HEADER.search(names[j])]
    label = None
    for j in range(width):
        if j == response or j in groups:
            continue
        cells = filled(j)
        id_like = cells and sum(1 for c in cells if _ID_CELL.match(c)) >= 0.8 * len(cells)
        if _LABEL_HEADER.match(names[j]) and (id_like or not cells or avg_words(j) <= 1.5):
            label = j
            break
        if id_like and avg_words(j) <= 1.5 and j <= 1:
            label = j
            break
    free = [j for j in range(width) if j not in (response, label) and j not in groups]
    named = [j for j in free if _QUESTION_HEADER.search(names[j]) and filled(j)]
    question: int | None = None
    if named:
        question = max(named, key=avg_words)
    elif free:
        best = max(free, key=avg_words)
        if avg_words(best) >= 3:
            question = best
    row_header = None
    if question is not None and question > 0:
        first = next((j for j in range(question) if j not in (label, response)), None)
        if first is not None and first not in groups and 0 < avg_words(first) <= 8:
            row_header = first
    return ColumnRoles(question, label, response, groups, row_header)
