"""Page texts (PDF, or text with form feeds) as one list of clean lines: bare page numbers and
running headers and footers removed, letter-spaced capitals and line-end hyphenation repaired
(``modern-`` / ``ization`` -> ``modernization``, while ``firm-`` / ``fixed-price`` stays
``firm-fixed-price``)."""

from __future__ import annotations

import math
import re
from collections import Counter

from rfp_retrieval.documents.ask_patterns import BULLET
from rfp_retrieval.documents.layout import LineStyle
from rfp_retrieval.documents.numbering import match_number
from rfp_retrieval.documents.text import normalise_line
from rfp_retrieval.quantities.dates import find_dates

_PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$|^[-\u2013]\s*\d{1,4}\s*[-\u2013]$|"
    r"^\d{1,4}\s*\|\s*page$|^page\s+\d{1,4}\s+of\s+\d{1,4}.*$",
    re.I,
)


_PRINT_STAMP = re.compile(
    r"^\d{1,2}/\d{1,2}/\d{2,4},?\s+\d{1,2}:\d{2}(?:\s*[AP]M)?(?:\s|$)"  # 12/3/26, 9:36 AM Title
    r"|^(?:file|https?)://\S+(?:\s+\d{1,4}\s*/\s*\d{1,4})?$",  # file:///.../rfq.html 1/2
    re.I,
)
"""A browser's print header or footer (the date-time stamp and page title, the page URL and
"1/2"): furniture of a web page printed to PDF, read on the first or last line of a page
(never the title of the document, even on a one-page print)."""


# The only numbers masked when lines are compared across pages: running headers and footers
# repeat verbatim except for their page numbers and dates. Every other digit is compared as
# written, so "3. Requirement Area 3" on one page and "4. Requirement Area 4" on the next are
# different lines, not a running header (issue 16.6).
_PAGE_TOKEN = re.compile(
    r"\bp\s?age\s*(?:[a-z]-?)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?\b"  # Page 3 (of 10) / Page C-3
    r"|\b\d{1,4}\s*\|\s*p\s?age\b"  # 3 | Page
    r"|\b\d{1,4}\s*(?:of|/)\s*\d{1,4}\b"  # 3 of 10 / 3/10
    r"|\bpg\.?\s*\d{1,4}\b"  # pg. 3
    r"|^[-\u2013]\s*\d{1,4}\s*[-\u2013]$",  # - 3 -
    re.I,
)
# A folio: a bare page number (arabic or lower-case roman) opening or closing a footer line
# beside its running title ("5 RFP-26-001-HTDC"). Read only in the bottom lines of a page: at
# the top, "3 Requirement Area" is a numbered heading.
_FOLIO = re.compile(r"^(?:\d{1,4}|[ivxl]{1,6})(?=\s)|(?<=\s)(?:\d{1,4}|[ivxl]{1,6})$")


def furniture_key(line: str, edge: str) -> str:
    """The form of ``line`` compared across pages to find running headers and footers.

    Lower case with whitespace collapsed, dates (``quantities.dates.find_dates``) and page-number
    tokens (``Page 3 of 10``, ``3 | Page``, ``- 3 -``) masked as ``<date>`` and ``<page>``; at
    the ``"bottom"`` edge a bare folio number opening or closing the line is masked too. Every
    other digit is kept: a numbered heading or question whose number differs from page to page
    never matches another page's (issue 16.6). ``edge`` is ``"top"`` or ``"bottom"``.
    """
    text = re.sub(r"\s+", " ", line.strip().lower())
    for start, end, _ in reversed(find_dates(text)):
        text = text[:start] + "<date>" + text[end:]
    text = _PAGE_TOKEN.sub("<page>", text)
    if edge == "bottom":
        text = _FOLIO.sub("<page>", text)
    return text


def _continues(before: str, after: str) -> bool:
    """Whether the sentence of line ``before`` goes on in line ``after``: ``after`` opens in
    lower case, or ``before`` ends without closing punctuation and ``after`` opens with no
    section number or bullet (a new numbered or bulleted line starts a block of its own)."""
    if not before or not after:
        return False
    if after[:1].islower():
        return True
    if before[-1] in ".:;?!":
        return False
    head = after.split(maxsplit=1)[0]
    return not BULLET.match(head) and match_number(after, "plain", "plain") is None


def _drop_invisible_lines(
    pages: list[list[str]], styles: list[list[LineStyle | None]]
) -> tuple[list[list[str]], list[list[LineStyle | None]]]:
    """``pages`` (and their parallel ``styles``) without the lines that hold only invisible
    characters (``\u200b \u200b``: PDF text layers put them around bold or underlined words)
    inside a sentence. Once cleaned such a line is blank, and a blank line ends a paragraph:
    the sentence around it was cut in two ("no more than four (4)" / "pages, ..."). Rule: the
    line is dropped when the sentence goes on across it (``_continues``); before a numbered
    heading ("2.0 Scope"), a bullet, or after a closed sentence it stays a paragraph break,
    as the layout meant. A line blank as written always stays."""
    kept_pages, kept_styles = [], []
    for page, pstyles in zip(pages, styles, strict=True):
        visible = [normalise_line(line).strip() for line in page]
        keep = []
        for i, line in enumerate(page):
            if line.strip() and not visible[i]:
                before = next((v for v in reversed(visible[:i]) if v), "")
                after = next((v for v in visible[i + 1 :] if v), "")
                if _continues(before, after):
                    continue
            keep.append(i)
        kept_pages.append([page[i] for i in keep])
        kept_styles.append([pstyles[i] if i < len(pstyles) else None for i in keep])
    return kept_pages, kept_styles


def clean_pages(
    pages: list[list[str]], styles: list[list[LineStyle | None]] | None = None
) -> tuple[list[str], list[int], list[str], list[LineStyle | None]]:
    """Clean page texts into one list of lines with the page and style of each line.

    Removes bare page numbers at the top or bottom of a page, and running headers and footers:
    a line among the first three (last three) lines of at least half the pages, three pages or
    more, that repeats there as written except for page numbers and dates (``furniture_key``).
    Repairs words split by letter spacing (``S EALED``) and line-end hyphenation. ``styles``
    (PDF only) runs parallel to ``pages``. Returns (lines, page_of_line, removed header/footer
    lines, style_of_line).
    """
    page_styles = styles or [[None] * len(page) for page in pages]
    pages, page_styles = _drop_invisible_lines(pages, page_styles)
    normalised = [[normalise_line(line) for line in page] for page in pages]
    edge_lines = [_edge_lines(page) for page in normalised]
    repeated: dict[str, set[str]] = {"top": set(), "bottom": set()}
    if len(normalised) >= 3:
        threshold = max(3, math.ceil(0.5 * len(normalised)))
        for edge in repeated:
            counts: Counter[str] = Counter()
            for page, edges in zip(normalised, edge_lines, strict=True):
                counts.update({furniture_key(page[i], edge) for i in edges[edge]})
            repeated[edge] = {
                k for k, c in counts.items() if c >= threshold and k.strip("0123456789 ")
            }
    removed: list[str] = []
    items: list[tuple[str, int, LineStyle | None]] = []
    for number, (page, pstyles, edges) in enumerate(
        zip(normalised, page_styles, edge_lines, strict=True), start=1
    ):
        first_last = edges["top"][:1] + edges["bottom"][-1:]
        for i, line in enumerate(page):
            if i in first_last and _PAGE_NUMBER.match(line.strip()):
                continue
            if i in first_last and _PRINT_STAMP.match(line.strip()):
                removed.append(line)
                continue
            if any(i in edges[e] and furniture_key(line, e) in repeated[e] for e in repeated):
                removed.append(line)
                continue
            items.append((line, number, pstyles[i] if i < len(pstyles) else None))
    items = _repair_split_words(items)
    items = _repair_hyphenation(items)
    lines: list[str] = []
    page_of_line: list[int] = []
    style_of_line: list[LineStyle | None] = []
    for line, number, style in items:
        if not line.strip():
            if lines and lines[-1] == "":
                continue
            line, style = "", None
        lines.append(line)
        page_of_line.append(number)
        style_of_line.append(style)
    while lines and lines[-1] == "":
        lines.pop()
        page_of_line.pop()
        style_of_line.pop()
    while lines and lines[0] == "":
        lines.pop(0)
        page_of_line.pop(0)
        style_of_line.pop(0)
    return lines, page_of_line, removed, style_of_line


def _edge_lines(page: list[str]) -> dict[str, list[int]]:
    """Indexes of the first three and last three non-blank lines of a page."""
    content = [i for i, line in enumerate(page) if line.strip()]
    return {"top": content[:3], "bottom": content[-3:]}


_SPLIT_CAPS = re.compile(r"\b([A-Z]) ([A-Z]{2,})\b")


def _repair_split_words(
    items: list[tuple[str, int, LineStyle | None]],
) -> list[tuple[str, int, LineStyle | None]]:
    """Join capitals split by PDF letter spacing: ``S EALED`` -> ``SEALED``.

    A single capital followed by a capitalised run is joined when the joined word occurs
    elsewhere in the document (any case) and the run alone does not (``A VENDOR`` stays).
    """
    vocabulary: set[str] = set()
    for line, _, _ in items:  # words seen whole, outside the split pairs themselves
        vocabulary.update(w.lower() for w in _WORD.findall(_SPLIT_CAPS.sub(" ", line)))

    def join(m: re.Match[str]) -> str:
        head, tail = m.group(1), m.group(2)
        if (head + tail).lower() in vocabulary and tail.lower() not in vocabulary:
            return head + tail
        return m.group(0)

    out = []
    for line, page, style in items:
        if _SPLIT_CAPS.search(line):
            line = _SPLIT_CAPS.sub(join, line)
        out.append((line, page, style))
    return out


# Parts that make a real hyphenated compound when split at a line end.
_COMPOUND_FIRST = frozenset(
    "self non co cross multi well high low long short full part real third first second end "
    "open web cloud user mission time cost risk data firm fixed sub pre post anti ex e x near "
    "off on out over under up down all case follow hands state top small large in".split()
)
_COMPOUND_SECOND = frozenset(
    "based level term party price time owned wide specific related driven facing only free "
    "making friendly grade like up down out in on off over making led centric ready focused "
    "oriented critical intensive scale sized wise enabled compliant".split()
)
_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")


def _repair_hyphenation(items: list[tuple]) -> list[tuple]:
    """Join words split by a hyphen at a line end, keeping real compounds hyphenated.

    A split ``A-`` / ``B`` becomes ``AB`` when ``AB`` occurs elsewhere in the document or no
    compound evidence exists, and stays ``A-B`` when ``A-B`` occurs elsewhere, when ``B`` is
    itself hyphenated (``firm-`` / ``fixed-price``), when either part is a common compound part
    (``self-``, ``-based``, ``-level``...), or when ``B`` starts with a digit or capital (``J-`` /
    ``3``).
    """
    vocabulary: Counter[str] = Counter()
    for line, *_ in items:
        for w in _WORD.findall(line):
            vocabulary[w.lower()] += 1
    out = list(items)
    for i in range(len(out) - 1):
        line, *rest_i = out[i]
        m = re.search(r"(?:^|(?<=[\s(\"“/]))([A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)-$", line)
        if not m or line.endswith("--"):
            continue
        j = i + 1
        while j < len(out) and not out[j][0].strip():
            j += 1
        if j >= len(out) or j != i + 1:
            continue
        nxt, *rest_j = out[j]
        lead = re.match(r"^(\s*)(\S+)(.*)$", nxt)
        if not lead:
            continue
        token = lead.group(2)
        head = re.match(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*", token)
        if not head:
            continue
        first, second = m.group(1), head.group(0)
        keep = _keep_hyphen(first, second, vocabulary)
        joined = first + ("-" if keep else "") + token
        out[i] = (line[: m.start(1)] + joined, *rest_i)
        out[j] = (lead.group(3).lstrip(), *rest_j)
    return out


def _keep_hyphen(first: str, second: str, vocabulary: Counter[str]) -> bool:
    if not first[-1:].isalpha() or not second[:1].isalpha() or second[:1].isupper():
        return True
    if "-" in second or "-" in first:
        return True
    f, s = first.lower(), second.lower()
    if vocabulary.get(f"{f}-{s}", 0) > 0:
        return True
    if vocabulary.get(f + s, 0) > 0:
        return False
    if len(f) <= 1:
        return True
    return f in _COMPOUND_FIRST or s in _COMPOUND_SECOND
