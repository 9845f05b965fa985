"""Headings of plain text and PDF: numbered lines, unnumbered label and ALL-CAPS lines, and
headings set apart by PDF typography (font size, bold; ``layout.LineStyle``).

Plain text has no markup, so a candidate is checked against its neighbours: a number that
continues a wrapped sentence, a single-level number before prose (a list item) and an
unstyled ALL-CAPS form line in a styled document are not headings. The sequence and
top-level-ownership checks over all candidates are in ``outline``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rfp_retrieval.documents.ask_patterns import RESPONSE_COLUMN_LINE
from rfp_retrieval.documents.headings import (
    MODAL,
    TOC_ENTRY,
    TRAILING_FUNCTION_WORD,
    HeadingCandidate,
    is_caps,
    is_title,
    separator,
    split_title,
    title_case,
)
from rfp_retrieval.documents.layout import LineStyle, body_size
from rfp_retrieval.documents.numbering import (
    CLAUSE_NUMBER,
    NUMBERING_SCHEMES,
    dotted_depth,
    match_number,
    sequence_value,
)

_LABEL_HEADING = re.compile(r"^(?P<t>[A-Z][A-Za-z0-9&/(),'’\- ]{1,70}?)\s*:$")
_CAPS_HEADING = re.compile(r"^[A-Z][A-Z0-9&/,()'’\- \u2013\u2014]{2,80}$")
_WRAP_TAIL = re.compile(
    r"\b(paragraph|paragraphs|section|sections|sec\.|para|and|or|in|of|see|to|under|per|"
    r"through|clause|item|items|subsection|attachment|appendix)$",
    re.I,
)
DATE_ONLY = re.compile(
    r"(?:[A-Z][a-z]+day,?\s+)?(?:[A-Z][a-z]{2,8}\.?\s+\d{1,2},?\s+\d{4}|\d{1,2}/\d{1,2}/\d{2,4})\.?"
)


_CAPS_RUNIN = re.compile(
    r"^(?P<t>[A-Z][A-Z0-9&/,'’]*(?:[ -][A-Z0-9&/,'’]+){0,7})"
    r"(?:(?:\s*[-\u2013\u2014:]\s*|\s+)(?P<b>[A-Z][a-z].*)"
    r"|\s*[-\u2013\u2014:]\s*(?P<b1>[AI]\s+[A-Za-z].*))$"
    r"|^(?P<t2>[A-Z][A-Z0-9&/,'’]*(?:[ -][A-Z0-9&/,'’]+){0,7})\s*[-\u2013\u2014:]$"
)


_NUMBERED_PART = re.compile(
    r"^(?:SECTION|PART|ARTICLE|ATTACHMENT|EXHIBIT|APPENDIX|VOLUME|TAB)\s+[A-Z0-9]{1,4}$"
)
"""A part named by its number alone (``SECTION A``, ``PART IV``, ``ATTACHMENT 2``): with a title
after it the line is the numbered heading of the part (``numbering``), not a caps run-in."""


def caps_runin(text: str) -> tuple[str, str] | None:
    """(title, body) of a paragraph that opens with an ALL-CAPS run-in title joined to its
    text by a dash, a colon or a space (``AUTHORITY-The Purchasing Agent ...``, ``TIE-BIDS –
    If all bids ...``, ``AUDIT OF RECORDS The parties ...``): the general-conditions style of
    state and local solicitations; ``UNBALANCED BIDS—A Bid shall ...`` (a one-letter first
    word) and ``INDEMNIFICATION-`` (the text on the next line: body ``""``) too. None when the
    caps part is one short word (``RFP``)."""
    m = _CAPS_RUNIN.match(text.strip())
    if not m:
        return None
    title = (m.group("t") or m.group("t2")).strip(" -,")
    if sum(c.isalpha() for c in title) < 4 or not is_caps(title):
        return None
    if _NUMBERED_PART.match(title):
        return None  # "SECTION A Contract Form": a numbered part and its title, no run-in
    if len(title.split()) == 1 and "-" not in title and len(title) < 5:
        return None
    return title, (m.group("b") or m.group("b1") or "").strip()


def _next_is_factor(lines: list[str], i: int, scheme) -> bool:
    """The next or previous non-blank line is another bare factor label (a list of factor
    names: ``Subfactor 1 - Infrastructure`` / ``Subfactor 2 - Interface``)."""
    nxt = next((ln.strip() for ln in lines[i + 1 : i + 4] if ln.strip()), "")
    prev = next((ln.strip() for ln in reversed(lines[max(0, i - 3) : i]) if ln.strip()), "")
    return any(
        bool(scheme.pattern.match(other)) and len(other.split()) <= 8 for other in (nxt, prev)
    )


_VOLUME = re.compile(
    r"^(?P<t>Volume\s+(?:[IVX]{1,4}|\d{1,2})\s*[,:\-\u2013\u2014]\s*[A-Z][^.:]{0,50}?)[.:]"
    r"(?:\s+(?P<b>[A-Z].*))?$"
)


def _volume_heading(line: str) -> str | None:
    """``Volume II, Technical.`` (alone, or running into its text): a proposal volume named in
    the instructions, an unnumbered heading below the section that lists the volumes."""
    m = _VOLUME.match(line)
    if not m or len(m.group("t").split()) > 8 or MODAL.search(m.group("t")):
        return None
    return m.group("t").strip()


def _group_heading(lines: list[str], i: int) -> bool:
    """An ALL-CAPS line standing alone (blank lines around it) right before a numbered
    paragraph: the group heading over numbered conditions (``CONDITIONS OF BIDDING`` above
    ``3. BID FORMS-All bids must ...``), set in body type. The numbered line must run into
    prose (three lower-case words or more), so a form's caps labels stay out."""
    if i == 0 or i + 2 >= len(lines) or lines[i - 1].strip() or lines[i + 1].strip():
        return False
    after = lines[i + 2].strip()
    prose = len(re.findall(r"\b[a-z]{3,}\b", after)) >= 3  # not another form line
    return is_caps(lines[i]) and prose and bool(match_number(after, "plain", "plain"))


MIXED_CASE_NAME = re.compile(r"^[a-z]{1,3}[A-Z]{2,}[A-Za-z]*\b")
"""A name written with a lower-case first letter (``eVA``, ``iOS``): it may open a heading."""


def _hanging_title(scheme_name: str, nxt: str) -> bool:
    """The line after a bare ``III.`` / ``4.`` opens with an ALL-CAPS run-in title ending in a
    colon (``COMMUNICATION: Communications regarding ...``): the numeral's title and text,
    extracted as a line of their own because the numeral sits in its own column."""
    if scheme_name not in ("roman", "decimal") or not nxt or match_number(nxt, "plain", "plain"):
        return False
    m = re.match(r"^(?P<t>[^:.]{2,80}):(?:\s|$)", nxt)
    if not m:
        return False
    title = m.group("t").strip()
    if MIXED_CASE_NAME.match(title):
        title = title[0].upper() + title[1:]
    return is_caps(title) and len(title.split()) <= 10


def _starts_lower(line: str) -> bool:
    return bool(re.match(r"^\s*[a-z]", line))


def _ucf_letter(lines: list[str], i: int) -> HeadingCandidate | None:
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
    if not is_title(title, 12):
        return None
    return HeadingCandidate(i, letter, scheme, title.rstrip(".:"), "", "heading", "plain")


@dataclass
class HeadingLayout:
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
    def of(cls, lines: list[str], styles: list[LineStyle | None] | None) -> HeadingLayout | None:
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


def _layout_heading(lines: list[str], i: int, layout: HeadingLayout) -> HeadingCandidate | None:
    """An emphasised line that reads as a title, joined with a wrapped second line."""
    line = lines[i].strip()
    if not line or not re.match(r"[A-Z0-9\"“(]", line) or DATE_ONLY.fullmatch(line):
        return None
    if RESPONSE_COLUMN_LINE.match(line):
        return None  # "General Vendor Response": the header of a response table's column
    if re.match(r"^[A-Z]{1,2}\d{1,3}\s*[:.]\s", line):
        return None  # "A36: The Court intends ..." answers a Q&A item
    if layout.continues(i):
        return None  # the second line of a heading, or a paragraph set in bold
    if line.endswith((",", ";")) or TOC_ENTRY.match(line) and re.search(r"\s\d{1,3}$", line):
        return None
    extra = 0
    heading = line
    nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
    if (
        nxt
        and layout.continues(i + 1)
        and not match_number(nxt, "plain", "plain")
        and len(f"{line} {nxt}".split()) <= 16
    ):
        heading, extra = f"{line} {nxt}", 1
    if (
        not is_title(heading, 16)
        or MODAL.search(heading)
        and (heading.endswith(".") or len(heading.split()) > 6)
    ):
        return None
    lettered = re.match(r"^(?P<label>[A-Z]\.)\s+(?P<rest>[A-Z].*)$", heading)
    if lettered:  # "B. DOC ECMO Program": a lettered subsection of the heading above
        scheme = next(s for s in NUMBERING_SCHEMES if s.name == "letter")
        title = lettered.group("rest").rstrip(":").strip()
        return HeadingCandidate(i, lettered.group("label"), scheme, title, "", "heading", "layout")
    return HeadingCandidate(
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


def _standalone_title(lines: list[str], i: int, layout: HeadingLayout) -> HeadingCandidate | None:
    """A short Title-Case line set apart as its own paragraph, introducing prose: a run-in
    heading in body type (``Due Date and Time`` above ``Submissions must be received ...``).

    It nests below every styled heading level (``rank`` + 2)."""
    if i == 0 or lines[i - 1].strip() or i + 2 >= len(lines) or lines[i + 1].strip():
        return None
    line = lines[i].strip()
    words = line.split()
    if not 1 <= len(words) <= 8 or re.search(r"[.,;:?!]$", line) or DATE_ONLY.fullmatch(line):
        return None
    if not re.match(r"[A-Z]", line) or not title_case(line) or is_caps(line):
        return None
    if MODAL.search(line) or any(ch.isdigit() for ch in line):
        return None
    following = lines[i + 2].strip()
    if len(following.split()) < 8 or not re.match(r"[A-Z(\"“]", following):
        return None
    return HeadingCandidate(i, None, None, line, "", "heading", "layout", len(layout.ranks) + 2)


_FORM_FIELD = re.compile(r"(?<!\S)(?P<n>\d{1,2})[a-z]?\.\s+[A-Z]{2,}")


def form_title(lines: list[str], i: int) -> bool:
    """The line ``i`` is the title of a standard form (``SOLICITATION/CONTRACT/ORDER FOR
    COMMERCIAL ITEMS`` over the SF 1449's blocks, ``SOLICITATION, OFFER AND AWARD`` over the
    SF 33's): the next non-blank line holds two numbered form blocks or more (``1.
    REQUISITION NUMBER 2. CONTRACT NO.``). A form's title is no section of the outline (the
    UCF parts after the form are)."""
    nxt = next((ln.strip() for ln in lines[i + 1 : i + 4] if ln.strip()), "")
    return len(_FORM_FIELD.findall(nxt)) >= 2


def _next_form_field(rest: str, seq: int) -> bool:
    """Whether ``rest`` (the line after a number ``seq``) holds the next numbered field of the
    same row (``2. CONTRACT NO. 3. AWARD/EFFECTIVE DATE``): the block labels of a standard
    form (SF 1449, SF 33, SF 30) printed side by side, never a heading."""
    return any(seq < int(m.group("n")) <= seq + 3 for m in _FORM_FIELD.finditer(rest))


def plain_candidate(
    lines: list[str],
    i: int,
    page_of_line: list[int] | None = None,
    layout: HeadingLayout | None = None,
) -> HeadingCandidate | None:
    """The heading that opens ``lines[i]`` of plain text or a PDF (numbered line, bare UCF
    letter, styled line, label or ALL-CAPS line), or None; ``layout`` is the PDF typography."""
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
    found = match_number(line, "plain", "plain")
    if found:
        scheme, m = found
        # the label's separator (a dash or a colon: "ATTACHMENT J-4: RESPONSE MATRIX")
        rest = line[m.end() :].strip().lstrip("-\u2013\u2014:").strip()
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
        seq = sequence_value(scheme, m)
        if seq is not None and _next_form_field(rest, seq):
            return None  # "2. CONTRACT NO. 3. AWARD/EFFECTIVE 4. ORDER": a form's field row
        if scheme.name == "question":
            label = label.rstrip(":)").strip()
        hung = 0
        if not rest and _hanging_title(scheme.name, nxt):
            # "III." alone in the number column, "COMMUNICATION: Communications ..." beside it
            # on a line of its own (a larger or bolder numeral sits on a different baseline)
            rest, hung = nxt, 1
            nxt = lines[i + 2].strip() if i + 2 < len(lines) else ""
            wrapped = _starts_lower(nxt)
        if not rest:
            if scheme.name in ("section-word", "addendum", "appendix", "question"):
                heading, extra = "", 0
                step = 1
                if not nxt and i + 2 < len(lines):  # "Appendix A", blank, "Tax Court ..."
                    nxt, step = lines[i + 2].strip(), 2
                if (
                    nxt
                    and (is_caps(nxt) or is_title(nxt, 10))
                    and not match_number(nxt, "plain", "plain")
                ):
                    heading, extra = nxt.rstrip(":").strip(), step
                return HeadingCandidate(
                    i, label.rstrip(".:"), scheme, heading, "", "heading", "plain", 0, seq, extra
                )
            return None
        clause = CLAUSE_NUMBER.match(rest)
        if clause is not None and re.match(r"\s+[A-Z]", rest[clause.end() :]):
            # "B.1 52.212-4 CONTRACT TERMS AND CONDITIONS-COMMERCIAL ITEMS (OCT 2003)": a
            # clause heading, its title the clause's number and name
            heading = rest.rstrip(":").strip()
            return HeadingCandidate(i, label, scheme, heading, "", "heading", "plain", 0, seq)
        if not re.match(r"[A-Z\"“(]", rest) and not MIXED_CASE_NAME.match(rest):
            return None
        depth = dotted_depth(label) if scheme.name in ("ucf", "roman", "decimal") else 1
        extra = hung
        if (
            layout is not None
            and layout.active
            and nxt
            and layout.continues(i + 1)
            and not match_number(nxt, "plain", "plain")
            and len(f"{rest} {nxt}".split()) <= 20
        ):
            rest, extra = f"{rest} {nxt}", 1  # a styled heading wrapped over two lines
            if is_caps(rest):
                rest = rest.rstrip(".")
        if (
            extra == hung  # the styled join above did not take the next line already
            and is_caps(rest)
            and nxt
            and is_caps(nxt)
            and not match_number(nxt, "plain", "plain")
        ):
            if (
                rest.endswith((",", "&"))
                or TRAILING_FUNCTION_WORD.search(rest)
                or re.match(r"^(AND|OR|OF|FOR|TO|THE|IN)\b", nxt)
            ):
                rest, extra = f"{rest} {nxt}", 1
        sep = separator(line[m.end() :])
        mixed = bool(MIXED_CASE_NAME.match(rest))
        if mixed:  # read "eVA VENDOR REGISTRATION: ..." as if its name were capitalised
            rest = rest[0].upper() + rest[1:]
        heading, body, kind = split_title(rest)
        caps = caps_runin(rest)
        if caps is not None and (
            kind == "paragraph"
            or not heading
            or bool(re.match(re.escape(caps[0]) + r"\s*[-\u2013\u2014:]\s*\S", heading))
        ):  # "PROHIBITION AGAINST UNIFORM PRICING-The Purchasing Agent encourages ..." cut at
            # the line end is no title of its own: the caps part before the dash is (a title
            # joined by a space, "TSA ITMS Statement of Objectives", stays whole)
            heading, body, kind = caps[0], caps[1], "heading"
        if kind == "heading" and wrapped and not body and not extra:
            heading, body, kind = "", rest, "paragraph"
        single = scheme.name in ("decimal", "roman") and depth == 1
        if single:
            title = heading or rest
            if kind == "paragraph" or not is_title(title, 10):
                return None  # a single-level number before prose is a list item
            if not (title_case(title) or is_caps(title)):
                return None
        if scheme.name == "factor" and not body and _next_is_factor(lines, i, scheme):
            return None  # a list of factor names, not the factor's own heading
        if (
            scheme.name in ("section-word", "appendix", "addendum", "factor")
            and kind == "paragraph"
        ):
            return None
        if mixed and heading:
            heading = heading[0].lower() + heading[1:]
        return HeadingCandidate(i, label, scheme, heading, body, kind, "plain", 0, seq, extra, sep)
    volume = _volume_heading(line)
    if volume is not None and (not prev or re.search(r"[.:;?!)]$", prev)):
        body = line[len(volume) :].lstrip(".: ").strip()
        return HeadingCandidate(i, None, None, volume, body, "heading", "label")
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
            (is_caps(prev) or bool(match_number(prev, "plain", "plain")))
            and not TRAILING_FUNCTION_WORD.search(prev)
            and not prev.endswith(",")
        )
    )
    label_m = _LABEL_HEADING.match(line)
    if label_m and (
        ended or not re.search(r"[,;]$", prev) and not TRAILING_FUNCTION_WORD.search(prev)
    ):
        title = label_m.group("t").strip()
        words = title.split()
        if len(words) <= 8 and title_case(title) and not MODAL.search(title):
            return HeadingCandidate(i, None, None, title, "", "heading", "label")
        return None
    if not ended:
        return None  # an unnumbered heading follows the end of a paragraph or another heading
    if layout is not None and layout.active and not layout.emphasized(i):
        if not _group_heading(lines, i):
            return None  # a plain ALL-CAPS line in a styled document is a form line
    if _CAPS_HEADING.match(line) and not TRAILING_FUNCTION_WORD.search(line):
        if form_title(lines, i):
            return None
        words = line.split()
        letters = sum(c.isalpha() for c in line)
        if (
            1 <= len(words) <= 10
            and letters >= 4
            and not any(c.isdigit() for c in line)
            and line.count("(") == line.count(")")
            and not line.endswith((",", "-"))
        ):
            return HeadingCandidate(i, None, None, line, "", "heading", "caps")
    return None
