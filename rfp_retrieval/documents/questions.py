"""Every ask a proposal must answer, found in an extracted RFP: the compliance-matrix reading.

``find_questions(doc)`` walks the outline and the clean text of an ``RfpDocument`` and returns
``records.Question`` items in document order. What counts as an ask (the rules a proposal
manager applies when shredding an RFP):

- a **numbered paragraph** (outline ``kind == "paragraph"``: ``3.1.4 Describe ...``,
  ``L.4.2.1 ...``, ``IV.B.2 ...``, ``Question 12. ...``) that asks or requires something: the
  whole first paragraph is the text, its number is the label, and its section is the enclosing
  heading (``3.1 Solution Architecture and Hosting``);
- a **sentence** that asks: ``Describe / Provide / Explain / Identify / Discuss ...``
  imperatives (also after ``Please``, after a leading ``For each reference,`` clause, and as
  ``The Offeror shall describe ...``), and questions ending in ``?``. Sentences that continue an
  ask (``If so, ...``, ``Include ...``) stay with it;
- a **requirement**: a ``shall`` / ``must`` sentence outside clause, definition and Q&A text,
  and a procedural imperative (``Submit ...``, ``Include resumes ...``) (kind
  ``requirement``, for the compliance matrix; the rewriter and answer retrieval usually keep
  ``question`` and ``table-row`` only);
- an evaluator's question about the offeror (``Does the contractor describe ...?``, ``Were
  the titles ... included?``) and a ``will be evaluated`` sentence inside Section M /
  evaluation text (kind ``evaluation-criterion``); an imperative ask stays a ``question``
  wherever it stands;
- a **table row** that demands a response (kind ``table-row``): the table has a response
  column (``Response``, ``Answer``, ``Comply``, ``Explanation``...) or the row's question cell
  asks. The label comes from an ID column (``Control ID``, ``Req. ID``, ``No.``), the topic
  from a grouping column (``Domain``, ``Category``), a row header, or (questionnaires) the
  enclosing section.

A prompt that ends with ``:`` and is followed by list items (``(a)``, ``a.``, ``i.``, bullets)
is one compound question whose ``parts`` are the items. ``references`` holds the keys of
sections the text cross-references (``Section 2.4``, ``C.3.3``, ``Section L.3.6``, ``M.5``,
``Section II.A``, ``Appendix B``) when the document has them. ``context`` is the section's
text before the ask, at most ``CONTEXT_WORDS`` words (the first paragraph, then the nearest).

Sources of the rules: proposal practice of "shredding" an RFP into a compliance matrix, the
Uniform Contract Format (FAR 15.204-1: Section L instructions, Section M evaluation factors),
and the wording of the shared solicitations (``../shared/data``).

Q&A pairs that are already answered (``Question 3: ... Answer: ...`` in an amendment) are not
asks and are skipped. Deterministic; never raises for an unusual document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rfp_retrieval.documents.ask_kinds import matrix_kind
from rfp_retrieval.documents.ask_patterns import (
    ABOUT_OFFEROR,
    ANSWERED,
    BULLET,
    CONTINUATION,
    EVALUATED,
    LEADING_LABEL,
    LIST_MARKER,
    PRESENT_TENSE_ASK,
    PROCEDURAL_ASK,
    PROCEDURAL_VERBS,
    PROPOSAL_PART_ASK,
    QUESTION_WORD,
    REQUIREMENT_ID,
    RESPONSE_COLUMN_LINE,
    SECOND_PERSON,
    XREF,
    is_ask,
    is_procurement_process,
    is_requirement,
    refers_back,
)
from rfp_retrieval.documents.limits import response_limit
from rfp_retrieval.documents.numbering import LIST_ITEM_LABEL, normalise_number
from rfp_retrieval.documents.questionnaire import QUESTIONNAIRE_FORMATS as QUESTIONNAIRE_EXTENSIONS
from rfp_retrieval.documents.records import Question, RfpDocument, Section
from rfp_retrieval.documents.response_tables import (
    GENERIC_HEADERS,
    ColumnRoles,
    cells_repeat_header,
    column_roles,
    header_index,
    is_separator,
    row_cells,
    spanning_label,
)
from rfp_retrieval.documents.section_kinds import SectionKinds
from rfp_retrieval.documents.text import split_sentences, strip_inline_markdown

PLEASE_CONTINUATION = re.compile(r"^please\b", re.I)
"""A ``Please consider ...`` / ``Please note ...`` sentence right after a question, asking for
nothing of its own, says what the answer to that question should weigh: it stays with it."""

RUN_IN_TOPIC = re.compile(r"^[A-Z][^.?!:]{0,60}?\s(?:--|[-\u2013\u2014])\s+(?=[A-Z])")
"""A list item that opens with a run-in topic and a dash (``Testing -- Describe your philosophy
of testing ... Describe how you envision ...``): its questions are one compliance line, the
topic's (``_Finder.walk_sentences``)."""


def _unmarked_question(sentence: str) -> bool:
    """A question to "you" written without its question mark (``How will you handle team
    communication.``): it asks nothing by its own form, so it continues the question before
    it (``_Finder.walk_sentences``)."""
    s = strip_inline_markdown(sentence).strip()
    return not s.endswith("?") and bool(QUESTION_WORD.match(s)) and bool(SECOND_PERSON.search(s))


_TITLE_LINE = re.compile(
    r"(?:[A-Z][\w'’/&-]*|and|of|for|the|to|or|in)(?:\s+(?:[A-Z][\w'’/&-]*|and|of|"
    r"for|the|to|or|in)){0,5}"
)
"""A short Title Case line without a final stop (``General Information``, ``Quotation
Format``): after a capital-letter marker, a sub-heading, not content (``_Finder.content_item``)."""

AMENDS_THE_TEXT = re.compile(
    r"\b(?:paragraph|clause|provision|section)\s+\(?[\w.]{1,6}\)?\s+(?:entitled|titled)\b"
    r"|\b(?:is|are)\s+(?:hereby\s+)?(?:deleted|tailored|amended|replaced|revised)\b",
    re.I,
)
"""An item that tailors the document's own text (``Paragraph (e) entitled "Multiple Offers"
is deleted in its entirety``, ``Paragraph (c) ... is tailored to read: ...``): how a provision
reads now, no content of the proposal (``_Finder.content_item``)."""

_CONTRACTOR_SHOULD = re.compile(r"^(?:the\s+)?contractor\s+should\b", re.I)
"""``Contractor should include any special needs ...`` after ``The Contractor shall submit a list
of equipment ...``: "should" with the singular contractor asks nothing by itself
(``ask_patterns._CONTRACTOR``), so it says more about the ask before it
(``_Finder.walk_sentences``)."""

CONTENT_ITEM_WORDS = 30
"""Longest list item of instructions text read as required content (``_Finder.content_item``)."""

HEADING_PAGE_LIMIT = re.compile(
    r"\((?:(?:page\s+)?limit(?:ed to)?\s*[:=-]?\s*|not to exceed\s+|maximum(?: of)?\s*:?\s*|"
    r"max\.?\s*:?\s*|no more than\s+|up to\s+)?(?:\w+\s+)?\(?\d{1,3}\)?[- ]?pages?"
    r"(?:\s+(?:maximum|max\.?|limit|or less))?(?:\s*[,;]\s*[^()]{1,60})?\)",
    re.I,
)
"""A page limit printed in a heading (``Tab B – Technical Approach (limit: 5 pages)``,
``Management Plan (10-page limit)``, ``(not to exceed 3 pages)``, ``(5 pages maximum)``,
also with what the limit leaves out: ``(limit: 20 pages, excluding resumes)``): an
instruction of its own (issue 13). ``(no page limit)`` states none."""

LIMIT_HEADER = re.compile(
    r"^(?:(?:page|word|character|length|response|time)\s+)?(?:limit|max(?:imum)?\.?)"
    r"(?:\s+(?:pages|words|characters|length|minutes))?\b.{0,20}$"
    r"|^(?:max(?:imum)?\.?|no\.? of|number of)\s+(?:pages|words|characters)\b.{0,20}$",
    re.I,
)
"""The header of a response table's limit column (``Page limit``, ``Max pages``, ``Word
limit``, ``Maximum words (per question)``): each row's cell is that row's response limit, an
instruction of its own for the matrix line (``_row_limit``; proposal practice: the limit
stands beside each question it binds)."""

STAGE_NAME = re.compile(
    r"^(?:phase|step|stage|round|tier)\s+(?:\d{1,2}|[ivx]{1,4}|one|two|three|four|five)\b"
    r"(?:\s*[-\u2013\u2014:]\s*(?:[\w/&,()'’-]+\s*){1,6})?\.?$",
    re.I,
)
"""A list item that only names a stage of a phased evaluation (``Phase 1 – Technical
Submission``, ``Step 2: Oral Presentation``): the list says how the buyer proceeds; what
each stage's submission holds is asked in its own text (``QuestionFinder.content_item``)."""

_PROCEDURAL_WORD = re.compile(rf"\b(?:{PROCEDURAL_VERBS}|contain|consist of)\b", re.I)
"""An enclosure verb in a ``PROPOSAL_PART_ASK`` (include, contain, submit ...): a requirement;
a writing verb (describe, indicate ...) makes it a question."""

CONTEXT_WORDS = 120
"""Upper bound on ``Question.context`` length in words."""

EXCLUSION = re.compile(
    r"^[\s*_\"“(]*(?!(?:if|when|where|unless|although|while|because|since|whether)\b)"
    r"(?:[\w'’/-]+\s+){0,5}?(?:"
    r"(?:will|shall|is|are|would)\s+not\s+(?:be\s+)?"
    r"(?:required|responsible|expected|obligated|asked)\s+(?:to|for)\b"
    r"|(?:need|needs)\s+not\b|(?:does|do|will)\s+not\s+(?:need|have)\s+to\b"
    r"|(?:is|are)\s+(?:out\s+of|outside(?:\s+(?:of|the))*)\s+(?:the\s+)?scope\b"
    r"|out[- ]of[- ]scope\s*:|excluded\s*(?:from\b[^:]*)?:|exclusions?\s*:"
    r"|(?:is|are)\s+not\s+(?:in|within|part\s+of)\s+(?:the|this)\s+scope\b)",
    re.I,
)
"""An exclusion lead-in: the sentence (and, when it ends with ``:``, its list items) says
what the offeror does NOT have to do ("The vendor will not be required to: ... Provide
hosting of the data", "The contractor is not responsible for ...", "The following are out
of scope:", "Excluded:"), so it is no ask. It leads the sentence (at most five words, no
comma, before it; not a subordinate "If / When / Where ..." clause): "... must mirror
production, except that it need not be certified" and "If X is not required ..." stay asks
(proposal practice: a compliance matrix lists what the offeror must answer or meet, never
the exclusions)."""

QUESTIONNAIRE_FORMATS = tuple(dict.fromkeys(QUESTIONNAIRE_EXTENSIONS.values()))
"""``RfpDocument.format`` of a questionnaire (``csv``, ``xlsx``, ``json``): one per reader."""


@dataclass
class _Block:
    """A paragraph, list item or table of the clean text (0-based line indexes)."""

    kind: str  # "prose" | "item" | "table" | "answer"
    start: int
    lines: list[str]
    marker: str | None = None

    @property
    def text(self) -> str:
        joined = " ".join(line.strip() for line in self.lines)
        if self.marker is not None:
            if joined.lstrip().startswith(self.marker) and REQUIREMENT_ID.match(joined):
                joined = REQUIREMENT_ID.sub("", joined, count=1)
            else:
                joined = LIST_MARKER.sub("", joined, count=1)
        return strip_inline_markdown(joined)


# --------------------------------------------------------------------------------------------
# public API


def find_questions(doc: RfpDocument) -> list[Question]:
    """Every question, requirement, evaluation criterion and response-table row of ``doc``.

    Returns ``records.Question`` items in document order with ids ``q-001``, ``q-002`` ...
    (stable for the same document text). ``label`` is the label as written or None; ``text``
    is verbatim (whitespace and inline Markdown normalised); ``section_key`` is the enclosing
    heading section (a numbered paragraph's parent) and ``section_path`` is
    ``doc.section_path(section_key)``; ``kind`` is ``question`` | ``requirement`` |
    ``table-row`` | ``evaluation-criterion`` (an ask: ``ask_kinds.ASK_KINDS``) or a kind the
    proposal does not answer (``work-statement``, ``procurement-process``,
    ``general-compliance``, ``standard-provision``): ``ask_kinds.matrix_kind``, the
    compliance matrix's rule, so every reader of the questions sees the matrix's kind;
    ``line`` is 1-based in ``doc.text``; ``page`` is the PDF page (from
    ``doc.page_starts``) or None. Never raises for an unusual document: an outline without
    asks gives ``[]``.
    """
    finder = _Finder(doc)
    found = finder.run()
    found.sort(key=lambda q: (q.line or 0, q.id))
    out: list[Question] = []
    for i, q in enumerate(found, start=1):
        q.id = f"q-{i:03d}"
        q.kind = matrix_kind(doc, finder.kinds, q)  # one rule with the compliance matrix
        out.append(q)
    return out


# --------------------------------------------------------------------------------------------
# the walk


class _Finder:
    def __init__(self, doc: RfpDocument):
        self.doc = doc
        self.lines = doc.text.splitlines()
        self.sections = sorted(doc.sections, key=lambda s: s.line)
        self.kinds = SectionKinds(doc)
        self.questionnaire = doc.format in QUESTIONNAIRE_FORMATS
        self.numbers: dict[str, str] = {}
        for s in self.sections:
            if s.number:
                self.numbers.setdefault(normalise_number(s.number, reference=True), s.key)
        self.found: list[Question] = []
        self.paths: dict[str, list[str]] = {}
        self.flags: dict[str, tuple[bool, bool]] = {}

    # -- helpers ----------------------------------------------------------------------------

    def owner(self, section: Section | None) -> Section | None:
        """The nearest heading-kind section at or above ``section`` (``doc.ancestors``)."""
        return next((s for s in self.doc.ancestors(section) if s.kind != "paragraph"), None)

    def path(self, section: Section | None) -> list[str]:
        if section is None:
            return []
        if section.key not in self.paths:
            self.paths[section.key] = self.doc.section_path(section.key)
        return self.paths[section.key]

    def section_flags(self, section: Section | None) -> tuple[bool, bool]:
        """(in evaluation text, in clause/definition text) for ``section`` and its ancestors
        (``SectionKinds.is_evaluation`` / ``is_clauses``)."""
        if section is None:
            return False, False
        if section.key not in self.flags:
            self.flags[section.key] = (
                self.kinds.is_evaluation(section),
                self.kinds.is_clauses(section),
            )
        return self.flags[section.key]

    def page(self, line0: int) -> int | None:
        starts = self.doc.page_starts
        if not starts:
            return None
        line1 = line0 + 1
        best = None
        for n, start in enumerate(starts, start=1):
            if start and start <= line1:
                best = n
        return best

    def references(self, text: str, own: Section | None) -> list[str]:
        keys: list[str] = []
        for m in XREF.finditer(text):
            raw = m.group("n") or m.group("u") or m.group("r") or m.group("a")
            key = self.numbers.get(normalise_number(raw, reference=True))
            if key is None and m.group("n") and "." in raw:
                key = self.numbers.get(normalise_number(raw.rstrip("."), reference=True))
            if key is not None and key not in keys and (own is None or key != own.key):
                keys.append(key)
        return keys

    def context(self, owner: Section | None, before_line0: int) -> str:
        """Prose of ``owner``'s span before line ``before_line0``, capped at CONTEXT_WORDS."""
        if owner is None:
            return ""
        start = owner.line  # the heading line itself is not context (0-based: owner.line - 1)
        paragraphs: list[str] = []
        current: list[str] = []
        for raw in self.lines[start:before_line0]:
            s = raw.strip()
            if not s or s.startswith(("|", "#")):
                if current:
                    paragraphs.append(" ".join(current))
                    current = []
                continue
            if re.fullmatch(r"\*\*[^*]+\*\*:?", s):
                continue  # a bold label line ("**Offeror Response Items**")
            current.append(s)
        if current:
            paragraphs.append(" ".join(current))
        paragraphs = [strip_inline_markdown(p) for p in paragraphs if p]
        # earlier asks of the section are siblings, not context
        paragraphs = [
            p for p in paragraphs if len(p.split()) >= 3 and not is_ask(LEADING_LABEL.sub("", p))
        ]
        if not paragraphs:
            return ""
        total = sum(len(p.split()) for p in paragraphs)
        if total <= CONTEXT_WORDS:
            return " ".join(paragraphs)
        first = " ".join(paragraphs[0].split()[: CONTEXT_WORDS // 2])
        budget = CONTEXT_WORDS - len(first.split())
        tail: list[str] = []
        for p in reversed(paragraphs[1:]):
            n = len(p.split())
            if n > budget:
                break
            tail.insert(0, p)
            budget -= n
        return " ".join([first, *tail])

    def add(
        self,
        *,
        label: str | None,
        text: str,
        owner: Section | None,
        kind: str,
        line0: int,
        topic: str | None = None,
        parts: list[str] | None = None,
        part_labels: list[str | None] | None = None,
        own: Section | None = None,
        limit: str | None = None,
    ) -> Question:
        text = re.sub(r"\s+", " ", text).strip()
        if not parts:
            text, parts, part_labels = _inline_chain(text)
        label = _cited_label(label, owner, own)
        q = Question(
            id="",
            label=label,
            text=text,
            section_key=owner.key if owner else None,
            section_path=self.path(owner),
            kind=kind,
            topic=topic,
            context=self.context(owner, line0),
            references=self.references(" ".join([text, *(parts or [])]), own),
            parts=list(parts or []),
            part_labels=_aligned(part_labels, parts),
            line=line0 + 1,
            page=self.page(line0),
            limit=limit or response_limit(text),
        )
        self.found.append(q)
        return q

    # -- walk -------------------------------------------------------------------------------

    def run(self) -> list[Question]:
        if not self.sections:
            self.walk_blocks(self.blocks(0, len(self.lines)), None, None)
            return self.found
        first = self.sections[0].line - 1
        if first > 0:
            self.walk_blocks(self.blocks(0, first), None, None)
        for idx, section in enumerate(self.sections):
            start = section.line - 1
            end = (
                self.sections[idx + 1].line - 1 if idx + 1 < len(self.sections) else len(self.lines)
            )
            if start >= len(self.lines):
                continue
            self.walk_section(section, start, max(end, start + 1))
        return self.found

    def walk_section(self, section: Section, start: int, end: int) -> None:
        owner = self.owner(section if section.kind == "heading" else self.doc.parent_of(section))
        all_blocks = self.blocks(start, end)
        answer_at = next((k for k, b in enumerate(all_blocks) if b.kind == "answer"), None)
        if answer_at is not None:
            # an answered Q&A pair (amendment): the vendor's question is not an ask; the
            # answer may amend the RFP, so its requirements are read
            answers = [
                _Block("prose", b.start, b.lines) if b.kind == "answer" else b
                for b in all_blocks[answer_at:]
            ]
            self.walk_blocks(answers, owner, section)
            return
        if section.kind == "paragraph":
            blocks = all_blocks
            if not blocks:
                return
            head, rest = blocks[0], blocks[1:]
            text = _strip_label(
                head.text if head.marker is None else " ".join(head.lines), section.number
            )
            kind = self.kind_of(text, owner)
            if kind is not None and len(split_sentences(text)) > 1:
                # a numbered paragraph of several sentences: each ask of it is a row, as in
                # prose (a proposal manager shreds "2.5 Offerors are required to ... For each
                # title, offeror must provide ..." into two lines of the matrix)
                last = self.walk_sentences(head, owner, label=section.number, own=section)
                if last is not None and introduces_list(last.text) and not last.parts:
                    parts, used = self.parts_after(last.text, rest)
                    last.parts = parts
                    last.part_labels = _block_labels(rest[:used])
                    if parts:
                        last.references = self.references(
                            " ".join([last.text, *parts]), own=section
                        )
                    rest = rest[used:]
            elif kind is not None:
                parts, used = self.parts_after(text, rest)
                self.add(
                    label=section.number,
                    text=text,
                    owner=owner,
                    kind=kind,
                    line0=head.start,
                    parts=parts,
                    part_labels=_block_labels(rest[:used]),
                    own=section,
                )
                rest = rest[used:]
            elif kind is None:
                self.walk_sentences(head, owner, label=section.number, own=section)
                if _excludes(text):
                    while rest and rest[0].kind == "item":
                        rest = rest[1:]  # the excluded items
            self.walk_blocks(rest, owner, section)
            return
        # a heading: the heading line itself may ask ("### Question 9. Is data ...?")
        heading_line = self.lines[start]
        if section.number and is_ask(section.heading):
            self.add(
                label=section.number,
                text=section.heading,
                owner=self.owner(self.doc.parent_of(section)),
                kind=self.kind_of(section.heading, section) or "question",
                line0=start,
                own=section,
            )
        elif section.heading and HEADING_PAGE_LIMIT.search(section.heading):
            # "Tab B – Technical Approach (limit: 5 pages)": the limit is an instruction the
            # proposal must keep, printed in the heading
            self.add(
                label=section.number,
                text=strip_inline_markdown(heading_line).strip().lstrip("#").strip(),
                owner=owner,
                kind="requirement",
                line0=start,
                own=section,
            )
        remainder = _after_heading(heading_line, section.heading)
        blocks = self.blocks(start + 1, end)
        if remainder and blocks and blocks[0].kind == "prose" and blocks[0].start == start + 1:
            blocks[0] = _Block("prose", start, [remainder, *blocks[0].lines])  # wrapped on
        elif remainder:
            blocks.insert(0, _Block("prose", start, [remainder]))
        # "L.6.2 Recency: performance must ...": the text run in after the title is the
        # numbered paragraph itself, so its asks carry the section's number
        lead = section.number if remainder else None
        self.walk_blocks(blocks, owner, section, lead_label=lead)

    def answered(self, blocks: list[_Block], index: int) -> bool:
        """True when the block after ``index`` answers it (an amendment's Q&A pair)."""
        nxt = blocks[index + 1] if index + 1 < len(blocks) else None
        return nxt is not None and nxt.kind == "answer"

    def kind_of(self, text: str, owner: Section | None) -> str | None:
        evaluation, clause = self.section_flags(owner)
        first = split_sentences(text)[:1]
        lead = first[0] if first else text
        if EXCLUSION.match(strip_inline_markdown(lead)) and (
            lead.rstrip().endswith(":") or len(split_sentences(text)) <= 1
        ):
            return None  # "The vendor will not be required to: ..." is no ask
        if is_ask(lead) or (text.rstrip().endswith("?") and len(text.split()) >= 3):
            plain = strip_inline_markdown(lead)
            if not plain.endswith("?") and PROCEDURAL_ASK.match(plain):
                return "requirement"  # "Submit ...", "Include resumes ..."
            if QUESTION_WORD.match(lead) and ABOUT_OFFEROR.search(lead):
                if not SECOND_PERSON.search(lead):
                    return "evaluation-criterion"  # the evaluator's checklist question
            return "question"
        if evaluation and EVALUATED.search(lead):
            return "evaluation-criterion"
        plain_lead = strip_inline_markdown(lead).strip()
        if owner is not None and PRESENT_TENSE_ASK.match(plain_lead):
            if self.kinds.is_instructions(owner):
                return "question"  # "Offerors provide an executive summary ..." in Section L
        if owner is not None and PROPOSAL_PART_ASK.match(plain_lead):
            if self.kinds.is_instructions(owner) or self.kinds.is_past_performance(owner):
                # "The summary should also include live links ...": what a part holds
                return "requirement" if _PROCEDURAL_WORD.search(plain_lead) else "question"
        if not clause and is_requirement(lead):
            return "requirement"
        return None

    def content_item(self, block: _Block, owner: Section | None) -> bool:
        """A short list item of instructions text that asks nothing by its own wording
        (``• Attachment I (signed and completed)`` under ``8.1 Minimum Pre-Qualifications:``):
        in Section L every listed item is content the proposal must hold (a compliance-matrix
        line). At most ``CONTENT_ITEM_WORDS`` words; bullets and letters, not numbered steps."""
        if owner is None or not block.marker or not self.kinds.is_instructions(owner):
            return False
        if self.section_flags(owner)[1]:
            return False  # a list in clause text ("General Conditions and Instructions to
            # Bidders") lists terms, not proposal content
        if re.fullmatch(r"\(?\d{1,2}[.)]", block.marker):
            return False
        text = block.text
        if re.fullmatch(r"[A-Z]\.", block.marker) and _TITLE_LINE.fullmatch(text.strip()):
            return False  # "A. General Information": a lettered sub-heading of Section L
        if STAGE_NAME.match(strip_inline_markdown(text).strip()):
            return False  # "Phase 1 – Technical Submission": a stage of the evaluation
        if AMENDS_THE_TEXT.search(text):
            return False  # "Paragraph (e) entitled ... is deleted": the provision tailored
        return 2 <= len(text.split()) <= CONTENT_ITEM_WORDS and not text.endswith(":")

    def parts_after(
        self,
        text: str,
        rest: list[_Block],
    ) -> tuple[list[str], int]:
        """List items completing a prompt that ends with ':' (or a question ending on "the
        following ...?", ``introduces_list``, whose list ends at the next item that asks or
        holds a question) -> (parts, blocks used)."""
        if not introduces_list(text):
            return [], 0
        parts: list[str] = []
        used = 0
        question = text.rstrip().endswith("?")
        styles: set[str] = set()
        for block in rest:
            if block.kind != "item":
                break
            if question and ("?" in block.text or is_ask(block.text)):
                break  # the next checklist question, a sibling of the prompt
            style = marker_style(block.marker, styles)
            if styles and style is not None and style[0] not in styles and not style[1]:
                break  # "(b)" after "(A)" ... "(I)": the outer list goes on
            if style is not None:
                styles.add(style[0])
            parts.append(block.text)
            used += 1
        return parts, used

    def walk_blocks(
        self,
        blocks: list[_Block],
        owner: Section | None,
        own: Section | None,
        lead_label: str | None = None,
    ) -> None:
        """Asks of a section's blocks; ``lead_label`` labels the asks of the first block when
        it is prose run in after a numbered heading on the heading's own line."""
        i = 0
        while i < len(blocks):
            block = blocks[i]
            if block.kind == "table":
                self.walk_table(block, owner)
                i += 1
                continue
            if block.kind == "answer":
                i += 1
                continue
            if self.answered(blocks, i):
                i += 2
                continue
            if _excludes(block.text):
                self.walk_sentences(block, owner, label=None, own=own)  # asks before it
                i += 1
                while i < len(blocks) and blocks[i].kind == "item":
                    i += 1  # the excluded items
                continue
            if block.kind == "item":
                text = block.text
                kind = self.kind_of(text, owner)
                label = None if BULLET.match(block.marker or "") else block.marker
                if kind is None or len(split_sentences(text)) > 1:
                    # an item of several sentences, or one opening with a run-in title
                    # ("d. Page Numbering. The Offeror shall use ..."): its asks one by one
                    last = self.walk_sentences(block, owner, label=label, own=own)
                    if last is None and self.content_item(block, owner):
                        self.add(
                            label=label,
                            text=text,
                            owner=owner,
                            kind="requirement",
                            line0=block.start,
                            own=own,
                        )
                    i += 1 + self.attach_list(last, blocks[i + 1 :], own)
                    continue
                parts, used = self.parts_after(text, blocks[i + 1 :])
                self.add(
                    label=label,
                    text=text,
                    owner=owner,
                    kind=kind,
                    line0=block.start,
                    parts=parts,
                    part_labels=_block_labels(blocks[i + 1 : i + 1 + used]),
                    own=own,
                )
                i += 1 + used
                continue
            rows = _flattened_response_rows(block.lines)
            if rows is not None:
                for offset, row in rows:
                    self.add(
                        label=None,
                        text=row,
                        owner=owner,
                        kind="table-row",
                        line0=block.start + offset,
                        topic=owner.heading if owner else None,
                        own=own,
                    )
                i += 1
                continue
            label = lead_label if i == 0 and block.kind == "prose" else None
            if label is None and block.kind == "prose":
                label = _paragraph_number(own)
            last = self.walk_sentences(block, owner, label=label, own=own)
            i += 1 + self.attach_list(last, blocks[i + 1 :], own)

    def attach_list(
        self, last: Question | None, following: list[_Block], own: Section | None
    ) -> int:
        """When ``last`` (the last ask of a block) ends with ":", give it the list items of
        ``following`` as its parts (and their cross-references); the number of blocks used."""
        if last is None or not introduces_list(last.text) or last.parts:
            return 0  # no prompt, or one whose list ran inline (``inline_items``)
        parts, used = self.parts_after(last.text, following)
        last.parts = parts
        last.part_labels = _block_labels(following[:used])
        if parts:
            last.references = self.references(" ".join([last.text, *parts]), own)
        return used

    def walk_sentences(
        self, block: _Block, owner: Section | None, label: str | None, own: Section | None
    ) -> Question | None:
        """Asks and requirements among the sentences of a prose block; returns the last one.

        A question sentence (ending in "?") of a labelled item joins the question before it,
        and a question after one joins it ("Q1. Describe your experience ... What volumes
        did you achieve?", "Q5. Have you supported ...? Describe your role."): one question,
        answered under that label (a compound the rewriter splits into parts). Instructions
        without a question stay one row per sentence (each is checked in the matrix)."""
        text = block.text
        if label:
            text = _strip_label(text, label)
        sentences = split_sentences(text)
        one_topic = block.kind == "item" and bool(RUN_IN_TOPIC.match(text))
        last: Question | None = None
        current: list[str] = []
        current_kind: str | None = None

        def flush() -> None:
            nonlocal last, current, current_kind
            if current and current_kind is not None:
                last = self.add(
                    label=label,
                    text=" ".join(current),
                    owner=owner,
                    kind=current_kind,
                    line0=block.start,
                    own=own,
                )
            current, current_kind = [], None

        for sentence in sentences:
            if (
                current
                and current_kind in ("question", "evaluation-criterion")
                and (
                    CONTINUATION.match(sentence)
                    or (PLEASE_CONTINUATION.match(sentence) or _unmarked_question(sentence))
                    and self.kind_of(sentence, owner) is None
                    or one_topic
                    and current_kind == "question"
                    and self.kind_of(sentence, owner) == "question"
                )
                or current
                and current_kind is not None
                and not current[-1].rstrip().endswith(":")
                and _CONTRACTOR_SHOULD.match(strip_inline_markdown(sentence).strip())
                and self.kind_of(sentence, owner) is None
                or current
                and current_kind is not None
                and not current[-1].rstrip().endswith(":")
                and refers_back(sentence, " ".join(current))
                and not is_procurement_process(sentence)  # "The price quotation must be
                # received no later than ...": the due date, no rule on the deliverable
                or label
                and current_kind == "question"
                and (sentence.rstrip().endswith("?") or current[-1].rstrip().endswith("?"))
                and self.kind_of(sentence, owner) == "question"  # "Q1. Describe ... What
                # volumes did you achieve?": one numbered question is answered as one
            ):
                current.append(sentence)
                continue
            kind = self.kind_of(sentence, owner)
            flush()
            if kind is not None:
                current, current_kind = [sentence], kind
        flush()
        return last

    # -- tables -----------------------------------------------------------------------------

    def walk_table(self, block: _Block, owner: Section | None) -> None:
        """Asks among a table's rows (issue 14: header not on the first line, merged cells).

        The header is ``response_tables.header_index``; rows above it are titles. A row
        spanning the table (``spanning_label``) names the topic of the rows below it; a blank
        topic or row-header cell continues the one above (a vertically merged cell; not in a
        spreadsheet, whose reader expands merged cells itself).
        """
        rows = [(block.start + j, row_cells(line)) for j, line in enumerate(block.lines)]
        rows = [(i, r) for i, r in rows if any(c for c in r)]
        if len(rows) < 2:
            return
        at = header_index([r for _, r in rows])
        header = rows[at][1]
        data = [(i, r) for i, r in rows[at + 1 :] if not is_separator(r)]
        if not data:
            return
        width = max(len(r) for _, r in rows)
        header = header + [""] * (width - len(header))
        data = [(i, r + [""] * (width - len(r))) for i, r in data]
        roles = column_roles(header, [r for _, r in data])
        if roles.question is None:
            return

        def spans(row: list[str]) -> str | None:
            label = spanning_label(row)
            filled = [c for c in row if c.strip()]
            if label is None or (len(filled) == 1 and row[roles.question].strip()):
                return None  # one filled cell in the ask column: an ask with blank answers
            return label

        plain = [(i, r) for i, r in data if spans(r) is None]
        roles = column_roles(header, [r for _, r in plain])
        if roles.question is None:
            return
        limit_at = next((j for j, h in enumerate(header) if LIMIT_HEADER.match(h.strip())), None)
        if roles.response is not None:
            answered = sum(1 for _, r in plain if r[roles.response].strip())
            if answered >= 0.5 * len(plain):
                return  # a Q&A table the issuer already answered, not a form to fill in
        # questionnaire readers already expand merged cells (a blank there means "none")
        merged = [j for j in [*roles.groups, roles.row_header] if j is not None]
        merged = [] if self.questionnaire else merged
        span_topic: str | None = None
        above: list[str] = [""] * width
        for line0, row in data:
            spanning = spans(row)
            if spanning is not None:
                span_topic = spanning
                above = [""] * width
                continue
            for j in merged:
                if row[j].strip():
                    above[j] = row[j]
                elif above[j]:
                    row = [*row[:j], above[j], *row[j + 1 :]]
            text = row[roles.question].strip()
            if not text or cells_repeat_header(row, header):
                continue
            asks = any(is_ask(s) or s.endswith("?") for s in split_sentences(text))
            if roles.response is None and not asks:
                continue
            if roles.response is not None and len(text.split()) < 3 and not asks:
                continue
            label = row[roles.label].strip() or None if roles.label is not None else None
            topic = self.topic(header, row, roles, owner)
            if span_topic and (topic is None or (owner is not None and topic == owner.heading)):
                topic = span_topic
            elif span_topic and topic and span_topic not in topic:
                topic = f"{span_topic} / {topic}"
            self.add(
                label=label,
                text=text,
                owner=owner,
                kind="table-row",
                line0=line0,
                topic=topic,
                limit=_row_limit(header, row, limit_at),
            )

    def topic(self, header: list[str], row: list[str], roles: ColumnRoles, owner: Section | None):
        groups = [row[j].strip() for j in roles.groups if row[j].strip()]
        if groups:
            return " / ".join(dict.fromkeys(groups))
        if roles.row_header is not None and row[roles.row_header].strip():
            return row[roles.row_header].strip()
        if self.questionnaire and owner is not None:
            return owner.heading
        name = header[roles.question].strip()
        if name and not GENERIC_HEADERS.match(name):
            return name
        return owner.heading if owner is not None else None

    # -- blocks -----------------------------------------------------------------------------

    def blocks(self, start: int, end: int) -> list[_Block]:
        """Paragraphs, list items and tables of ``lines[start:end]``."""
        out: list[_Block] = []
        current: _Block | None = None
        prefixes: dict[str, int] = {}
        for i in range(start, min(end, len(self.lines))):
            m = REQUIREMENT_ID.match(self.lines[i])
            if m:
                prefixes[m.group("prefix")] = prefixes.get(m.group("prefix"), 0) + 1
        for i in range(start, min(end, len(self.lines))):
            line = self.lines[i]
            s = line.strip()
            if not s:
                current = None
                continue
            if s.startswith("#"):
                current = None
                continue
            if ANSWERED.match(s):
                current = _Block("answer", i, [s])
                out.append(current)
                continue
            is_row = s.startswith("|") or s.count(" | ") >= 2
            if is_row:
                if current is None or current.kind != "table":
                    current = _Block("table", i, [])
                    out.append(current)
                current.lines.append(s)
                continue
            marker = LIST_MARKER.match(s)
            if marker:
                current = _Block("item", i, [s], marker.group("m"))
                out.append(current)
                continue
            req = REQUIREMENT_ID.match(s)
            if req and prefixes.get(req.group("prefix"), 0) >= 2:
                current = _Block("item", i, [s], req.group("m"))  # a requirements-list row
                out.append(current)
                continue
            if current is None or current.kind == "table":
                current = _Block("prose", i, [s])
                out.append(current)
            else:
                current.lines.append(s)
        return out


# --------------------------------------------------------------------------------------------
# small helpers


_INLINE_MARKER = re.compile(
    r"(?:(?<=\s)|^)(?P<m>\((?P<a>\d{1,2}|[a-z])\)|(?P<b>\d{1,2}|[a-z])\))\s+"
)


_LIST_QUESTION = re.compile(r"\bthe following\b[^.;:?]{0,40}\?$", re.I)


def introduces_list(text: str) -> bool:
    """True when ``text`` is a prompt whose list items follow it: it ends with ``:``, or it is
    a question ending on the list it points at (``Did the team have experience in at least
    ten of the following areas?``, an evaluator's checklist question): the items are its
    parts, not asks of their own."""
    text = text.rstrip()
    return text.endswith(":") or bool(_LIST_QUESTION.search(text))


def part_label(marker: str | None) -> str | None:
    """The number of a list item as the document prints it, without its punctuation: ``1.``
    -> ``1``, ``(a)`` -> ``a``, ``iv)`` -> ``iv``, ``A.`` -> ``A``; None for a bullet, for no
    marker and for a requirement ID (``R-01``: the row's own label, not a list number)."""
    if not marker:
        return None
    m = re.fullmatch(r"\(?([0-9]{1,3}|[A-Za-z]{1,4})[.)]?", marker.strip())
    return m.group(1) if m else None


def marker_style(marker: str | None, seen: set[str] = frozenset()) -> tuple[str, bool] | None:
    """(style, first) of a list marker: the style is the numbering family with its punctuation
    (``digit.``, ``(lower)``, ``(upper)``, ``roman)`` ...; ``(A)`` and ``G)`` share one) and
    ``first`` says the marker is the first value of its family (``1``, ``a``, ``A``, ``i``: a
    nested list starts there). A single ``i``/``v``/``x`` is a letter when letters of that
    case are already in ``seen``. None for a bullet or no marker (no numbering). Read by
    ``_Finder.parts_after``: an item of a style not seen yet that does not start its family
    ends the list (the enclosing list goes on: ``(b)`` after ``(A)`` ... ``(I)``)."""
    m = re.fullmatch(r"(\()?([0-9]{1,3}|[A-Za-z]{1,4})([.)])", (marker or "").strip())
    if m is None:
        return None
    value, punct = m.group(2), ")" if m.group(1) or m.group(3) == ")" else "."
    if value.isdigit():
        family, first = "digit", value in ("0", "1")
    else:
        case = "lower" if value.islower() else "upper"
        roman = re.fullmatch(r"[ivxlc]+|[IVXLC]+", value) is not None
        if roman and len(value) == 1 and f"{case}{punct}" in seen:
            roman = False  # "(i)" after "(h)": the ninth letter
        if roman:
            family, first = f"roman-{case}", value.lower() == "i"
        elif len(value) == 1:
            family, first = case, value.lower() == "a"
        else:
            return None  # "ab." is no list number
    return f"{family}{punct}", first


def _block_labels(blocks: list[_Block]) -> list[str | None]:
    """``part_label`` of each list-item block (the parts of ``_Finder.parts_after``)."""
    return [part_label(b.marker) for b in blocks]


def _aligned(labels: list[str | None] | None, parts: list[str] | None) -> list[str | None]:
    """``labels`` cut or padded with None to one per part."""
    n = len(parts or [])
    labels = list(labels or [])[:n]
    return labels + [None] * (n - len(labels))


def _marker_value(m: re.Match[str]) -> str:
    return m.group("a") or m.group("b")


def _next_marker(value: str) -> str:
    return str(int(value) + 1) if value.isdigit() else chr(ord(value) + 1)


def inline_items(text: str) -> tuple[str, list[str]]:
    """``(prompt, items)`` of an ask that runs its list inline after a colon (``... address the
    following: 1) Assurance that ...; 2) ...``), else ``(text, [])``; the rules are
    ``_inline_chain``'s, which also gives the items' markers."""
    prompt, items, _labels = _inline_chain(text)
    return prompt, items


def _inline_chain(text: str) -> tuple[str, list[str], list[str | None]]:
    """``(prompt, items, markers)`` of an ask that runs its list inline after a colon (``...
    address the following: 1) Assurance that ...; 2) The Offeror's recommended ...; 3) ...``;
    markers ``["1", "2", "3"]``), else ``(text, [], [])``.

    The first marker (``1)``, ``(1)``, ``a)``, ``(a)``) follows the colon; the next ones count
    up in the same style, each after a ``;`` or ``,`` (optionally followed by ``and`` / ``or``).
    At least two items. Each item is a compliance-matrix line of its own, as a written-out list
    is (issue 13). A list run in without a colon (``labor performed by (1) the offeror; (2)
    subcontractors``) names the cases of one ask and stays whole.
    """
    markers = list(_INLINE_MARKER.finditer(text))
    start = next(
        (k for k, m in enumerate(markers) if text[: m.start()].rstrip().endswith(":")), None
    )
    if start is None or _marker_value(markers[start]) not in ("1", "a"):
        return text, [], []
    chain = [markers[start]]
    style = markers[start].group("a") is not None
    for m in markers[start + 1 :]:
        last = chain[-1]
        if (m.group("a") is not None) != style or _marker_value(m) != _next_marker(
            _marker_value(last)
        ):
            continue
        before = text[last.end() : m.start()].rstrip()
        before = re.sub(r"\s+(?:and|or|and/or),?$", "", before).rstrip()
        if not before.endswith((";", ",")):
            continue
        chain.append(m)
    if len(chain) < 2:
        return text, [], []
    prompt = text[: chain[0].start()].rstrip()
    items = []
    for k, m in enumerate(chain):
        end = chain[k + 1].start() if k + 1 < len(chain) else len(text)
        item = text[m.end() : end].strip()
        if k + 1 < len(chain):
            item = re.sub(r"([;,])\s*(?:and|or|and/or),?$", r"\1", item).rstrip()
        items.append(item)
    if any(not item for item in items):
        return text, [], []
    return prompt, items, [_marker_value(m) for m in chain]


def _flattened_response_rows(lines: list[str]) -> list[tuple[int, str]] | None:
    """``(line offset, row text)`` of a response table flattened to text, or None.

    The block opens with a response-column header line (``RESPONSE_COLUMN_LINE``) and every
    following line is short (at most 14 words): a field or question cell each. A line that
    starts in lower case continues the row above (a wrapped cell). At least two rows."""
    if len(lines) < 3 or not RESPONSE_COLUMN_LINE.match(lines[0].strip()):
        return None
    rows: list[tuple[int, str]] = []
    for offset, raw in enumerate(lines[1:], start=1):
        line = raw.strip()
        if len(line.split()) > 14:
            return None
        if rows and re.match(r"[a-z(]", line):
            rows[-1] = (rows[-1][0], f"{rows[-1][1]} {line}")
        else:
            rows.append((offset, line))
    return rows if len(rows) >= 2 else None


def _excludes(text: str) -> bool:
    """True when the last sentence of ``text`` is an exclusion lead-in ending with ``:``
    (``EXCLUSION``): the list items after it are what the offeror need not do."""
    sentences = split_sentences(strip_inline_markdown(text))
    last = sentences[-1].strip() if sentences else ""
    return last.endswith(":") and bool(EXCLUSION.match(last))


PARAGRAPH_NUMBER = re.compile(r"^(?:[A-Z]\.)?\d{1,3}(?:\.\d{1,3})*\.?$")
"""A paragraph number: decimal (``4``, ``2.1``, ``3.1.2``) with an optional part letter
(``L.2``, ``C.3.2``)."""


def _paragraph_number(section: Section | None) -> str | None:
    """The label of prose on its own lines under a numbered heading (``C.3.2 Task 2`` then
    ``The contractor shall:``; ``L.2 Technical Approach`` then its paragraph): the section's
    number, as a proposal manager cites it, when it is a paragraph number (``4``, ``2.1``,
    ``L.2``, ``C.3.2``: ``PARAGRAPH_NUMBER``); None for a part, an attachment or a question
    (``SECTION L``, ``ATTACHMENT J-4``, an amendment's ``Q1``: not a paragraph of the text)."""
    if section is None or section.kind != "heading" or not section.number:
        return None  # prose after a numbered paragraph ("3.1.2 Describe ...") is not its text
    if not PARAGRAPH_NUMBER.match(section.number):
        return None
    return section.number.rstrip(".")  # "1. Proposal Instructions": paragraph 1, not "1."


def _row_limit(header: list[str], row: list[str], at: int | None) -> str | None:
    """The response limit a table's limit column (``LIMIT_HEADER``) gives ``row``: the cell as
    written, with the header's unit when the cell is a bare number (``3`` under ``Page
    limit`` -> ``3 pages``); None without such a column or with a blank cell."""
    if at is None or at >= len(row) or not row[at].strip():
        return None
    cell = row[at].strip()
    unit = re.search(r"\b(page|word|character|minute)s?\b", header[at], re.I)
    if unit and re.fullmatch(r"\d{1,5}", cell):
        return f"{cell} {unit.group(1).lower()}{'' if cell == '1' else 's'}"
    return cell


def _cited_label(label: str | None, owner: Section | None, own: Section | None) -> str | None:
    """A list item's label as a proposal cites it: with the number of the section it stands
    in (``a.`` under ``L.2`` -> ``L.2 a.``; under the numbered paragraph ``3.1.4`` ->
    ``3.1.4 a.``; under ``Tab B`` -> ``Tab B a.``), since every section restarts its letters
    and a matrix of bare ``a.`` rows cannot be traced (proposal practice: a compliance-matrix
    line cites the full RFP reference). Other labels, and items under an unnumbered
    section, are kept as written."""
    if not label or not re.fullmatch(LIST_ITEM_LABEL, label):
        return label
    base = own if own is not None and own.kind == "paragraph" and own.number else owner
    if base is None or not base.number or label == base.number:
        return label
    return f"{base.number.rstrip('.')} {label}"


def _strip_label(text: str, label: str | None) -> str:
    text = strip_inline_markdown(text).strip()
    if label and text.startswith(label):
        text = text[len(label) :]
    elif label:
        m = re.match(r"^\W*" + re.escape(label.rstrip(".:")) + r"(?:[.:)]|(?!\w))", text)
        if m:
            text = text[m.end() :]
    return text.strip().lstrip("-\u2013\u2014:").strip()


def _after_heading(line: str, heading: str) -> str:
    """Body text on a heading's own line (``**1. General.** Please submit ...``)."""
    s = line.strip()
    if s.startswith("#"):
        return ""
    bold = re.match(r"^\s*\*\*[^*]+\*\*(?P<after>.*)$", s)
    if bold:
        return bold.group("after").lstrip(" .:").strip()
    plain = strip_inline_markdown(s)
    if heading and heading in plain:
        after = plain[plain.index(heading) + len(heading) :]
        return after.lstrip(" .:-\u2013\u2014").strip()
    return ""


__all__ = ["CONTEXT_WORDS", "find_questions", "is_ask", "is_requirement"]
