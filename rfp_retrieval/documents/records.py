"""Typed records of an RFP document: its outline and where each piece of text came from."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field


class DocumentError(Exception):
    """An RFP file that cannot be read. ``path`` names the file, ``reason`` says what to do.

    Raised for unsupported formats, encrypted or corrupt files, and documents with no text
    layer. One bad document fails only its own partition.
    """

    def __init__(self, path: str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


@dataclass
class Section:
    """One node of the RFP outline.

    ``number`` is the label as written (``3.4.7``, ``L.4.2.1``, ``IV.B.2``, ``Sec. 1.04``) or
    None for an unnumbered heading; ``parent`` is the ``key`` of the enclosing section;
    ``line`` is the 1-based line of the heading in ``RfpDocument.text``; ``page`` the 1-based PDF
    page it sits on. ``kind`` is ``"heading"`` for a titled section and ``"paragraph"`` for a
    numbered paragraph of running text (``3.1.4 Describe your approach...``, ``Question 12. ...``),
    whose ``heading`` is then its first sentence and whose ``body`` holds the whole paragraph.
    ``title`` is the heading line as written, number and separator included (``Section L —
    Instructions to Offerors``, ``4. Technical Questionnaire``); ``RfpDocument.section_path``
    renders it. Empty for a numbered paragraph (the path then shows ``number heading``).
    """

    key: str
    number: str | None
    heading: str
    level: int
    parent: str | None
    body: str
    line: int
    page: int | None = None
    kind: str = "heading"
    title: str = ""


@dataclass
class RfpDocument:
    """An extracted RFP: clean text, outline, title, issue date and a one-paragraph summary.

    ``pages_without_text`` lists 1-based PDF pages with no text: no text layer and not read by
    OCR (Tesseract not installed, or it read nothing). ``ocr_pages`` maps each 1-based page
    read by OCR to Tesseract's mean word confidence in percent (0..100).
    ``issue_date_unread`` is the issue date as written when the RFP states one that cannot be
    read (``'30/11/2026'``; ``issue_date`` is then None), else None.
    ``page_starts`` gives, for a PDF, the 1-based line of ``text`` where each page begins.
    ``source_rows`` gives, for a questionnaire (CSV, XLSX), the 1-based row of the file (the
    sheet row, the CSV line a record starts on) of each line of ``text``, 0 for a line that is
    no row (a blank, a sheet's name); empty for other formats (``cited_line``).
    Markdown and DOCX text is Markdown-flavoured (``#`` headings, ``|``-separated table rows).
    """

    path: str
    format: str  # "markdown" | "text" | "docx" | "pdf" | "csv" | "xlsx" | "json"
    title: str
    text: str
    sections: list[Section]
    summary: str
    issue_date: dt.date | None = None
    issue_date_unread: str | None = None  # an issue date stated but unreadable, as written
    pages_without_text: list[int] = field(default_factory=list)
    ocr_pages: dict[int, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    page_starts: list[int] = field(default_factory=list)
    source_rows: list[int] = field(default_factory=list)

    def cited_line(self, line: int | None) -> int | None:
        """Where a reader finds 1-based ``line`` of ``text`` in the file itself: the sheet
        or CSV row of a questionnaire line (``source_rows``), else ``line`` unchanged (None
        stays None; so does a line past the end of ``source_rows``)."""
        if line is None or not self.source_rows:
            return line
        if 1 <= line <= len(self.source_rows) and self.source_rows[line - 1]:
            return self.source_rows[line - 1]
        return line

    # -- the outline API: every walk over the section tree goes through these ---------------

    def _index(self) -> dict[str, Section]:
        """``key -> Section``, rebuilt when ``sections`` is replaced or changes length."""
        cached = self.__dict__.get("_by_key")
        stamp = (id(self.sections), len(self.sections))
        if cached is None or cached[0] != stamp:
            cached = (stamp, {s.key: s for s in self.sections})
            self.__dict__["_by_key"] = cached
        return cached[1]

    def section(self, key: str | None) -> Section | None:
        """The section with ``key``, or None for None or an unknown key."""
        return self._index().get(key) if key else None

    def parent_of(self, section: Section) -> Section | None:
        """The enclosing section of ``section``, or None at the root (or a dangling parent)."""
        return self.section(section.parent)

    def ancestors(self, section: Section | str | None, include_self: bool = True) -> list[Section]:
        """``section`` (a Section or its key) and its enclosing sections, nearest first.

        Returns ``[]`` for None or an unknown key; ``include_self=False`` starts at the parent.
        Stops at a dangling parent key. Shape: a list of Section, root last.
        """
        node = self.section(section) if isinstance(section, str) or section is None else section
        chain: list[Section] = []
        seen: set[str] = set()
        while node is not None and node.key not in seen:
            seen.add(node.key)
            chain.append(node)
            node = self.parent_of(node)
        return chain if include_self else chain[1:]

    def children_of(self, key: str | None) -> list[Section]:
        """Sections whose parent is ``key`` (None: the roots and dangling parents), in order."""
        index = self._index()
        if key is None:
            return [s for s in self.sections if s.parent not in index]
        return [s for s in self.sections if s.parent == key]

    def section_path(self, key: str) -> list[str]:
        """Headings from the root down to section ``key`` (inclusive), each as written.

        A section renders as its ``title`` (``Section IV — Technical Requirements``), else as
        ``number heading``; an unknown ``key`` gives ``[]``.
        """
        return [section_label(node) for node in reversed(self.ancestors(key))]


def section_label(section: Section) -> str:
    """A section as a path element: its ``title`` as written, else ``number heading``."""
    if section.title:
        return section.title
    return f"{section.number} {section.heading}".strip() if section.number else section.heading


@dataclass
class Question:
    """One ask a proposal must answer (a question or a requirement), found in an RFP.

    ``label`` is the label as written (``3.4.7``, ``Q3``, ``(a)``, a questionnaire row id) or
    None; ``text`` is verbatim from the document; ``section_path`` lists the headings from the
    root to the enclosing section (as ``RfpDocument.section_path`` renders them);
    ``kind`` is ``question`` | ``requirement`` | ``table-row`` | ``evaluation-criterion`` (an
    ask) or ``work-statement`` | ``procurement-process`` | ``general-compliance`` |
    ``standard-provision`` (kept, not answered: ``ask_kinds.matrix_kind``); ``topic`` is the
    table column/row header or questionnaire domain that gives a table row its implicit
    context; ``context`` holds the paragraphs of the section before the question;
    ``references`` holds the keys of sections the question cross-references ("Section 2.2").
    ``parts`` are the list items of a compound ask (a prompt ending with ``:``) and
    ``part_labels`` their markers as the document numbers them (``1``, ``a``, ``iv``; None for
    a bullet), one per part (issue 13: parse, matrix and brief cite the document's numbers).
    ``line``/``page`` locate it (1-based). ``limit`` is the response limit a response table's
    limit column gives the row (``3 pages``, ``500 words``, as written), else the one the ask's
    own text states (``limits.response_limit``: "shall not exceed 30 pages" -> ``30 pages``);
    None when none.
    """

    id: str
    label: str | None
    text: str
    section_key: str | None
    section_path: list[str]
    kind: str = "question"
    topic: str | None = None
    context: str = ""
    references: list[str] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)
    part_labels: list[str | None] = field(default_factory=list)
    line: int | None = None
    page: int | None = None
    limit: str | None = None
