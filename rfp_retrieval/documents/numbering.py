"""Section numbering: the table of numbering schemes RFPs use, their depths and sequence values.

One table (``NUMBERING_SCHEMES``) serves every reader of section numbers: the outline's heading
detection (``headings``, ``plain_headings``) and the question finder (``questions``), which
keys cross-references with ``normalise_number``. Depth rules: ``3`` -> 1, ``3.4.7`` -> 3, ``1.0``
-> 1, ``C.3.2`` -> 3 with the UCF letter as level 1, ``Sec. 1.04`` -> 2, ``IV.B.2`` -> 3.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_WORD_NUMBERS = {
    "ONE": 1,
    "TWO": 2,
    "THREE": 3,
    "FOUR": 4,
    "FIVE": 5,
    "SIX": 6,
    "SEVEN": 7,
    "EIGHT": 8,
    "NINE": 9,
    "TEN": 10,
    "ELEVEN": 11,
    "TWELVE": 12,
}
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50}


def roman_value(text: str) -> int | None:
    """Integer value of a roman numeral made of I, V, X, L (``"XIV"`` -> 14); None otherwise."""
    text = text.upper()
    if not text or any(c not in _ROMAN for c in text):
        return None
    total = 0
    for i, c in enumerate(text):
        v = _ROMAN[c]
        if i + 1 < len(text) and _ROMAN[text[i + 1]] > v:
            total -= v
        else:
            total += v
    return total


def _decimal_depth(label: str) -> int:
    parts = [p for p in label.rstrip(".").split(".") if p]
    if len(parts) >= 2 and all(p == "0" for p in parts[1:]):
        return 1  # "1.0" and "1.0.0" are the top level
    return len(parts)


def _ucf_depth(label: str) -> int:
    """``C.3.2`` -> 3; ``B1.`` -> 2 (the letter is level 1 even without its dot)."""
    if re.match(r"^[A-M]\d", label):
        return 1 + dotted_depth(label[1:])
    return dotted_depth(label)


def dotted_depth(label: str) -> int:
    """Number of dotted parts of a label: ``3.4.7`` -> 3, ``IV.B.2.`` -> 3."""
    return len([p for p in label.rstrip(".").split(".") if p])


QUESTION_LABEL = r"(?:Question|QUESTION)\s+(?P<id>\d{1,3})\s*[.:)]|Q(?P<qid>\d{1,3})[:.](?=\s)"
"""``Question 12.`` / ``Q1:`` / ``Q3.`` (groups ``id``, ``qid``): the outline's ``question`` scheme
and the question finder's leading-label rule (``ask_patterns.LEADING_LABEL``)."""


@dataclass(frozen=True)
class NumberingScheme:
    """One way RFPs number their sections.

    ``pattern`` matches the label at the start of a line (named group ``label``, optional group
    ``id`` for the value used in sequence checks); ``family`` groups schemes that share the
    top level (``decimal``, ``ucf``, ``roman``); ``relative`` schemes nest one level below the
    enclosing section instead of taking a level from their depth; ``markdown_plain`` says whether
    a plain (non-heading, non-bold) Markdown paragraph may open with it; ``plain`` whether a PDF or
    text line may.
    """

    name: str
    pattern: re.Pattern[str]
    family: str
    depth: Callable[[str], int]
    relative: bool = False
    markdown_plain: bool = True
    plain: bool = True
    needs_sequence: bool = False


# One table for every numbering pattern (first match wins). Examples are from the real and
# synthetic RFPs under ../shared/data.
NUMBERING_SCHEMES: tuple[NumberingScheme, ...] = (
    # Question 12.  /  Q1:  /  Q3.   (Treasury DCDIS RFQ, Tax Court amendment Q&A)
    NumberingScheme(
        "question",
        re.compile(r"(?P<label>" + QUESTION_LABEL + ")"),
        "question",
        lambda label: 1,
        relative=True,
    ),
    # Factor 2 / Subfactor 1 / SUB-FACTOR 3.1  (evaluation factors in Section M; a heading
    # only with a title, see ``headings``/``plain_headings``)
    NumberingScheme(
        "factor",
        re.compile(
            r"(?P<label>(?:[Ss]ub-?[Ff]actor|SUB-?FACTOR|[Ff]actor|FACTOR)\s+"
            r"(?P<id>\d{1,2})(?:\.\d{1,2})?)(?=\s*[:.\-\u2013\u2014]?\s)"
        ),
        "factor",
        lambda label: 1,
        relative=True,
    ),
    # Tab B – Technical Approach / TAB 3: Past Performance  (the response tabs of an RFQ's
    # instructions, nested below the section that lists them; a heading only with a title)
    NumberingScheme(
        "tab",
        re.compile(
            r"(?P<label>(?:TAB|Tab)\s+(?P<id>[A-Z]|\d{1,2}))(?=\s*[:.\-\u2013\u2014]\s*[A-Z])"
        ),
        "tab",
        lambda label: 1,
        relative=True,
    ),
    # SECTION ONE / Section L / Section IV / Section 2.  (Hawaii HTDC, DLA, Alaska)
    NumberingScheme(
        "section-word",
        re.compile(
            r"(?P<label>(?:SECTION|Section)\s+(?P<id>"
            + "|".join(_WORD_NUMBERS)
            + r"|[IVX]{1,5}|[A-M]|\d{1,2})\.?)(?=[\s:\-\u2013\u2014]|$)"
        ),
        "section",
        lambda label: 1,
        needs_sequence=True,
    ),
    # C – Statement of Objectives  (a bare UCF section letter; plain text only, and only when
    # the next lines open that section's numbering: "C.1 INTRODUCTION")
    NumberingScheme(
        "ucf-letter",
        re.compile(r"(?P<label>(?P<id>[A-M]))\s*[.\-\u2013\u2014](?=\s+[A-Z])"),
        "ucf",
        lambda label: 1,
        markdown_plain=False,
        plain=False,
    ),
    # ADDENDUM L  (DISA EBM draft RFP uses addenda for the UCF sections)
    NumberingScheme(
        "addendum",
        re.compile(r"(?P<label>(?:ADDENDUM|Addendum)\s+(?P<id>[A-M]))(?=[\s:\-\u2013\u2014.]|$)"),
        "ucf",
        lambda label: 1,
    ),
    # Appendix A / ATTACHMENT 3 / Exhibit B-1
    NumberingScheme(
        "appendix",
        re.compile(
            r"(?P<label>(?:APPENDIX|Appendix|ATTACHMENT|Attachment|EXHIBIT|Exhibit)\s+"
            r"(?:[-\u2013\u2014]\s+)?"  # "ATTACHMENT - E": a dash typed between label and letter
            r"(?P<id>[A-Z]{1,2}(?:-\d{1,2})?|\d{1,2}))(?=\s*[:\-\u2013\u2014.]\s|\s*$|\s+[A-Z])"
        ),
        "appendix",
        lambda label: 1,
    ),
    # Sec. 1.04 / Sec 6.01  (State of Alaska RFPs; the dot after "Sec" is sometimes left out)
    NumberingScheme(
        "sec",
        re.compile(r"(?P<label>Sec(?:\.\s*|\s+)(?P<id>\d{1,2}(?:\.\d{1,3}){1,3}))(?=\s|$)"),
        "decimal",
        lambda label: dotted_depth(sec_digits(label)),
    ),
    # C.3.2 / L.4.2.1 / M.4 / A.1.1. / B1.  (Uniform Contract Format: section letter, then
    # numbers; the GSA FPDS-NG RFP writes "B1. Contract Type" without the first dot)
    NumberingScheme(
        "ucf",
        re.compile(
            r"(?P<label>(?P<id>[A-M])(?:\.\d{1,3}(?:\.\d{1,3}){0,4}\.?(?=\s|$|[\u2013\u2014])"
            r"|\d{1,2}(?:\.\d{1,3}){0,3}\.(?=\s+[A-Z])))"
        ),
        "ucf",
        _ucf_depth,
    ),
    # IV.B.2 / I.A / IV.  (roman section, capital letter, then numbers)
    NumberingScheme(
        "roman",
        re.compile(r"(?P<label>(?P<id>[IVX]{1,5})(?:\.[A-Z](?:\.\d{1,3}){0,3})?\.?)(?=\s|$)"),
        "roman",
        dotted_depth,
        needs_sequence=True,
    ),
    # 3 / 3. / 1.0 / 3.4.7 / 9.2.3.
    NumberingScheme(
        "decimal",
        re.compile(r"(?P<label>(?P<id>\d{1,3})(?:\.\d{1,3}){0,5}\.?)(?=\s|$|[\u2013\u2014])"),
        "decimal",
        _decimal_depth,
        needs_sequence=True,
    ),
    # (a) / (iv) / (2)  -- only as Markdown headings
    NumberingScheme(
        "paren",
        re.compile(r"(?P<label>\((?P<id>[a-z]|[ivx]{1,4}|\d{1,2})\))(?=\s|$)"),
        "list",
        lambda label: 1,
        relative=True,
        markdown_plain=False,
        plain=False,
    ),
    # a. / B.  -- only as Markdown headings
    NumberingScheme(
        "letter",
        re.compile(r"(?P<label>(?P<id>[A-Za-z])\.)(?=\s|$)"),
        "list",
        lambda label: 1,
        relative=True,
        markdown_plain=False,
        plain=False,
    ),
)


CLAUSE_NUMBER = re.compile(r"(?<![\d.])(?:\d{1,2})?52\.2\d\d-\d{1,4}\b")
"""A FAR clause or provision number (``52.212-4``) or an agency supplement's (DFARS
``252.204-7012``, VAAR ``852.216-70``, GSAR ``552.232-1``, NFS ``1852.215-84``, HSAR
``3052.204-70``): the regulation's own numbering of Part 52 clauses. A section whose title opens
with one ("B.1 52.212-4 CONTRACT TERMS AND CONDITIONS") is a clause heading
(``plain_headings``), and clause text for the question finder (``section_kinds``)."""


LIST_ITEM_LABEL = r"(?:\d{1,2}\.|[a-z]\.|[ivx]{1,5}\.|\((?:[a-z]|[ivx]{1,5}|\d{1,2})\))"
"""A single-level list label (``1.``, ``a.``, ``iv.``, ``(b)``, ``(2)``): Markdown list items,
which number sub-sections only when an emphasised run-in title follows
(``headings.runin_list_heading``)."""

LIST_ITEM_SCHEME = NumberingScheme(
    "list-item",
    re.compile(rf"(?P<label>{LIST_ITEM_LABEL})(?=\s)"),
    "list",
    lambda label: 1,
    relative=True,
    markdown_plain=False,
    plain=False,
)
"""The scheme of a list item with a run-in title: nested by its label's family
(``list_family``) under the enclosing section, never read by ``match_number``."""


def list_family(label: str, previous_letter: str | None = None) -> str:
    """The counting family of a list label: ``decimal`` (``1.``), ``letter`` (``a.``),
    ``roman`` (``iv.``), each with ``paren-`` for ``(a)``. ``i``, ``v`` and ``x`` are letters
    when ``previous_letter`` (the open letter item's label) is the letter before them (``h.``
    then ``i.``), else roman."""
    core = label.strip().strip("().").lower()
    prefix = "paren-" if label.strip().startswith("(") else ""
    if core.isdigit():
        return prefix + "decimal"
    if re.fullmatch(r"[ivx]+", core):
        prev = (previous_letter or "").strip().strip("().").lower()
        if len(core) == 1 and len(prev) == 1 and ord(core) == ord(prev) + 1:
            return prefix + "letter"
        return prefix + "roman"
    return prefix + "letter"


def match_number(text: str, mode: str, where: str) -> tuple[NumberingScheme, re.Match[str]] | None:
    """The numbering scheme whose label opens ``text`` (``where``: atx | bold | plain)."""
    for scheme in NUMBERING_SCHEMES:
        if scheme.name == "ucf-letter":
            continue  # only read in context, see _ucf_letter
        if where == "plain" and mode == "markdown" and not scheme.markdown_plain:
            continue
        if where == "plain" and mode == "plain" and not scheme.plain:
            continue
        m = scheme.pattern.match(text)
        if not m:
            continue
        if scheme.name in ("decimal", "roman") and where == "plain" and mode == "markdown":
            if dotted_depth(m.group("label")) < 2:
                continue  # "1. item" / "VI. item" is a Markdown list item
        label = m.group("label")
        if scheme.name == "decimal" and "." not in label and int(m.group("id")) > 50:
            continue  # "311 Contact Center": a bare number this large names, it does not number
        if scheme.name == "letter" and where == "bold":
            continue
        return scheme, m
    return None


def sequence_value(scheme: NumberingScheme, m: re.Match[str]) -> int | None:
    """The value a label counts by in sequence checks (``3`` -> 3, ``SECTION TWO`` -> 2, ``IV`` ->
    4); None for letters and labels without an ``id``."""
    ident = m.groupdict().get("id")
    if ident is None:
        return None
    if ident.isdigit():
        return int(ident)
    if ident.upper() in _WORD_NUMBERS:
        return _WORD_NUMBERS[ident.upper()]
    value = roman_value(ident)
    if value is not None and scheme.name in ("roman", "section-word") and len(ident) > 0:
        if scheme.name == "section-word" and len(ident) == 1 and ident not in "IVX":
            return None
        return value
    return None


_OUTLINE_PREFIX = re.compile(r"^(SECTION|SEC\.|SEC(?=\s+\d))\s*")
_REFERENCE_PREFIX = re.compile(r"^(?:SECTION|SEC\.|SEC(?=\s+\d)|ADDENDUM|PARAGRAPH|PARA\.)\s*")


def sec_digits(label: str) -> str:
    """The dotted number of a ``Sec.`` label: ``Sec. 1.04`` and ``Sec 6.01`` -> ``1.04``,
    ``6.01``; another label unchanged."""
    return re.sub(r"^Sec(?:\.\s*|\s+)", "", label.strip())


def normalise_number(number: str, reference: bool = False) -> str:
    """A section number as a comparison key: ``"Section 2.0."`` -> ``"2"``, ``"c.3"`` -> ``"C.3"``.

    Upper case, whitespace collapsed, a trailing ``.`` / ``:`` and a leading ``Section`` /
    ``Sec.`` (or ``Sec`` before a number) dropped, and ``N.0`` read as ``N``.
    ``reference=True`` is the cross-reference reading (the question finder): ``Addendum``,
    ``Paragraph`` and ``Para.`` are dropped too, so ``Addendum L`` and ``Paragraph 3.1`` find
    sections ``ADDENDUM L`` and ``3.1``. The outline's own reading keeps ``ADDENDUM L`` apart
    from ``Section L``: a table-of-contents copy repeats a label exactly as written.
    """
    n = number.strip().rstrip(".:").upper()
    n = re.sub(r"\s+", " ", n)
    n = (_REFERENCE_PREFIX if reference else _OUTLINE_PREFIX).sub("", n)
    if re.fullmatch(r"\d+\.0", n):
        n = n[:-2]
    return n


__all__ = [
    "LIST_ITEM_LABEL",
    "LIST_ITEM_SCHEME",
    "NUMBERING_SCHEMES",
    "list_family",
    "QUESTION_LABEL",
    "NumberingScheme",
    "dotted_depth",
    "match_number",
    "normalise_number",
    "roman_value",
    "sec_digits",
    "sequence_value",
]
