"""The statement of work as outline units, and the work prose of a section body.

``scope_units`` is what the ScopeQuery embeds unit by unit (``retrieval.scope_query.
scope_sections``) and what the technical text is made of; which sections are units is the
section classifier's ``is_administration`` (``documents.section_kinds``).
"""

from __future__ import annotations

import re

from rfp_retrieval.documents.records import RfpDocument, Section
from rfp_retrieval.documents.section_kinds import SectionKinds
from rfp_retrieval.documents.summary import prose
from rfp_retrieval.documents.text import split_sentences, strip_inline_markdown

# Sentences that tell the offeror how to respond rather than describe the work ("The Vendor
# shall migrate ..." describes the work and stays).
_INSTRUCTION = re.compile(
    r"\b(?:offeror|proposer|bidder|respondent|vendor)s?(?:'s|’s)?\b[^.]{0,80}?\b(?:proposals?|"
    r"respond|responses?|submit(?:tal|ted)?|describe|explain|attachment|volume|page limit)\b|"
    r"\bresponse items?\b|\b(?:in|with) (?:its|their|your|the) (?:proposal|response)\b|"
    r"\bevaluated (?:under|in accordance)\b|\bconfirm compliance\b",
    re.I,
)
MIN_UNIT_CHARS = 150
"""Shortest scope unit embedded on its own; shorter sections join their parent's unit."""


def _table_rows(body: str) -> str:
    """The data rows of the Markdown tables in ``body`` as sentences ("a; b; c."): a
    statement of work is sometimes a task table. Header rows (followed by a ``---`` rule)
    and rule rows are skipped."""
    lines = [line.strip() for line in body.splitlines()]
    rows = []
    for i, line in enumerate(lines):
        if not line.startswith("|") or re.fullmatch(r"[|:\-\s]+", line):
            continue
        if i + 1 < len(lines) and re.fullmatch(r"\|?[\s:]*-{3,}[|:\-\s]*", lines[i + 1]):
            continue  # a header row
        cells = [strip_inline_markdown(c).strip() for c in line.strip("|").split("|")]
        cells = [c for c in cells if c]
        if cells:
            rows.append("; ".join(cells).rstrip(".") + ".")
    return " ".join(rows)


def work_prose(body: str) -> str:
    """``prose(body)`` plus its table rows (``_table_rows``), without the sentences that
    instruct the offeror ("Offerors shall respond to every numbered response item…", "… in
    its proposal"): they describe the bid, not the work, and would make every RFP look alike
    to the embedding. "The Vendor shall migrate …" describes the work and stays."""
    text = " ".join(t for t in (prose(body), _table_rows(body)) if t)
    return " ".join(s for s in split_sentences(text) if not _INSTRUCTION.search(s))


def scope_units(doc: RfpDocument, min_chars: int = MIN_UNIT_CHARS) -> list[tuple[str, str]]:
    """The statement of work as outline units: ``[(heading, text), ...]`` in document order.

    A unit is a titled section of the work (not background, Section L/M, pricing, references
    or other administration: ``SectionKinds.is_administration``, judged on its path below the
    document title, whole words) with
    its own prose and, merged in, every numbered paragraph and every child section too short
    to stand alone (under ``min_chars`` characters). Text is ``"<heading>. <prose>"`` with
    the offeror instructions removed (``work_prose``); a numbered paragraph is not prefixed
    with its heading, which is only its first sentence. The front matter before the first
    heading is used only when the document has no other unit. Returns [] for a document with
    no prose under its headings.
    """
    kinds = SectionKinds(doc)

    units: list[tuple[int, str, str]] = []
    front: list[tuple[int, str, str]] = []

    def visit(section: Section) -> str:
        """Adds the units under ``section``; returns its text when too short to stand alone."""
        if section.level > 0 and kinds.is_administration(section):
            for child in doc.children_of(section.key):
                visit(child)  # a scope section can sit under "Introduction"
            return ""
        parts = [work_prose(section.body or "")]
        parts += [visit(child) for child in doc.children_of(section.key)]
        text = " ".join(p for p in parts if p)
        if section.kind == "paragraph":
            return text
        if not text:
            return ""
        text = f"{section.heading}. {text}"
        if section.level == 0:
            if len(text) >= min_chars:
                front.append((section.line, section.heading, text))
            return ""
        if len(text) >= min_chars:
            units.append((section.line, section.heading, text))
            return ""
        return text

    for root in doc.children_of(None):
        visit(root)
    picked = sorted(units) or front
    if not doc.sections:  # no outline at all: the whole text is the one unit
        text = work_prose(doc.text)
        picked = [(0, doc.title, text)] if len(text) >= min_chars else []
    return [(heading, text) for _, heading, text in picked]
