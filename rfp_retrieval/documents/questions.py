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

from rfp_retrieval.documents.records import Question, RfpDocument, Section
from rfp_retrieval.documents.section_kinds import SectionKinds
from rfp_retrieval.documents.text import split_sentences, strip_inline_markdown

CONTEXT_WORDS = 120
"""Upper bound on ``Question.context`` length in words."""

QUESTIONNAIRE_FORMATS = ("csv", "xlsx", "json")

CONTENT_VERBS = (
    "describe|explain|identify|discuss|demonstrate|detail|outline|provide|list|specify|indicate|"
    "confirm|summari[sz]e|propose|present|define|address|elaborate|give|show|clarify|share|"
    "justify|articulate|illustrate|tell us|walk us through|recommend|estimate|rate|rank|"
    "document|state (?:your|the|whether|how|what|any|if|which|all)|note (?:any|whether|how)"
)
"""Imperatives that ask for written content: the response answers them (kind ``question``)."""

PROCEDURAL_VERBS = "submit|include|complete|attach|furnish|supply|certify|attest|acknowledge|sign"
"""Imperatives that ask for an action or an enclosure (kind ``requirement``)."""

ASK_VERBS = f"{CONTENT_VERBS}|{PROCEDURAL_VERBS}"
_ACTORS = (
    r"(?:the\s+|each\s+|all\s+)?(?:offeror|offerors|quoter|quoters|vendor|vendors|"
    r"respondent|respondents|proposer|proposers|bidder|bidders|applicant|applicants|firm|firms|"
    r"you|proposal|proposals|quote|quotation|response|responses|submission|narrative)"
    r"(?:['’]s)?"
)


def _ask_pattern(verbs: str) -> re.Pattern[str]:
    return re.compile(
        rf"^(?:[A-Z][^.?!:]{{0,60}}?(?:\s?[-\u2013\u2014]\s|:\s))?"  # "Staffing Plan - Please ..."
        rf"(?:(?:for|in|as part of|with respect to|where|if|based on|using|given|within|at|"
        rf"on|under|beyond|in addition(?: to)?)\b[^,]{{0,90}},\s*)?(?:please\s+)?(?:also\s+|"
        rf"briefly\s+|clearly\s+|fully\s+)?(?:{verbs})\b"
        rf"|^{_ACTORS}\s+(?:shall|must|should|will|is|are)\s+(?:be\s+)?(?:also\s+|briefly\s+|"
        rf"clearly\s+|asked to\s+|requested to\s+|required to\s+|expected to\s+|"
        rf"encouraged to\s+)*(?:{verbs})\b",
        re.I,
    )


_ASK = _ask_pattern(ASK_VERBS)
_PROCEDURAL_ASK = _ask_pattern(PROCEDURAL_VERBS)
_QUESTION_WORD = re.compile(
    r"^(?:what|how|why|where|when|who|whom|whose|which|is|are|does|do|did|can|could|will|"
    r"would|should|has|have|was|were|may|to what|in what|if)\b",
    re.I,
)
_ABOUT_OFFEROR = re.compile(
    r"\bthe (?:contractor|offeror|quoter|vendor|respondent|proposer|bidder|proposal|quote|"
    r"quotation|proposed|submitted|response)\b|\b(?:contractor|offeror|quoter|vendor)['’]s\b",
    re.I,
)
_SECOND_PERSON = re.compile(r"\b(?:you|your|yours)\b", re.I)
_CONTINUATION = re.compile(
    r"^(?:if so|if yes|if not|if no|if applicable|where applicable|as applicable|include|"
    r"including|also|in addition|please also|and|or|this (?:should|must|shall)|the response "
    r"(?:should|must|shall)|responses? (?:should|must|shall)|be sure|at a minimum)\b",
    re.I,
)
_REQUIREMENT = re.compile(r"\b(?:shall|must|is required to|are required to)\b", re.I)
_NOT_REQUIREMENT = re.compile(
    r"\bmeans\b|\bas used in\b|\bis defined as\b|\bshall be deemed\b|\bshall be construed\b|"
    r"\bshall mean\b|\bshall have the meaning\b|\bnothing in\b",
    re.I,
)
_EVALUATED = re.compile(
    r"\bwill (?:be )?(?:evaluated?|assess(?:ed)?|rated?|considered?|scored?|reviewed?)\b|"
    r"\b(?:evaluates|assesses)\b|\bwill evaluate\b|\bevaluation will\b",
    re.I,
)
_ANSWERED = re.compile(
    r"^\W*(?:A\d{1,3}\s*[:.)-]|A\s*:|(?i:answer|response|government(?:'s)? response|reply)"
    r"\s*[:.-])"
)
_LIST_MARKER = re.compile(
    r"^\s*(?P<m>[-*+•●○▪◦]|\(?(?:\d{1,2}|[a-z]|[ivx]{1,4}|[A-Z])\)|(?:\d{1,2}|[a-z]|[ivx]{1,4}|"
    r"[IVX]{1,4})\.)\s+(?=\S)"
)
_LEADING_LABEL = re.compile(
    r"^(?:(?:Question|QUESTION)\s+\d{1,3}\s*[.:)]|Q\d{1,3}[:.]|(?:[A-M]|[IVX]{1,5})(?:\.[A-Z0-9]{1,3})+"
    r"\.?|\d{1,3}(?:\.\d{1,3})*\.?)\s+"
)
_SHOUTING = re.compile(r"[^a-z]*")
_BULLET = re.compile(r"^[-*+•●○▪◦]$")

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
    r"^(?:domain|category|sub-?category|section|topic|area|family|control family|group|"
    r"capability|function|module|requirement (?:area|category|type)|service area)$",
    re.I,
)
_ID_CELL = re.compile(
    r"^(?:[A-Z]{1,8}[-_. ]?\d{1,4}(?:[.-]\d{1,4})*[a-z]?|\d{1,4}(?:\.\d{1,4})*\.?|[a-z]\.|"
    r"\(?[a-z]\)|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)$"
)
_GENERIC_HEADERS = re.compile(
    r"^(?:question|questions|requirement|requirements|description|requirement description|"
    r"item|items|prompt|criteria|column \d+)$",
    re.I,
)

# cross-references
_XREF = re.compile(
    r"\b(?:Sections?|Sec\.|Paragraphs?|Para\.|Subsections?|§)\s*(?P<n>(?:[A-Z]|[IVX]{1,5})"
    r"(?:\.[A-Z0-9]{1,3})*|\d{1,2}(?:\.\d{1,3})*)(?![\w-])"
    r"|\b(?P<u>[A-M]\.\d{1,3}(?:\.\d{1,3}){0,4})(?![\w-])"
    r"|\b(?P<r>[IVX]{1,5}\.[A-Z](?:\.\d{1,3}){0,3})(?![\w-])"
    r"|\b(?P<a>(?:Appendix|Attachment|Exhibit|Addendum|ADDENDUM|APPENDIX|ATTACHMENT)\s+"
    r"[A-Z0-9]{1,2}(?:-\d{1,2})?)(?![\w-])"
)


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
            joined = _LIST_MARKER.sub("", joined, count=1)
        return strip_inline_markdown(joined)


# --------------------------------------------------------------------------------------------
# public API


def is_ask(sentence: str) -> bool:
    """True when ``sentence`` asks the offeror for content (an imperative ask or a question).

    ``Describe your approach.``, ``Please provide ...``, ``For each reference, describe ...``,
    ``The Offeror shall describe ...`` and ``How will the Department participate?`` ask;
    ``The Contractor shall host the system.`` does not (it is a requirement).
    """
    s = strip_inline_markdown(sentence).strip().lstrip("-–—•*").strip()
    if len(s.split()) < 2 or not re.match(r"[A-Z0-9\"“‘'(\[]", s):
        return False  # a fragment of a wrapped sentence, not the start of an ask
    if _SHOUTING.fullmatch(s) or re.match(r"^list of\b", s, re.I) and len(s.split()) <= 6:
        return False  # "LIST OF ATTACHMENTS", "List of Deliverables": titles, not asks
    if s.endswith("?") and len(s.split()) >= 3:
        return True
    return bool(_ASK.match(s))


def is_requirement(sentence: str) -> bool:
    """True for a ``shall`` / ``must`` sentence that binds someone (not a definition)."""
    s = strip_inline_markdown(sentence)
    return len(s.split()) >= 4 and bool(_REQUIREMENT.search(s)) and not _NOT_REQUIREMENT.search(s)


def find_questions(doc: RfpDocument) -> list[Question]:
    """Every question, requirement, evaluation criterion and response-table row of ``doc``.

    Returns ``records.Question`` items in document order with ids ``q-001``, ``q-002`` ...
    (stable for the same document text). ``label`` is the label as written or None; ``text``
    is verbatim (whitespace and inline Markdown normalised); ``section_key`` is the enclosing
    heading section (a numbered paragraph's parent) and ``section_path`` is
    ``doc.section_path(section_key)``; ``kind`` is ``question`` | ``requirement`` |
    ``table-row`` | ``evaluation-criterion``; ``line`` is 1-based in ``doc.text``; ``page`` is
    the PDF page (from ``doc.page_starts``) or None. Never raises for an unusual document: an
    outline without asks gives ``[]``.
    """
    finder = _Finder(doc)
    found = finder.run()
    found.sort(key=lambda q: (q.line or 0, q.id))
    out: list[Question] = []
    for i, q in enumerate(found, start=1):
        q.id = f"q-{i:03d}"
        out.append(q)
    return out


# --------------------------------------------------------------------------------------------
# the walk


class _Finder:
    def __init__(self, doc: RfpDocument):
        self.doc = doc
        self.lines = doc.text.splitlines()
        self.sections = sorted(doc.sections, key=lambda s: s.line)
        self.by_key = {s.key: s for s in doc.sections}
        self.questionnaire = doc.format in QUESTIONNAIRE_FORMATS
        self.numbers: dict[str, str] = {}
        for s in self.sections:
            if s.number:
                self.numbers.setdefault(_norm(s.number), s.key)
        self.found: list[Question] = []
        self.paths: dict[str, list[str]] = {}
        self.flags: dict[str, tuple[bool, bool]] = {}

    # -- helpers ----------------------------------------------------------------------------

    def owner(self, section: Section | None) -> Section | None:
        """The nearest heading-kind section at or above ``section``."""
        node = section
        while node is not None and node.kind == "paragraph":
            node = self.by_key.get(node.parent) if node.parent else None
        return node

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
            kinds = SectionKinds(self.doc)
            self.flags[section.key] = (kinds.is_evaluation(section), kinds.is_clauses(section))
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
        for m in _XREF.finditer(text):
            raw = m.group("n") or m.group("u") or m.group("r") or m.group("a")
            key = self.numbers.get(_norm(raw))
            if key is None and m.group("n") and "." in raw:
                key = self.numbers.get(_norm(raw.rstrip(".")))
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
            p for p in paragraphs if len(p.split()) >= 3 and not is_ask(_LEADING_LABEL.sub("", p))
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
        own: Section | None = None,
    ) -> Question:
        text = re.sub(r"\s+", " ", text).strip()
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
            line=line0 + 1,
            page=self.page(line0),
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
        owner = (
            self.owner(section)
            if section.kind == "heading"
            else self.owner(self.by_key.get(section.parent) if section.parent else None)
        )
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
            if kind is not None:
                parts, used = self.parts_after(text, rest)
                self.add(
                    label=section.number,
                    text=text,
                    owner=owner,
                    kind=kind,
                    line0=head.start,
                    parts=parts,
                    own=section,
                )
                rest = rest[used:]
            elif kind is None:
                self.walk_sentences(head, owner, label=section.number, own=section)
            self.walk_blocks(rest, owner, section)
            return
        # a heading: the heading line itself may ask ("### Question 9. Is data ...?")
        heading_line = self.lines[start]
        if section.number and is_ask(section.heading):
            self.add(
                label=section.number,
                text=section.heading,
                owner=self.owner(self.by_key.get(section.parent)) if section.parent else None,
                kind=self.kind_of(section.heading, section) or "question",
                line0=start,
                own=section,
            )
        remainder = _after_heading(heading_line, section.heading)
        blocks = self.blocks(start + 1, end)
        if remainder and blocks and blocks[0].kind == "prose" and blocks[0].start == start + 1:
            blocks[0] = _Block("prose", start, [remainder, *blocks[0].lines])  # wrapped on
        elif remainder:
            blocks.insert(0, _Block("prose", start, [remainder]))
        self.walk_blocks(blocks, owner, section)

    def answered(self, blocks: list[_Block], index: int) -> bool:
        """True when the block after ``index`` answers it (an amendment's Q&A pair)."""
        nxt = blocks[index + 1] if index + 1 < len(blocks) else None
        return nxt is not None and nxt.kind == "answer"

    def kind_of(self, text: str, owner: Section | None) -> str | None:
        evaluation, clause = self.section_flags(owner)
        first = split_sentences(text)[:1]
        lead = first[0] if first else text
        if is_ask(lead) or (text.rstrip().endswith("?") and len(text.split()) >= 3):
            plain = strip_inline_markdown(lead)
            if not plain.endswith("?") and _PROCEDURAL_ASK.match(plain):
                return "requirement"  # "Submit ...", "Include resumes ..."
            if _QUESTION_WORD.match(lead) and _ABOUT_OFFEROR.search(lead):
                if not _SECOND_PERSON.search(lead):
                    return "evaluation-criterion"  # the evaluator's checklist question
            return "question"
        if evaluation and _EVALUATED.search(lead):
            return "evaluation-criterion"
        if not clause and is_requirement(lead):
            return "requirement"
        return None

    def parts_after(self, text: str, rest: list[_Block]) -> tuple[list[str], int]:
        """List items completing a prompt that ends with ':' -> (parts, blocks used)."""
        if not text.rstrip().endswith(":"):
            return [], 0
        parts: list[str] = []
        used = 0
        for block in rest:
            if block.kind != "item":
                break
            parts.append(block.text)
            used += 1
        return parts, used

    def walk_blocks(self, blocks: list[_Block], owner: Section | None, own: Section | None) -> None:
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
            if block.kind == "item":
                text = block.text
                kind = self.kind_of(text, owner)
                if kind is not None:
                    parts, used = self.parts_after(text, blocks[i + 1 :])
                    label = None if _BULLET.match(block.marker or "") else block.marker
                    self.add(
                        label=label,
                        text=text,
                        owner=owner,
                        kind=kind,
                        line0=block.start,
                        parts=parts,
                        own=own,
                    )
                    i += 1 + used
                    continue
                i += 1
                continue
            last = self.walk_sentences(block, owner, label=None, own=own)
            if last is not None and last.text.endswith(":"):
                parts, used = self.parts_after(last.text, blocks[i + 1 :])
                last.parts = parts
                if parts:
                    last.references = self.references(" ".join([last.text, *parts]), own)
                i += 1 + used
                continue
            i += 1

    def walk_sentences(
        self, block: _Block, owner: Section | None, label: str | None, own: Section | None
    ) -> Question | None:
        """Asks and requirements among the sentences of a prose block; returns the last one."""
        text = block.text
        if label:
            text = _strip_label(text, label)
        sentences = split_sentences(text)
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
                and (_CONTINUATION.match(sentence))
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
        rows = [(block.start + j, _cells(line)) for j, line in enumerate(block.lines)]
        rows = [(i, r) for i, r in rows if any(c for c in r)]
        if len(rows) < 2:
            return
        header = rows[0][1]
        data = rows[1:]
        width = max(len(r) for _, r in rows)
        header = header + [""] * (width - len(header))
        data = [(i, r + [""] * (width - len(r))) for i, r in data]
        roles = _column_roles(header, [r for _, r in data])
        if roles.question is None:
            return
        if roles.response is not None:
            answered = sum(1 for _, r in data if r[roles.response].strip())
            if answered >= 0.5 * len(data):
                return  # a Q&A table the issuer already answered, not a form to fill in
        for line0, row in data:
            text = row[roles.question].strip()
            if not text or _cells_repeat_header(row, header):
                continue
            asks = is_ask(text) or text.endswith("?")
            if roles.response is None and not asks:
                continue
            if roles.response is not None and len(text.split()) < 3 and not asks:
                continue
            label = row[roles.label].strip() or None if roles.label is not None else None
            topic = self.topic(header, row, roles, owner)
            self.add(
                label=label,
                text=text,
                owner=owner,
                kind="table-row",
                line0=line0,
                topic=topic,
            )

    def topic(self, header: list[str], row: list[str], roles: _Roles, owner: Section | None):
        groups = [row[j].strip() for j in roles.groups if row[j].strip()]
        if groups:
            return " / ".join(dict.fromkeys(groups))
        if roles.row_header is not None and row[roles.row_header].strip():
            return row[roles.row_header].strip()
        if self.questionnaire and owner is not None:
            return owner.heading
        name = header[roles.question].strip()
        if name and not _GENERIC_HEADERS.match(name):
            return name
        return owner.heading if owner is not None else None

    # -- blocks -----------------------------------------------------------------------------

    def blocks(self, start: int, end: int) -> list[_Block]:
        """Paragraphs, list items and tables of ``lines[start:end]``."""
        out: list[_Block] = []
        current: _Block | None = None
        for i in range(start, min(end, len(self.lines))):
            line = self.lines[i]
            s = line.strip()
            if not s:
                current = None
                continue
            if s.startswith("#"):
                current = None
                continue
            if _ANSWERED.match(s):
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
            marker = _LIST_MARKER.match(s)
            if marker:
                current = _Block("item", i, [s], marker.group("m"))
                out.append(current)
                continue
            if current is None or current.kind == "table":
                current = _Block("prose", i, [s])
                out.append(current)
            else:
                current.lines.append(s)
        return out


@dataclass
class _Roles:
    question: int | None
    label: int | None
    response: int | None
    groups: list[int]
    row_header: int | None


def _cells(line: str) -> list[str]:
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|"):
        s = s[:-1]
    return [strip_inline_markdown(c) for c in s.split("|")]


def _cells_repeat_header(row: list[str], header: list[str]) -> bool:
    return [c.lower() for c in row] == [c.lower() for c in header]


def _column_roles(header: list[str], data: list[list[str]]) -> _Roles:
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
    return _Roles(question, label, response, groups, row_header)


# --------------------------------------------------------------------------------------------
# small helpers


def _norm(number: str) -> str:
    n = number.strip().rstrip(".:").upper()
    n = re.sub(r"\s+", " ", n)
    n = re.sub(r"^(?:SECTION|SEC\.|ADDENDUM|PARAGRAPH|PARA\.)\s*", "", n)
    if re.fullmatch(r"\d+\.0", n):
        n = n[:-2]
    return n


def _strip_label(text: str, label: str | None) -> str:
    text = strip_inline_markdown(text).strip()
    if label and text.startswith(label):
        text = text[len(label) :]
    elif label:
        m = re.match(r"^\W*" + re.escape(label.rstrip(".:")) + r"[.:)]?", text)
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
