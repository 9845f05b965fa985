"""The RFP outline: numbered and unnumbered sections found in the clean text, as a tree.

Two reading modes share one numbering table (``NUMBERING_SCHEMES``):

- ``markdown`` (Markdown files and DOCX, which extraction renders as Markdown): ATX headings
  (``## 2.1 Scope``), bold paragraph headings (``**1. General.** Please submit...``) and plain
  paragraphs that open with a multi-part label (``3.1.4 Describe...``, ``L.5.1 Provide...``,
  ``IV.A.1 ...``, ``Question 12. ...``). A single ``1.`` at the start of a plain line is a Markdown
  ordered-list item, never a heading.
- ``plain`` (PDF and text): numbered lines, ``SECTION ONE`` / ``ADDENDUM L`` lines, plus two
  unnumbered forms: a Title-Case label alone on its line ending with a colon (``Background:``)
  and a short ALL-CAPS line (``STATEMENT OF WORK``). Because plain text has no markup, numbered
  candidates are checked against their context: a table of contents is skipped, single-level
  numbers must run in sequence (a ``1.`` list restarting inside a section is a list), and the
  numbering family that opens the document's top level (decimal, UCF letter or roman) keeps it.

Level comes from the numbering depth (``3`` -> 1, ``3.4.7`` -> 3, ``1.0`` -> 1, ``C.3.2`` -> 3 with
the UCF letter as level 1, ``Sec. 1.04`` -> 2, ``IV.B.2`` -> 3). Schemes marked ``relative``
(``Question 12.``, ``(a)``, ``a.``, unnumbered plain headings) sit one level below the section
they appear in. An unnumbered Markdown heading takes its level from its ``#`` count; when the
document opens with an unnumbered H1 that H1 is the document title, a level-0 root that every
other top-level section hangs from (the section paths of ``answers_qrels_dev.jsonl`` start with
it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rfp_retrieval.documents.layout import LineStyle, body_size
from rfp_retrieval.documents.records import Section
from rfp_retrieval.documents.text import strip_inline_markdown

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
        return 1 + _dotted_depth(label[1:])
    return _dotted_depth(label)


def _dotted_depth(label: str) -> int:
    return len([p for p in label.rstrip(".").split(".") if p])


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
        re.compile(
            r"(?P<label>(?:Question|QUESTION)\s+(?P<id>\d{1,3})\s*[.:)]"
            r"|Q(?P<qid>\d{1,3})[:.](?=\s))"
        ),
        "question",
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
            r"(?P<id>[A-Z]{1,2}(?:-\d{1,2})?|\d{1,2}))(?=\s*[:\-\u2013\u2014.]\s|\s*$|\s+[A-Z])"
        ),
        "appendix",
        lambda label: 1,
    ),
    # Sec. 1.04  (State of Alaska RFPs)
    NumberingScheme(
        "sec",
        re.compile(r"(?P<label>Sec\.\s*(?P<id>\d{1,2}(?:\.\d{1,3}){1,3}))(?=\s|$)"),
        "decimal",
        lambda label: _dotted_depth(label.split(None, 1)[-1].replace("Sec.", "")),
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
        _dotted_depth,
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


@dataclass
class _Candidate:
    line: int  # 0-based index into lines
    number: str | None
    scheme: NumberingScheme | None
    heading: str
    rest: str  # text after the heading on the same line (body start)
    kind: str  # "heading" | "paragraph"
    source: str  # "atx" | "bold" | "plain" | "label" | "caps"
    hashes: int = 0
    seq_value: int | None = None
    extra: int = 0  # following lines consumed as part of the heading
    sep: str = " "  # what stands between number and heading as written (" — ", ": ")

    @property
    def relative(self) -> bool:
        return self.scheme is None or self.scheme.relative

    @property
    def family(self) -> str:
        return self.scheme.family if self.scheme else "unnumbered"

    def depth(self) -> int:
        if self.scheme is None or self.number is None:
            return 1
        if self.scheme.name == "sec":
            return _dotted_depth(self.number.replace("Sec.", "").strip())
        if self.scheme.name in ("section-word", "addendum", "appendix"):
            return 1
        return self.scheme.depth(self.number)


_MODAL = re.compile(
    r"\b(shall|must|will|should|may|is|are|was|were|has|have|provides?|includes?|describes?)\b",
    re.I,
)
_SENTENCE_START = re.compile(
    r"^(Describe|Provide|Identify|Explain|Submit|List|State|Discuss|Demonstrate|Indicate|"
    r"Confirm|Specify|Outline|Include|Give|Detail|What|How|Why|Where|When|Who|Which|Is|Are|"
    r"Does|Do|Can|Could|Will|Would|Should|Has|Have|Please|The|This|These|Each|All|Any|An?|"
    r"If|In|For|Offerors?|Contractors?|Quoters?|Vendors?|Respondents?|References?)\b"
)
_TRAILING_FUNCTION_WORD = re.compile(
    r"\b(and|or|the|of|to|for|a|an|in|on|with|by|as|at|from|that|is|are|be|which)$", re.I
)


def _is_title(text: str, max_words: int = 14) -> bool:
    """True when ``text`` reads like a heading, not like running prose."""
    text = text.strip().rstrip(":").strip()
    if not text or len(text) > 120:
        return False
    if not re.match(r"[A-Z0-9\"'“(]", text):
        return False
    words = text.split()
    if len(words) > max_words:
        return False
    if text.endswith((",", ";", "-", "\u2013", "\u2014")) or _TRAILING_FUNCTION_WORD.search(text):
        return False
    if text.endswith(("?",)):
        return False
    if text.endswith(".") and (len(words) > 6 or _MODAL.search(text)):
        return False
    letters = sum(c.isalpha() for c in text)
    return letters >= 2


def _split_title(rest: str) -> tuple[str, str, str]:
    """Split what follows a section number into (heading, body start, kind)."""
    rest = rest.strip()
    bold = re.match(r"^\*\*(?P<t>[^*]+?)\*\*\s*(?P<b>.*)$", rest)
    if bold:
        title = strip_inline_markdown(bold.group("t")).strip().rstrip(".:").strip()
        body = bold.group("b").lstrip(".:").strip()
        if title:
            return title, body, "heading"
    plain = strip_inline_markdown(rest)
    if not plain:
        return "", "", "heading"
    colon = re.match(r"^(?P<t>[^.:?!]{1,80}?)\s*:\s+(?P<b>\S.*)$", plain)
    if colon and _is_title(colon.group("t"), 8) and not _MODAL.search(colon.group("t")):
        return colon.group("t").strip(), colon.group("b").strip(), "heading"
    period = re.match(r"^(?P<t>[A-Z][^.?!:]{0,60}?)\.\s+(?P<b>[A-Z(\"“].*)$", plain)
    if (
        period
        and len(period.group("t").split()) <= 6
        and not _MODAL.search(period.group("t"))
        and not _SENTENCE_START.match(period.group("t"))
    ):
        return period.group("t").strip(), period.group("b").strip(), "heading"
    if _is_title(plain) and not _SENTENCE_START.match(plain) and not _MODAL.search(plain):
        return plain.rstrip(".:").strip(), "", "heading"
    if _is_title(plain, 8) and not plain.endswith((".", "?")) and not _MODAL.search(plain):
        return plain.rstrip(":").strip(), "", "heading"
    return "", plain, "paragraph"


def _separator(after_label: str) -> str:
    """The separator between a section number and its heading, as written, normalised.

    ``" — "`` / ``" – "`` / ``" - "`` for a dash, ``": "`` for a colon, else a space.
    """
    m = re.match(r"^\s*([:\-\u2013\u2014])\s*", after_label)
    if not m:
        return " "
    return ": " if m.group(1) == ":" else f" {m.group(1)} "


def _match_number(text: str, mode: str, where: str) -> tuple[NumberingScheme, re.Match[str]] | None:
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
            if _dotted_depth(m.group("label")) < 2:
                continue  # "1. item" / "VI. item" is a Markdown list item
        label = m.group("label")
        if scheme.name == "decimal" and "." not in label and int(m.group("id")) > 50:
            continue  # "311 Contact Center": a bare number this large names, it does not number
        if scheme.name == "letter" and where == "bold":
            continue
        return scheme, m
    return None


def _sequence_value(scheme: NumberingScheme, m: re.Match[str]) -> int | None:
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


_ATX = re.compile(r"^\s{0,3}(?P<hashes>#{1,6})\s+(?P<text>.*?)\s*#*\s*$")


def is_atx_heading(line: str) -> bool:
    """Whether ``line`` is a Markdown ATX heading with text ("## 2. Scope of Work")."""
    m = _ATX.match(line)
    return bool(m and m.group("text"))


_BOLD_ONLY = re.compile(r"^\s*\*\*[^*]+\*\*\s*:?\s*$")
_BOLD_LEAD = re.compile(r"^\s*(?:>\s*)?\*\*(?P<inner>[^*]{1,200}?)\*\*(?P<after>.*)$")
_LABEL_HEADING = re.compile(r"^(?P<t>[A-Z][A-Za-z0-9&/(),'’\- ]{1,70}?)\s*:$")
_CAPS_HEADING = re.compile(r"^[A-Z][A-Z0-9&/,()'’\- \u2013\u2014]{2,80}$")
_DOT_LEADER = re.compile(r"(\.\s?){4,}\s*\d{1,3}\s*$|\s\.{2,}\s*\d{1,3}$")
_WRAP_TAIL = re.compile(
    r"\b(paragraph|paragraphs|section|sections|sec\.|para|and|or|in|of|see|to|under|per|"
    r"through|clause|item|items|subsection|attachment|appendix)$",
    re.I,
)
DATE_ONLY = re.compile(
    r"(?:[A-Z][a-z]+day,?\s+)?(?:[A-Z][a-z]{2,8}\.?\s+\d{1,2},?\s+\d{4}|\d{1,2}/\d{1,2}/\d{2,4})\.?"
)
_TOC_HEAD = re.compile(r"^\W*(table of contents|contents)\W*$", re.I)
_TOC_ENTRY = re.compile(r"\S.*\s\d{1,3}$")
_LINK_ONLY = re.compile(r"^\s*(?:[-*]\s*)?\[[^\]]+\]\([^)]*\)\s*$")


def _toc_lines(lines: list[str]) -> set[int]:
    """Indexes of lines that belong to a table of contents (plain mode)."""
    toc: set[int] = set()
    i = 0
    while i < len(lines):
        if _TOC_HEAD.match(lines[i]):
            j = i + 1
            last = i
            misses = 0
            while j < len(lines) and misses <= 2:
                line = lines[j].strip()
                if not line:
                    j += 1
                    continue
                if (
                    _TOC_ENTRY.match(line)
                    or _DOT_LEADER.search(line)
                    or line.lower()
                    in (
                        "page",
                        "section description page",
                    )
                ):
                    last = j
                    misses = 0
                else:
                    misses += 1
                j += 1
            toc.update(range(i, last + 1))
            i = last + 1
            continue
        if _DOT_LEADER.search(lines[i]):
            toc.add(i)
        i += 1
    return toc


def _candidate_markdown(lines: list[str], i: int) -> _Candidate | None:
    line = lines[i]
    atx = _ATX.match(line)
    if atx:
        raw = atx.group("text").strip()
        text = strip_inline_markdown(raw)
        if not text:
            return None
        hashes = len(atx.group("hashes"))
        found = _match_number(text, "markdown", "atx")
        if found:
            scheme, m = found
            rest = text[m.end() :].strip().lstrip("-\u2013\u2014:").strip()
            heading, body, kind = _split_title(rest) if rest else ("", "", "heading")
            if kind == "paragraph":
                heading, body = rest, ""  # an ATX heading is a heading whatever its wording
            elif body and not body.endswith((".", "?", "!")) and len(body.split()) <= 12:
                # "### C.2 Task Area 1: Cloud Migration" is one title, not a label and a body
                heading, body = rest, ""
            return _Candidate(
                i,
                m.group("label").rstrip(":)").strip()
                if scheme.name == "question"
                else m.group("label"),
                scheme,
                heading.rstrip(":").strip(),
                body,
                "heading",
                "atx",
                hashes,
                _sequence_value(scheme, m),
                sep=_separator(text[m.end() :]),
            )
        return _Candidate(i, None, None, text.rstrip(":").strip(), "", "heading", "atx", hashes)
    if i > 0 and lines[i - 1].strip():
        return None  # numbered paragraphs start a Markdown paragraph
    bold = _BOLD_LEAD.match(line)
    if bold:
        inner = bold.group("inner").strip()
        found = _match_number(inner, "markdown", "bold")
        if found:
            scheme, m = found
            title = inner[m.end() :].strip().lstrip("-\u2013\u2014:").strip().rstrip(".:").strip()
            after = bold.group("after").lstrip(".:").strip()
            if title:
                return _Candidate(
                    i,
                    m.group("label"),
                    scheme,
                    strip_inline_markdown(title),
                    after,
                    "heading",
                    "bold",
                    0,
                    _sequence_value(scheme, m),
                    sep=_separator(inner[m.end() :]),
                )
            heading, body, kind = _split_title(after)
            return _Candidate(
                i,
                m.group("label"),
                scheme,
                heading,
                body,
                kind,
                "bold",
                0,
                _sequence_value(scheme, m),
            )
        return _bold_heading(lines, i, inner, bold.group("after"))
    stripped = re.sub(r"^\s*>\s?", "", line).strip()
    found = _match_number(stripped, "markdown", "plain")
    if not found:
        return None
    scheme, m = found
    rest = stripped[m.end() :].strip()
    if not rest or not re.match(r"[A-Z*\"“(_]", rest):
        return None
    heading, body, kind = _split_title(rest)
    label = m.group("label")
    if scheme.name == "question":
        label = label.rstrip(":)").strip()  # "Q2:" -> "Q2"; "Question 1." keeps its dot
    return _Candidate(i, label, scheme, heading, body, kind, "plain", 0, _sequence_value(scheme, m))


def _bold_heading(lines: list[str], i: int, inner: str, after: str) -> _Candidate | None:
    """``**Staffing Plan and Key Personnel**`` alone in its paragraph: an unnumbered heading.

    The bold text must read as a title (short, no sentence modal, no final period) and stand
    alone (blank line after it). It nests one level below the enclosing section.
    """
    if after.strip().strip(":").strip():
        return None
    if i + 1 < len(lines) and lines[i + 1].strip():
        return None
    near = [ln for ln in lines[max(0, i - 3) : i] if ln.strip()][-1:]
    near += [ln for ln in lines[i + 1 : i + 4] if ln.strip()][:1]
    if any(_BOLD_ONLY.match(ln) for ln in near):
        return None  # a run of bold lines is a cover page or a signature block
    title = strip_inline_markdown(inner).strip().rstrip(":").strip()
    if not title or _TOC_HEAD.match(title) or not _is_title(title, 10):
        return None
    if _MODAL.search(title) or title.endswith("."):
        return None
    return _Candidate(i, None, None, title, "", "heading", "bold")


def _title_case(text: str) -> bool:
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'’\-]*", text) if len(w) >= 4]
    if not words:
        return True
    return sum(1 for w in words if w[0].isupper()) / len(words) >= 0.6


def _is_caps(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 2 and sum(c.isupper() for c in letters) / len(letters) >= 0.9


def _starts_lower(line: str) -> bool:
    return bool(re.match(r"^\s*[a-z]", line))


def _ucf_letter(lines: list[str], i: int) -> _Candidate | None:
    """``C – Statement of Objectives`` when one of the next three lines starts ``C.1``."""
    scheme = next(s for s in NUMBERING_SCHEMES if s.name == "ucf-letter")
    line = lines[i].strip()
    m = scheme.pattern.match(line)
    if not m:
        return None
    letter = m.group("id")
    following = [ln.strip() for ln in lines[i + 1 : i + 6] if ln.strip()][:3]
    if not any(re.match(rf"{letter}\.\d", ln) for ln in following):
        return None
    title = line[m.end() :].strip()
    if not _is_title(title, 12):
        return None
    return _Candidate(i, letter, scheme, title.rstrip(".:"), "", "heading", "plain")


@dataclass
class _Layout:
    """PDF typography of the lines (``layout.LineStyle``): which lines stand out as headings.

    A line is emphasised when its font is at least ``EMPHASIS_POINTS`` larger than the body
    size, or it is bold in a document whose body is not bold, and it is not smaller than the
    body (table headers, footnotes) nor a side-column label. ``rank`` orders heading sizes:
    the largest is 0; bold body-size text comes after every larger size. ``active`` is False
    for documents that do not style their headings (then wording rules decide alone).
    """

    styles: list[LineStyle | None]
    body: float
    body_bold: bool
    ranks: dict[float, int]
    active: bool
    _text: list[str]

    @classmethod
    def of(cls, lines: list[str], styles: list[LineStyle | None] | None) -> _Layout | None:
        if not styles or len(styles) != len(lines):
            return None
        body = body_size(styles, lines)
        text_chars = sum(len(ln) for ln, st in zip(lines, styles, strict=True) if st)
        bold_chars = sum(
            len(ln) for ln, st in zip(lines, styles, strict=True) if st and st.bold >= 0.75
        )
        layout = cls(
            styles,
            body,
            bold_chars > 0.5 * max(text_chars, 1),
            {},
            False,
            [ln.strip() for ln in lines],
        )
        sizes = sorted(
            {
                st.size
                for ln, st in zip(lines, styles, strict=True)
                if st is not None
                and layout.emphasized_style(st)
                and st.size >= body + EMPHASIS_POINTS
                and 0 < len(ln.split()) <= 16
            },
            reverse=True,
        )
        layout.ranks = {size: k for k, size in enumerate(sizes)}
        short = sum(
            1
            for ln, st in zip(lines, styles, strict=True)
            if st is not None and layout.emphasized_style(st) and 0 < len(ln.split()) <= 12
        )
        layout.active = short >= 2
        return layout

    def emphasized_style(self, st: LineStyle) -> bool:
        if st.side or st.size < self.body - 0.6:
            return False
        return st.size >= self.body + EMPHASIS_POINTS or (st.bold >= 0.75 and not self.body_bold)

    def emphasized(self, i: int) -> bool:
        st = self.styles[i] if i < len(self.styles) else None
        return st is not None and self.emphasized_style(st)

    def side(self, i: int) -> bool:
        st = self.styles[i] if i < len(self.styles) else None
        return st is not None and st.side

    def continues(self, i: int) -> bool:
        """Line ``i`` wraps the styled line above it: same font, same left edge, and the line
        above does not end a sentence or a label (``Components:``)."""
        if i <= 0 or not self.emphasized(i - 1) or not self.emphasized(i):
            return False
        above, here = self.styles[i - 1], self.styles[i]
        if above is None or here is None or above.size != here.size:
            return False
        return abs(above.x0 - here.x0) <= 3 and not re.search(r"[.:;?!]$", self._text[i - 1])

    def rank(self, i: int) -> int:
        st = self.styles[i]
        if st is not None and st.size in self.ranks:
            return self.ranks[st.size]
        return len(self.ranks)


EMPHASIS_POINTS = 0.9
"""Points a heading font must exceed the body font by to count as larger."""


def _layout_heading(lines: list[str], i: int, layout: _Layout) -> _Candidate | None:
    """An emphasised line that reads as a title, joined with a wrapped second line."""
    line = lines[i].strip()
    if not line or not re.match(r"[A-Z0-9\"“(]", line) or DATE_ONLY.fullmatch(line):
        return None
    if re.match(r"^[A-Z]{1,2}\d{1,3}\s*[:.]\s", line):
        return None  # "A36: The Court intends ..." answers a Q&A item
    if layout.continues(i):
        return None  # the second line of a heading, or a paragraph set in bold
    if line.endswith((",", ";")) or _TOC_ENTRY.match(line) and re.search(r"\s\d{1,3}$", line):
        return None
    extra = 0
    heading = line
    nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
    if (
        nxt
        and layout.continues(i + 1)
        and not _match_number(nxt, "plain", "plain")
        and len(f"{line} {nxt}".split()) <= 16
    ):
        heading, extra = f"{line} {nxt}", 1
    if (
        not _is_title(heading, 16)
        or _MODAL.search(heading)
        and (heading.endswith(".") or len(heading.split()) > 6)
    ):
        return None
    lettered = re.match(r"^(?P<label>[A-Z]\.)\s+(?P<rest>[A-Z].*)$", heading)
    if lettered:  # "B. DOC ECMO Program": a lettered subsection of the heading above
        scheme = next(s for s in NUMBERING_SCHEMES if s.name == "letter")
        title = lettered.group("rest").rstrip(":").strip()
        return _Candidate(i, lettered.group("label"), scheme, title, "", "heading", "layout")
    return _Candidate(
        i,
        None,
        None,
        heading.rstrip(":").strip(),
        "",
        "heading",
        "layout",
        layout.rank(i) + 1,
        None,
        extra,
    )


def _standalone_title(lines: list[str], i: int, layout: _Layout) -> _Candidate | None:
    """A short Title-Case line set apart as its own paragraph, introducing prose: a run-in
    heading in body type (``Due Date and Time`` above ``Submissions must be received ...``).

    It nests below every styled heading level (``rank`` + 2)."""
    if i == 0 or lines[i - 1].strip() or i + 2 >= len(lines) or lines[i + 1].strip():
        return None
    line = lines[i].strip()
    words = line.split()
    if not 1 <= len(words) <= 8 or re.search(r"[.,;:?!]$", line) or DATE_ONLY.fullmatch(line):
        return None
    if not re.match(r"[A-Z]", line) or not _title_case(line) or _is_caps(line):
        return None
    if _MODAL.search(line) or any(ch.isdigit() for ch in line):
        return None
    following = lines[i + 2].strip()
    if len(following.split()) < 8 or not re.match(r"[A-Z(\"“]", following):
        return None
    return _Candidate(i, None, None, line, "", "heading", "layout", len(layout.ranks) + 2)


def _candidate_plain(
    lines: list[str],
    i: int,
    page_of_line: list[int] | None = None,
    layout: _Layout | None = None,
) -> _Candidate | None:
    line = lines[i].strip()
    if not line or len(line) > 240:
        return None
    letter = _ucf_letter(lines, i)
    if letter is not None:
        return letter
    page_start = i == 0 or (page_of_line is not None and page_of_line[i] != page_of_line[i - 1])
    prev = "" if page_start else lines[i - 1].strip()
    nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
    wrapped = _starts_lower(nxt)  # this line's sentence continues on the next line
    found = _match_number(line, "plain", "plain")
    if found:
        scheme, m = found
        rest = line[m.end() :].strip().lstrip("-\u2013\u2014").strip()
        if prev and _WRAP_TAIL.search(prev):
            return None
        if (
            layout is not None
            and prev
            and re.search(r"[A-Za-z,]$", prev)
            and len(prev.split()) >= 6
            and not layout.emphasized(i - 1)
        ):
            return None  # the number continues a sentence wrapped from the line above
        label = m.group("label")
        seq = _sequence_value(scheme, m)
        if scheme.name == "question":
            label = label.rstrip(":)").strip()
        if not rest:
            if scheme.name in ("section-word", "addendum", "appendix", "question"):
                heading, extra = "", 0
                step = 1
                if not nxt and i + 2 < len(lines):  # "Appendix A", blank, "Tax Court ..."
                    nxt, step = lines[i + 2].strip(), 2
                if (
                    nxt
                    and (_is_caps(nxt) or _is_title(nxt, 10))
                    and not _match_number(nxt, "plain", "plain")
                ):
                    heading, extra = nxt.rstrip(":").strip(), step
                return _Candidate(
                    i, label.rstrip(".:"), scheme, heading, "", "heading", "plain", 0, seq, extra
                )
            return None
        if not re.match(r"[A-Z\"“(]", rest):
            return None
        depth = _dotted_depth(label) if scheme.name in ("ucf", "roman", "decimal") else 1
        extra = 0
        if (
            layout is not None
            and layout.active
            and nxt
            and layout.continues(i + 1)
            and not _match_number(nxt, "plain", "plain")
            and len(f"{rest} {nxt}".split()) <= 20
        ):
            rest, extra = f"{rest} {nxt}", 1  # a styled heading wrapped over two lines
            if _is_caps(rest):
                rest = rest.rstrip(".")
        if _is_caps(rest) and nxt and _is_caps(nxt) and not _match_number(nxt, "plain", "plain"):
            if (
                rest.endswith((",", "&"))
                or _TRAILING_FUNCTION_WORD.search(rest)
                or re.match(r"^(AND|OR|OF|FOR|TO|THE|IN)\b", nxt)
            ):
                rest, extra = f"{rest} {nxt}", 1
        sep = _separator(line[m.end() :])
        heading, body, kind = _split_title(rest)
        if kind == "heading" and wrapped and not body and not extra:
            heading, body, kind = "", rest, "paragraph"
        single = scheme.name in ("decimal", "roman") and depth == 1
        if single:
            title = heading or rest
            if kind == "paragraph" or not _is_title(title, 10):
                return None  # a single-level number before prose is a list item
            if not (_title_case(title) or _is_caps(title)):
                return None
        if scheme.name in ("section-word", "appendix", "addendum") and kind == "paragraph":
            return None
        return _Candidate(i, label, scheme, heading, body, kind, "plain", 0, seq, extra, sep)
    if layout is not None and layout.active:
        if layout.side(i):
            return None
        if layout.emphasized(i) and not wrapped:
            found_layout = _layout_heading(lines, i, layout)
            if found_layout is not None:
                return found_layout
        standalone = _standalone_title(lines, i, layout)
        if standalone is not None:
            return standalone
    if wrapped:
        return None
    ended = (
        not prev
        or bool(re.search(r"[.:;?!)]$", prev))
        or (
            (_is_caps(prev) or bool(_match_number(prev, "plain", "plain")))
            and not _TRAILING_FUNCTION_WORD.search(prev)
            and not prev.endswith(",")
        )
    )
    label_m = _LABEL_HEADING.match(line)
    if label_m and (
        ended or not re.search(r"[,;]$", prev) and not _TRAILING_FUNCTION_WORD.search(prev)
    ):
        title = label_m.group("t").strip()
        words = title.split()
        if len(words) <= 8 and _title_case(title) and not _MODAL.search(title):
            return _Candidate(i, None, None, title, "", "heading", "label")
        return None
    if not ended:
        return None  # an unnumbered heading follows the end of a paragraph or another heading
    if layout is not None and layout.active and not layout.emphasized(i):
        return None  # a plain ALL-CAPS line in a styled document is a form line, not a heading
    if _CAPS_HEADING.match(line) and not _TRAILING_FUNCTION_WORD.search(line):
        words = line.split()
        letters = sum(c.isalpha() for c in line)
        if (
            1 <= len(words) <= 10
            and letters >= 4
            and not any(c.isdigit() for c in line)
            and line.count("(") == line.count(")")
            and not line.endswith((",", "-"))
        ):
            return _Candidate(i, None, None, line, "", "heading", "caps")
    return None


def _filter_plain(cands: list[_Candidate], n_lines: int) -> list[_Candidate]:
    """Context checks for plain text: sequences and ownership of the top level.

    The first numbering scheme to open a top-level section owns the top level: later top-level
    candidates of another scheme (a ``Section 1.`` list inside ``ADDENDUM L``, a ``3.`` list
    inside ``SECTION TWO``, a ``1.`` list inside a closing ``Appendix B``) are list items.
    Sequenced schemes must count up (gaps of one allowed); a run of bare ``1.``/``I.`` headings
    shorter than three is a list.
    """
    owner: str | None = None
    last_seq: dict[str, int] = {}
    runs: dict[str, list[_Candidate]] = {}
    kept: list[_Candidate] = []
    for c in cands:
        if c.family == "appendix" and owner is None and c.line > 0.05 * n_lines:
            owner = "appendix"  # numbering that restarts inside a closing appendix is a list
        if c.scheme is None or c.scheme.relative or c.family == "appendix":
            kept.append(c)
            continue
        if c.depth() == 1:
            name = c.scheme.name
            if name == "section-word":
                ident = (c.number or "").split()[-1].rstrip(".")
                if re.fullmatch(r"[A-M]", ident) and (ident not in "IVX" or owner == "ucf-section"):
                    name = "ucf-section"  # "Section I" is Contract Clauses in a UCF document
            if name in ("addendum", "ucf", "ucf-letter"):
                name = "ucf-section"
            if owner is not None and name != owner:
                continue
            if c.scheme.needs_sequence and c.seq_value is not None and name != "ucf-section":
                prev = last_seq.get(name)
                ok = (prev is None and c.seq_value <= 2) or (
                    prev is not None and prev < c.seq_value <= prev + 2
                )
                if not ok:
                    continue
                last_seq[name] = c.seq_value
                if name in ("decimal", "roman") and "." not in (c.number or "").rstrip("."):
                    runs.setdefault(name, []).append(c)
            if owner is None:
                owner = name
        kept.append(c)
    drop = {id(c) for run in runs.values() if len(run) < 3 for c in run}
    return [c for c in kept if id(c) not in drop]


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:48] or "section"


def _first_sentence(text: str, limit: int = 100) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    m = re.match(r"^(.+?[.?!])(?=\s+[A-Z(]|$)", text)
    sentence = m.group(1) if m else text
    if len(sentence) > limit:
        cut = sentence[:limit].rsplit(" ", 1)[0]
        sentence = cut.rstrip(",;:") + "…"
    return sentence


def _is_toc_body(body_lines: list[str]) -> bool:
    """Every paragraph is a link, a TOC entry or a dot-leader line (a link may wrap)."""
    content = [" ".join(p.split()) for p in "\n".join(body_lines).split("\n\n") if p.strip()]
    return all(
        _LINK_ONLY.match(ln) or _TOC_ENTRY.match(ln.strip()) or _DOT_LEADER.search(ln)
        for ln in content
    )


def parse_outline(
    lines: list[str],
    mode: str,
    page_of_line: list[int] | None = None,
    line_styles: list[LineStyle | None] | None = None,
) -> list[Section]:
    """The outline of a document given its clean text ``lines``.

    ``mode`` is ``"markdown"`` (Markdown, DOCX) or ``"plain"`` (PDF, text). ``page_of_line`` gives
    the 1-based PDF page of each line (None for formats without pages); ``line_styles`` the
    PDF typography of each line (``layout.LineStyle``), which lets larger or bold unnumbered
    lines become headings (levels by font size) and keeps unstyled ALL-CAPS form lines out.
    Returns sections in document order; each section's ``body`` is the text from the end of
    its heading to the next heading (for a numbered paragraph, the paragraph text itself);
    ``line`` is 1-based.
    A table of contents, or a heading repeated later with an empty body, is dropped.
    Raises ValueError for an unknown ``mode``.
    """
    if mode not in ("markdown", "plain"):
        raise ValueError(f"unknown outline mode {mode!r}; use 'markdown' or 'plain'")
    toc = (
        _toc_lines(lines)
        if mode == "plain"
        else {i for i, ln in enumerate(lines) if _DOT_LEADER.search(ln)}
    )
    layout = _Layout.of(lines, line_styles) if mode == "plain" else None
    cands: list[_Candidate] = []
    skip_to = 0
    for i in range(len(lines)):
        if i < skip_to or i in toc or not lines[i].strip():
            continue
        if mode == "markdown":
            c = _candidate_markdown(lines, i)
        else:
            c = _candidate_plain(lines, i, page_of_line, layout)
        if c is not None:
            cands.append(c)
            skip_to = i + 1 + c.extra
    if mode == "plain":
        cands = _filter_plain(cands, len(lines))
        if page_of_line and max(page_of_line) >= 5:
            first_page = sum(1 for k, ln in enumerate(lines) if ln.strip() and page_of_line[k] == 1)
            if first_page <= 25:  # a cover page: its big type is a title block, not headings
                cands = [c for c in cands if c.source != "layout" or page_of_line[c.line] != 1]
        numbered = [c for c in cands if c.scheme is not None and not c.scheme.relative]
        if len(numbered) >= 3:  # numbering carries the levels; styled headings nest relatively
            first = numbered[0].line
            cands = [c for c in cands if c.source != "layout" or c.line > first]
            for c in cands:
                if c.source == "layout":
                    c.source = "caps"
    else:
        # bold-only lines before the first numbered section are cover-page lines
        first_real = next((k for k, c in enumerate(cands) if c.number is not None), 0)
        cands = [
            c
            for k, c in enumerate(cands)
            if k >= first_real or not (c.source == "bold" and c.number is None)
        ]

    # drop table-of-contents copies: same number later, nothing but links/entries in between
    def body_lines(idx: int, items: list[_Candidate]) -> list[str]:
        end = items[idx + 1].line if idx + 1 < len(items) else len(lines)
        return lines[items[idx].line + 1 + items[idx].extra : end]

    later_numbers: dict[str, int] = {}
    for c in cands:
        if c.number:
            later_numbers[_norm_number(c.number)] = later_numbers.get(_norm_number(c.number), 0) + 1
    kept: list[_Candidate] = []
    seen: dict[str, int] = {}
    for idx, c in enumerate(cands):
        if c.number:
            key = _norm_number(c.number)
            seen[key] = seen.get(key, 0) + 1
            remaining = later_numbers[key] - seen[key]
            if remaining > 0 and not c.rest and _is_toc_body(body_lines(idx, cands)):
                continue
        kept.append(c)
    cands = kept

    return _build_sections(lines, cands, mode, page_of_line)


def _norm_number(number: str) -> str:
    n = number.strip().rstrip(".:").upper()
    n = re.sub(r"\s+", " ", n)
    n = re.sub(r"^(SECTION|SEC\.)\s*", "", n)
    if re.fullmatch(r"\d+\.0", n):
        n = n[:-2]
    return n


def _build_sections(
    lines: list[str], cands: list[_Candidate], mode: str, page_of_line: list[int] | None
) -> list[Section]:
    sections: list[Section] = []
    used: set[str] = set()
    # stack entries: (level, key, relative?)
    stack: list[tuple[int, str, bool]] = []
    root_key: str | None = None
    ranks: dict[str, int] = {}  # key -> font rank of a layout heading
    title_shift = 0
    first_is_title = (
        mode == "markdown"
        and bool(cands)
        and cands[0].source == "atx"
        and cands[0].hashes == 1
        and cands[0].number is None
    )
    if first_is_title:
        # "# Title" then "## Section": the title is the root and "##" is level 1. When
        # unnumbered sections are "#" too (a Word Title style over Heading 1/Heading 2), "#"
        # stays level 1 and "##" level 2 instead of both collapsing to level 1. (Numbered
        # headings take their level from the numbering either way.)
        more_h1 = any(c.source == "atx" and c.hashes == 1 and c.number is None for c in cands[1:])
        title_shift = 0 if more_h1 else 1

    for idx, c in enumerate(cands):
        end = cands[idx + 1].line if idx + 1 < len(cands) else len(lines)
        body_parts = [c.rest] if c.rest else []
        body_parts += lines[c.line + 1 + c.extra : end]
        body = "\n".join(body_parts).strip()
        heading = c.heading
        if c.kind == "paragraph" or not heading and c.number:
            heading = _first_sentence(body) if c.kind == "paragraph" else heading

        base = c.number.rstrip(".") if c.number else _slug(heading)
        key = base if base not in used else f"{base}@{c.line + 1}"
        used.add(key)

        is_root = idx == 0 and first_is_title
        if is_root:
            level = 0
            parent = None
            root_key = key
        elif c.scheme is not None and not c.scheme.relative:
            level = c.depth()
            while stack and (stack[-1][0] >= level):
                stack.pop()
            parent = stack[-1][1] if stack else root_key
        elif c.scheme is None and c.source == "layout":
            # font ranks can skip levels (18 pt, 16 pt, then body-size run-in headings); the
            # outline does not: pop by rank, then sit one below the parent
            while stack and ranks.get(stack[-1][1], stack[-1][0]) >= c.hashes:
                stack.pop()
            parent = stack[-1][1] if stack else root_key
            level = stack[-1][0] + 1 if stack else 1
        elif c.scheme is None and c.source == "atx":
            level = max(1, c.hashes - title_shift)
            while stack and stack[-1][0] >= level:
                stack.pop()
            parent = stack[-1][1] if stack else root_key
        else:  # relative: one below the enclosing non-relative section
            while stack and stack[-1][2]:
                stack.pop()
            level = stack[-1][0] + 1 if stack else 1
            parent = stack[-1][1] if stack else root_key
        relative = (c.scheme is None and c.source not in ("atx", "layout")) or (
            c.scheme is not None and c.scheme.relative
        )
        if not is_root:
            stack.append((level, key, relative))
            if c.source == "layout" and c.scheme is None:
                ranks[key] = c.hashes
        page = page_of_line[c.line] if page_of_line and c.line < len(page_of_line) else None
        number = c.number.strip() if c.number else None
        if c.kind == "paragraph":
            title = ""
        elif number and heading:
            title = f"{number}{c.sep}{heading}"
        else:
            title = number or heading
        section = Section(
            key=key,
            number=c.number.strip() if c.number else None,
            heading=heading,
            level=level,
            parent=parent,
            body=body,
            line=c.line + 1,
            page=page,
            kind=c.kind,
            title=title,
        )
        sections.append(section)
    return sections
