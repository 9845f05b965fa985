"""The sentences of an RFP with their context, and the past-performance cues read on them.

``document_sentences(doc)`` gives every sentence with its section, whether the section is a
past-performance section (``documents.section_kinds.SectionKinds.is_past_performance``) and the
list lead-in it completes; ``pp_sentences`` keeps the past-performance ones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rfp_retrieval.documents.records import RfpDocument, Section
from rfp_retrieval.documents.section_kinds import SectionKinds
from rfp_retrieval.documents.text import split_sentences, strip_inline_markdown
from rfp_retrieval.quantities.numbers import COUNT
from rfp_retrieval.scope.section_lm.records import Statement

_REFERENCE = (
    r"\breferences\b|\beach reference\b|\breference (?:must|shall|should|will|may|is)\b|"
    r"\breferenced (?:contract|effort|project)"
)
PP_SENTENCE = re.compile(
    rf"past performance|{_REFERENCE}|(?:similar|corporate|prior|past) experience|"
    r"\b(?:projects?|efforts?|contracts?|engagements?|examples?)\b[^.]{0,80}\b(?:performed|"
    r"completed|built|delivered|ongoing)\b|experience in the (?:last|past)|"
    r"\bexamples of (?:similar |relevant |recent )?(?:projects|contracts|efforts|work)\b|"
    r"similar (?:in )?size,? scope",
    re.I,
)
WORK_NOUN = re.compile(
    r"\bexperience\b|\bengagements?\b|\bprojects?\b|\bcontracts?\b|\befforts?\b|"
    r"\bwork performed\b|\bservices (?:provided|delivered)\b",
    re.I,
)
DONE_WINDOW = re.compile(
    r"\b(?:performed|completed|delivered|provided|built|developed|ongoing|active|experience)\b"
    r"[^.]{0,120}\b(?:within|in|during|over|from|covering) (?:the )?(?:last|past|preceding|"
    r"previous|prior)\b",
    re.I,
)
PERSONNEL = re.compile(
    r"key personnel|\bresumes?\b|\b(?:project|product|program) manager\b|\b(?:technical|design|"
    r"team) lead\b|\barchitect\b|\bSMEs?\b|employed by|\bindividuals?\b|team members?|"
    r"\bcandidates?\b|proposed (?:staff|personnel)",
    re.I,
)
STRONG_MODAL = re.compile(
    r"\b(?:must|shall|should|only|required|are to be|is limited to|limited to)\b|"
    r"^(?:Submit|Provide|Include|List|Identify|Describe)\b",
    re.I,
)
_PROJECTS_ASKED = (
    # "describe up to three (3) relevant projects performed as ...", "identify three contracts
    # performed for ...": a count of past work the offeror is to describe is a reference ask
    rf"\b(?:up to |at least |a minimum of |no more than )?(?:{COUNT}|\d+)\s*(?:\(\d+\)\s*)?"
    r"(?:relevant |similar |recent |comparable |prior |past )?(?:projects|contracts|engagements|"
    r"efforts|task orders)\s+(?:\w+\s+){0,2}?(?:performed|completed|delivered)\b"
)
PP_STRONG = re.compile(
    rf"past performance|{_REFERENCE}|(?:similar|corporate|prior|past|relevant) experience|"
    rf"{_PROJECTS_ASKED}",
    re.I,
)


@dataclass
class DocumentSentence:
    """One sentence of an RFP with its section (``label``: the section path joined with
    `` > ``), whether it sits in a past-performance / references section (``pp``), and the
    list lead-in it completes (``"each reference shall:"``; for a table cell, the row's
    label such as ``"Very Relevant"``); ``cell`` is true for a sentence written in a table
    cell (a requirements-matrix row)."""

    text: str
    section: Section | None
    label: str
    pp: bool
    lead: str = ""
    cell: bool = False


def _label(doc: RfpDocument, section: Section | None) -> str:
    if section is None:
        return "(front matter)"
    return " > ".join(doc.section_path(section.key))


def document_sentences(doc: RfpDocument) -> list[DocumentSentence]:
    """Every sentence of ``doc`` in order: front matter, then each section's prose, list items
    and prose table cells (``cell=True``; headings and short cells such as "No." or "Yes"
    dropped).

    A requirement written in a table row ("| 2 | Provide three past performance references
    ... |", a compliance matrix or questionnaire) is as binding as the same sentence in prose,
    so a cell of ``CELL_MIN_WORDS`` words or more is read as its own paragraph."""
    kinds = SectionKinds(doc)
    out: list[DocumentSentence] = []

    first_line = doc.sections[0].line if doc.sections else len(doc.text.splitlines()) + 1
    front = "\n".join(doc.text.splitlines()[: first_line - 1])
    for block in _blocks(front):
        for s in split_sentences(block):
            out.append(DocumentSentence(s, None, "(front matter)", False))
    for cell, label in _table_cells(front):
        for s in split_sentences(strip_inline_markdown(cell)):
            out.append(DocumentSentence(s, None, "(front matter)", False, label, cell=True))
    for section in doc.sections:
        section_pp = kinds.is_past_performance(section)
        label = _label(doc, section)
        lead = ""
        titled_pp = False  # under a title line such as "Vendor Experience" inside the section
        for cell, row_label in _table_cells(section.body):
            for s in split_sentences(strip_inline_markdown(cell)):
                out.append(DocumentSentence(s, section, label, section_pp, row_label, cell=True))
        for block in _blocks(section.body):
            is_item = bool(re.match(r"^(?:[-*+•]|\d{1,2}[.)]|\(?[a-z]{1,3}[.)])\s", block))
            text = re.sub(r"^(?:[-*+•]|\d{1,2}[.)]|\(?[a-z]{1,3}[.)])\s+", "", block)
            plain = strip_inline_markdown(text)
            if _TITLE_LINE.match(plain):
                titled_pp = bool(PP_HEADING.search(plain))
            run_in = _RUN_IN.match(text)
            block_pp = (
                section_pp or titled_pp or bool(run_in and PP_HEADING.search(run_in.group(1)))
            )
            for s in split_sentences(plain):
                out.append(DocumentSentence(s, section, label, block_pp, lead if is_item else ""))
            if plain.endswith(":"):
                lead = plain
            elif not is_item:
                lead = ""
    return out


PP_HEADING = re.compile(
    r"past performance|\breferences?\b|\bexperience\b|\bqualifications\b|case stud", re.I
)
"""A title or run-in heading inside a section that makes what follows past-performance text
("*Similar Experience.*", "Vendor Experience/Skill", "References:")."""
# a short line with no sentence punctuation: a title inside a section body
_TITLE_LINE = re.compile(r"^[A-Z][\w’'/&,\- ]{2,60}$")
# a bold or italic run-in heading at the start of a paragraph: "*Similar Experience.* The ..."
_RUN_IN = re.compile(r"^\*{1,2}([^*]{3,60}?)[.:]?\*{1,2}[.:]?\s")


def _blocks(body: str) -> list[str]:
    """Paragraphs and list items of a body (table rows and headings dropped)."""
    blocks: list[str] = []
    current: list[str] = []

    def flush() -> None:
        if current:
            blocks.append(" ".join(current))
            current.clear()

    for line in body.splitlines():
        s = line.strip()
        if not s:
            flush()
            continue
        if s.startswith(("|", "#")) or s.count("|") >= 2:
            flush()
            continue
        if re.match(r"^(?:[-*+•]|\d{1,2}[.)]|\(?[a-z]{1,3}[.)]|[A-Z][.)])\s", s):
            flush()
        current.append(s)
    flush()
    return blocks


CELL_MIN_WORDS = 6
"""A table cell of this many words or more is prose (a requirement sentence); shorter cells
are labels, numbers and check marks."""
_SEPARATOR_ROW = re.compile(r"^\|?[\s:|-]+\|?$")


def _table_cells(body: str) -> list[tuple[str, str]]:
    """The prose cells (``CELL_MIN_WORDS`` words or more) of the markdown table rows of a
    body, in order, each with its row label: the row's first cell when it is a short label
    such as "Very Relevant" ("" for a number, an empty cell or a prose first cell)."""
    cells: list[tuple[str, str]] = []
    for line in body.splitlines():
        s = line.strip()
        if not (s.startswith("|") or s.count("|") >= 2) or _SEPARATOR_ROW.match(s):
            continue
        row = [c.strip() for c in s.strip("|").split("|")]
        first = strip_inline_markdown(row[0]) if row else ""
        label = (
            first
            if first and len(first.split()) < CELL_MIN_WORDS and re.search(r"[A-Za-z]{3}", first)
            else ""
        )
        for cell in row:
            if len(cell.split()) >= CELL_MIN_WORDS:
                cells.append((cell, label))
    return cells


def stated(s: DocumentSentence, phrase: str) -> Statement:
    """The ``Statement`` of ``phrase`` read in sentence ``s``."""
    return Statement(
        text=phrase.strip(),
        sentence=s.text,
        section=s.label,
        section_key=s.section.key if s.section is not None else None,
    )


def pp_sentences(sentences: list[DocumentSentence]) -> list[DocumentSentence]:
    """The past-performance sentences: in a PP / references section or naming references,
    past performance or similar experience, and not about key personnel."""
    return [
        s
        for s in sentences
        if (s.pp or PP_SENTENCE.search(s.text)) and not PERSONNEL.search(s.text)
    ]
