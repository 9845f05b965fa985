"""Heading detection shared by both outline modes, and Markdown headings.

A ``HeadingCandidate`` is a line that may open a section. This module holds the wording rules
that decide whether text reads as a title (``is_title``, ``split_title``), the Markdown
readers (ATX ``#`` headings, and setext headings which extraction has already turned into ATX;
bold run-in headings ``**1. General.** ...``; plain paragraphs that open with a multi-part
number) and tables of contents. Plain-text and PDF headings are in ``plain_headings``; the
numbering table in ``numbering``; the tree build in ``outline``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rfp_retrieval.documents.numbering import (
    LIST_ITEM_LABEL,
    LIST_ITEM_SCHEME,
    NumberingScheme,
    dotted_depth,
    match_number,
    sec_digits,
    sequence_value,
)
from rfp_retrieval.documents.text import strip_inline_markdown


@dataclass
class HeadingCandidate:
    """A line that may open a section, before the context checks and the tree build."""

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
            return dotted_depth(sec_digits(self.number))
        if self.scheme.name in ("section-word", "addendum", "appendix"):
            return 1
        return self.scheme.depth(self.number)


MODAL = re.compile(
    r"\b(shall|must|will|should|may|is|are|was|were|has|have|provides?|includes?|describes?)\b",
    re.I,
)
_SENTENCE_START = re.compile(
    r"^(Describe|Provide|Identify|Explain|Submit|List|State|Discuss|Demonstrate|Indicate|"
    r"Confirm|Specify|Outline|Include|Give|Detail|What|How|Why|Where|When|Who|Which|Is|Are|"
    r"Does|Do|Can|Could|Will|Would|Should|Has|Have|Please|The|This|These|Each|All|Any|An?|"
    r"If|In|For|Offerors?|Contractors?|Quoters?|Vendors?|Respondents?|References?)\b"
)
TRAILING_FUNCTION_WORD = re.compile(
    r"\b(and|or|the|of|to|for|a|an|in|on|with|by|as|at|from|that|is|are|be|which)$", re.I
)


def is_title(text: str, max_words: int = 14) -> bool:
    """True when ``text`` reads like a heading, not like running prose."""
    text = text.strip().rstrip(":").strip()
    if not text or len(text) > 120:
        return False
    if not re.match(r"[A-Z0-9\"'“(]", text):
        return False
    words = text.split()
    if len(words) > max_words:
        return False
    if text.endswith((",", ";", "-", "\u2013", "\u2014")) or TRAILING_FUNCTION_WORD.search(text):
        return False
    if text.endswith(("?",)):
        return False
    if text.endswith(".") and (len(words) > 6 or MODAL.search(text)):
        return False
    letters = sum(c.isalpha() for c in text)
    return letters >= 2


def _run_in_title_words(title: str) -> bool:
    """A run-in title before ``. Body`` is short: at most 6 words, or at most 10 when they are
    title-cased (``Task 1 – Continuous Monitoring and Triage. The contractor shall:``); a dash
    between words is no word."""
    words = [w for w in title.split() if re.search(r"\w", w)]
    return len(words) <= 6 or len(words) <= 10 and title_case(title)


def split_title(rest: str) -> tuple[str, str, str]:
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
    labelled = re.match(
        r"^(?P<t>[A-Z][^.?!]{0,70}?:\s+[A-Z][^.?!:]{0,50}?)\.\s+(?P<b>[A-Z(\"“].*)$", plain
    )
    if (
        labelled
        and len(labelled.group("t").split()) <= 8
        and not MODAL.search(labelled.group("t"))
        and not _SENTENCE_START.match(labelled.group("t"))
    ):
        # "Phase I: Written Proposals. The Government will ...": a two-part run-in title
        return labelled.group("t").strip(), labelled.group("b").strip(), "heading"
    colon = re.match(r"^(?P<t>[^.:?!]{1,80}?)\s*:\s+(?P<b>\S.*)$", plain)
    if colon and is_title(colon.group("t"), 8) and not MODAL.search(colon.group("t")):
        return colon.group("t").strip(), colon.group("b").strip(), "heading"
    period = re.match(r"^(?P<t>[A-Z][^.?!:]{0,70}?)\.\s+(?P<b>[A-Z(\"“].*)$", plain)
    if (
        period
        and _run_in_title_words(period.group("t"))
        and not MODAL.search(period.group("t"))
        and not _SENTENCE_START.match(period.group("t"))
    ):
        return period.group("t").strip(), period.group("b").strip(), "heading"
    if is_title(plain) and not _SENTENCE_START.match(plain) and not MODAL.search(plain):
        return plain.rstrip(".:").strip(), "", "heading"
    if is_title(plain, 8) and not plain.endswith((".", "?")) and not MODAL.search(plain):
        return plain.rstrip(":").strip(), "", "heading"
    return "", plain, "paragraph"


def separator(after_label: str) -> str:
    """The separator between a section number and its heading, as written, normalised.

    ``" — "`` / ``" – "`` / ``" - "`` for a dash, ``": "`` for a colon, else a space.
    """
    m = re.match(r"^\s*([:\-\u2013\u2014])\s*", after_label)
    if not m:
        return " "
    return ": " if m.group(1) == ":" else f" {m.group(1)} "


_ATX = re.compile(r"^\s{0,3}(?P<hashes>#{1,6})\s+(?P<text>.*?)\s*#*\s*$")


def is_atx_heading(line: str) -> bool:
    """Whether ``line`` is a Markdown ATX heading with text ("## 2. Scope of Work")."""
    m = _ATX.match(line)
    return bool(m and m.group("text"))


_BOLD_ONLY = re.compile(r"^\s*\*\*[^*]+\*\*\s*:?\s*$")
_BOLD_LEAD = re.compile(r"^\s*(?:>\s*)?\*\*(?P<inner>[^*]{1,200}?)\*\*(?P<after>.*)$")
DOT_LEADER = re.compile(r"(\.\s?){4,}\s*\d{1,3}\s*$|\s\.{2,}\s*\d{1,3}$")
_TOC_HEAD = re.compile(r"^\W*(table of contents|contents)\W*$", re.I)
TOC_ENTRY = re.compile(r"\S.*\s\d{1,3}$")
_LINK_ONLY = re.compile(r"^\s*(?:[-*]\s*)?\[[^\]]+\]\([^)]*\)\s*$")


def toc_lines(lines: list[str]) -> set[int]:
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
                    TOC_ENTRY.match(line)
                    or DOT_LEADER.search(line)
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
        if DOT_LEADER.search(lines[i]):
            toc.add(i)
        i += 1
    return toc


_DOTTED_LEAD = re.compile(r"^\s{0,3}(?P<n>\d{1,3}(?:\.\d{1,3})+)\.?\s+\S")


def _next_in_tight_list(previous: str, line: str) -> bool:
    """True when ``line`` opens with the dotted number that follows the one ``previous``
    opens with ("2.1 Core HR ..." then "2.2 Payroll ..."): numbered paragraphs written on
    consecutive lines, with no blank line between them, are items of their own, as a writer
    reads them (new-user trial: seven scope items merged into one)."""
    a, b = _DOTTED_LEAD.match(previous), _DOTTED_LEAD.match(line)
    if a is None or b is None:
        return False
    *head_a, last_a = a.group("n").split(".")
    *head_b, last_b = b.group("n").split(".")
    return head_a == head_b and int(last_b) == int(last_a) + 1


def markdown_candidate(lines: list[str], i: int) -> HeadingCandidate | None:
    """The heading that opens ``lines[i]`` in a Markdown document (ATX, bold run-in, numbered
    paragraph, bold-only line), or None."""
    line = lines[i]
    atx = _ATX.match(line)
    if atx:
        raw = atx.group("text").strip()
        text = strip_inline_markdown(raw)
        if not text:
            return None
        hashes = len(atx.group("hashes"))
        found = match_number(text, "markdown", "atx")
        if found:
            scheme, m = found
            rest = text[m.end() :].strip().lstrip("-\u2013\u2014:").strip()
            heading, body, kind = split_title(rest) if rest else ("", "", "heading")
            if kind == "paragraph":
                heading, body = rest, ""  # an ATX heading is a heading whatever its wording
            elif body and not body.endswith((".", "?", "!")) and len(body.split()) <= 12:
                # "### C.2 Task Area 1: Cloud Migration" is one title, not a label and a body
                heading, body = rest, ""
            return HeadingCandidate(
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
                sequence_value(scheme, m),
                sep=separator(text[m.end() :]),
            )
        return HeadingCandidate(
            i, None, None, text.rstrip(":").strip(), "", "heading", "atx", hashes
        )
    if i > 0 and lines[i - 1].strip() not in ("", ">") and not _next_in_tight_list(
        lines[i - 1], line
    ):
        if runin_list_heading(lines[i - 1]) is None or runin_list_heading(line) is None:
            return None  # numbered paragraphs start a Markdown paragraph (or a tight list)
    bold = _BOLD_LEAD.match(line)
    if bold:
        inner = bold.group("inner").strip()
        found = match_number(inner, "markdown", "bold")
        if found:
            scheme, m = found
            title = inner[m.end() :].strip().lstrip("-\u2013\u2014:").strip().rstrip(".:").strip()
            after = bold.group("after").lstrip(".:").strip()
            if title:
                return HeadingCandidate(
                    i,
                    m.group("label"),
                    scheme,
                    strip_inline_markdown(title),
                    after,
                    "heading",
                    "bold",
                    0,
                    sequence_value(scheme, m),
                    sep=separator(inner[m.end() :]),
                )
            heading, body, kind = split_title(after)
            return HeadingCandidate(
                i,
                m.group("label"),
                scheme,
                heading,
                body,
                kind,
                "bold",
                0,
                sequence_value(scheme, m),
            )
        return _bold_heading(lines, i, inner, bold.group("after"))
    runin = runin_list_heading(line) or _unnumbered_runin(line)
    if runin is not None:
        label, title, body = runin
        return HeadingCandidate(
            i, label, LIST_ITEM_SCHEME, title, body, "heading", "runin", sep=" "
        )
    stripped = re.sub(r"^\s*>\s?", "", line).strip()
    found = match_number(stripped, "markdown", "plain")
    if not found:
        return None
    scheme, m = found
    rest = stripped[m.end() :].strip()
    if not rest or not re.match(r"[A-Z*\"“(_]", rest):
        return None
    heading, body, kind = split_title(rest)
    if scheme.name == "factor" and kind == "paragraph":
        return None  # "Factor 1 is more important than ...": a sentence, not a heading
    label = m.group("label")
    if scheme.name == "question":
        label = label.rstrip(":)").strip()  # "Q2:" -> "Q2"; "Question 1." keeps its dot
    return HeadingCandidate(
        i, label, scheme, heading, body, kind, "plain", 0, sequence_value(scheme, m)
    )


_EMPHASIS = r"(?:\*{1,3}|_{1,3})"
_RUNIN_INSIDE = re.compile(
    rf"^(?P<em>{_EMPHASIS})(?P<label>{LIST_ITEM_LABEL})\s+(?P<title>[^*_]{{1,90}}?)\s*(?P=em)"
    r"(?P<after>.*)$"
)
_RUNIN_OUTSIDE = re.compile(
    rf"^(?P<label>{LIST_ITEM_LABEL})\s+(?P<em>{_EMPHASIS})(?P<rest>[^*_].*)$"
)


def runin_list_heading(line: str) -> tuple[str, str, str] | None:
    """(label, heading, body) of a list item that opens with an emphasised run-in title, else
    None: ``a.  *Format.* Quotations shall ...``, ``1. *Quotation Validation Date*. ...``,
    ``*a. Evaluation Process.* The Government ...``, ``> i.  *Pricing Schedule.* ...``, and an
    emphasis left unclosed (``b. *Page Limits. The Technical ...``: the title ends at the first
    period). Word-processor outlines write sub-section titles this way under bold or numbered
    sections. The title must read as one (at most ten words, capitalised, no sentence verb).
    """
    text = re.sub(r"^\s*(?:>\s*)*", "", line).rstrip()
    text = re.sub(r"^(\w{1,5})\\\.", r"\1.", text)  # "a\. *Format.*": an escaped list dot
    inside = _RUNIN_INSIDE.match(text)
    if inside:
        label, title, after = inside.group("label"), inside.group("title"), inside.group("after")
    else:
        outside = _RUNIN_OUTSIDE.match(text)
        if not outside:
            return None
        label, em, rest = outside.group("label"), outside.group("em"), outside.group("rest")
        close = rest.find(em)
        if close > 0:
            title, after = rest[:close], rest[close + len(em) :]
        else:  # unclosed emphasis: the title runs to the first period
            cut = re.match(r"^(?P<t>[^.:?!]{1,90}?)[.:]\s+(?P<b>.*)$", rest)
            if not cut:
                return None
            title, after = cut.group("t"), cut.group("b")
    title = strip_inline_markdown(title).strip().rstrip(".:").strip()
    after = after.strip()
    lead = after[:1]
    after = after.lstrip(".:").strip()
    if lead not in ("", ".", ":") and not re.match(r"[A-Z(\"“]", after):
        return None  # "1. *Note* that ...": emphasis inside a sentence
    if not title or not title[0].isupper() or len(title.split()) > 10 or title.endswith("?"):
        return None
    if MODAL.search(title) or TRAILING_FUNCTION_WORD.search(title):
        return None
    return label, title, strip_inline_markdown(after)


_RUNIN_UNNUMBERED = re.compile(
    r"^(?P<em>\*|_)(?P<title>[A-Z][^*_.:?!]{1,60})[.:](?P=em)\s+(?P<b>[A-Z].*)$"
)


def _unnumbered_runin(line: str) -> tuple[None, str, str] | None:
    """(None, heading, body) of a paragraph that opens with an italic run-in title ending in a
    period (``*Rules.* The oral presentation ...``), else None. At most six words."""
    m = _RUNIN_UNNUMBERED.match(line.strip())
    if not m:
        return None
    title = m.group("title").strip()
    if len(title.split()) > 6 or MODAL.search(title) or TRAILING_FUNCTION_WORD.search(title):
        return None
    return None, title, strip_inline_markdown(m.group("b"))


def _bold_heading(lines: list[str], i: int, inner: str, after: str) -> HeadingCandidate | None:
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
    if not title or _TOC_HEAD.match(title) or not is_title(title, 10):
        return None
    if MODAL.search(title) or title.endswith("."):
        return None
    return HeadingCandidate(i, None, None, title, "", "heading", "bold")


def title_case(text: str) -> bool:
    """At least 60% of the words of four letters or more are capitalised (True without any)."""
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'’\-]*", text) if len(w) >= 4]
    if not words:
        return True
    return sum(1 for w in words if w[0].isupper()) / len(words) >= 0.6


def is_caps(text: str) -> bool:
    """At least 90% of the letters (two or more) are capitals."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 2 and sum(c.isupper() for c in letters) / len(letters) >= 0.9


def is_toc_body(body_lines: list[str]) -> bool:
    """Every paragraph is a link, a TOC entry or a dot-leader line (a link may wrap)."""
    content = [" ".join(p.split()) for p in "\n".join(body_lines).split("\n\n") if p.strip()]
    return all(
        _LINK_ONLY.match(ln) or TOC_ENTRY.match(ln.strip()) or DOT_LEADER.search(ln)
        for ln in content
    )
