"""Inherited context of a question (seed 2, step 1, and the gaps it lists as open).

Seed 2 gives the rewriter "the question stem, the section heading, two levels of document
outline above it, and a one-paragraph document summary", and found longer context worse
("we cut to two levels of outline plus the document summary"). The window is a setting
(``ContextConfig.outline_levels``). Beyond the seed:

- paragraph context: a short keyword summary of the section's earlier paragraphs (the
  requirements 3.4.1-3.4.6 above "3.4.7 Describe your approach"); under a generic heading
  ("Other Technical Considerations", "Additional Considerations") the sentences just above
  the question, as written (``NEAR_SENTENCES``, at most ``NEAR_WORDS``), are its topic and
  the heading is not (issue 14: the topic sits only in the paragraph above); so are they
  when no heading above the question is topical ("Section 4 — Vendor Responses"); a question
  whose pronoun points back ("Describe how you will accomplish *this*.") gets the same
  sentences as written, and the offline rewriter puts them where the pronoun is, the heading
  after them. Those sentences are the question's lead-in (``lead_in``): the prose since the
  previous ask, or above the asks it follows; sentences that only say how to answer
  ("respond to each of the following items in order") are not part of it;
- cross-references: "the peak volumes described in Section 2.4" inherits the heading and a
  keyword summary of Section 2.4 ("the retrieval target is the system, not the section");
- table rows: the row's topic (questionnaire domain, column or row header) is the heading.

Structural headings ("Section L — Instructions to Offerors", "Volume II — Technical
Approach", "4. Technical Questionnaire") say where an answer goes, not what it is about; they
are skipped and the skip is logged.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from rfp_retrieval.documents.ask_patterns import LEADING_LABEL, LIST_MARKER, is_ask
from rfp_retrieval.documents.records import Question, RfpDocument, Section
from rfp_retrieval.documents.text import split_sentences, strip_inline_markdown
from rfp_retrieval.rewrite.specificity import ABSTRACT_WORDS
from rfp_retrieval.rewrite.terms import QUESTION_WORDS, STOPWORDS, stem_words, words
from rfp_retrieval.rewrite.thesaurus import THESAURUS, find_concepts

STRUCTURAL_WORDS: frozenset[str] = frozenset(
    """section sections volume volumes part parts factor factors attachment attachments
    appendix exhibit technical approach instructions instruction conditions notices notice
    offerors offeror quoters quoter proposal proposals content contents response responses
    item items questionnaire questionnaires scope work statement description specifications
    specification general requirements requirement submission preparation format evaluation
    criteria award basis overview introduction background summary executive solicitation
    questions question other information offeror's offerors' vendor vendors vendor's bidder
    bidders respondent respondents supplier suppliers proposer proposers to of and the
    for table tables matrix worksheet template checklist form forms""".split()
)
"""Words of headings that place an answer in the proposal rather than name its topic."""

BOILERPLATE_WORDS: frozenset[str] = frozenset(
    """shall must should will contractor contractors offeror offerors quoter quoters vendor
    vendors department agency government state respond following order provide provided
    proposal proposals volume section item items numbered response responses described
    describe listed identified including include includes required requirement requirements
    approved approval later days than fewer less more least each all any such other per
    within no not only also may one two three four five six seven eight nine ten beginning
    end final upon necessary continue continued throughout approximately currently current
    existing new used using use make made ensure meet meets officer period notice answer
    answers answered below above page pages limit limited font order sequence proposer
    proposers respondent respondents bidder bidders""".split()
)
"""Procurement boilerplate: never a topic of the paragraph context summary."""

FORMAT_WORDS: frozenset[str] = frozenset(
    """page pages limit limits limited maximum max minimum min exceed exceeding words word
    characters character mandatory optional required scored unscored points point pass fail
    single double spaced sided font size pt inch inches margin margins""".split()
)
"""Words of a heading's aside that say how long or how scored an answer is ("(limit: 4
pages)", "(Mandatory)", "[10 points]"): never its topic (issue 15)."""

_ASIDE = re.compile(r"\s*[(\[]([^()\[\]]*)[)\]]")

_RESPONSE_CODE = (
    r"(?:fully\s+|partially\s+)?(?:comply|complies|compliant|non-?compliant|does\s+not\s+comply"
    r"|partial|exceptions?|alternate|alternative|yes|no|n/a|y|n|meets|does\s+not\s+meet)"
)
_RESPONSE_CODES = re.compile(
    rf"\b{_RESPONSE_CODE}\b(?:\s*(?:,|/|\bor\b|,\s*or\b)\s*[\"'“]?{_RESPONSE_CODE}\b)+", re.I
)
"""A list of two or more answer codes ("Comply, Partial, or Exception", "Yes/No", "Y/N"):
the sentence says how to fill a response table, not what the row is about."""


_ANSWER_FORMAT = re.compile(
    r"^\W*(?:(?:the\s+)?(?:offerors?|vendors?|respondents?|proposers?|bidders?|quoters?|"
    r"contractors?|you)\s+(?:shall|must|should|will|are\s+to|are\s+required\s+to)\s+)?"
    r"(?:please\s+)?(?:answer|respond\s+to|complete|fill\s+in)\s+"
    r"(?:every|each|all(?:\s+of)?|the)\b[^.?!]*\b(?:questions?|items?|rows?)\b|"
    r"\b(?:answers?|responses?|replies)\b[^.?!]*\b\d[\d,]*\s*(?:words?|pages?|characters?|"
    r"lines?)\b",
    re.I,
)
"""An instruction on answering the questions themselves: "Answer every question in the table
below", "Offerors shall answer every question in the table below", "Keep each answer to 500
words or fewer" (what to answer and how long, not about what)."""
_SUBMISSION = re.compile(
    r"\b(?:proposals?|responses?|quotes?|quotations?|bids?|offers?|submittals?|"
    r"submissions?)\s+(?:\w+\s+){0,3}?(?:shall|must|will|should|may|are\s+to|is\s+to)\s+(?:not\s+)?"
    r"(?:be\s+)?(?:submitted|delivered|received|accepted|sent|uploaded|e-?mailed|considered|"
    r"opened)\b|\b(?:organi[sz]e|arrange|format|number|tab|label|bind|seal)\s+"
    r"(?:\w+\s+){0,3}?(?:responses?|proposals?|quotes?|submittals?|volumes?)\b|"
    r"\blate\s+(?:proposals?|responses?|quotes?|bids?|offers?|submissions?)\b|"
    # a length limit says how long, never about what ("The Technical Proposal shall not
    # exceed 30 pages, excluding resumes")
    r"\b(?:shall|must|should|may|will)\s+not\s+(?:be\s+)?(?:exceed|more\s+than|longer\s+than)\s+"
    r"(?:\w+\s+)?(?:\(\d+\)\s+)?\d*\s*(?:pages?|words?|characters?|slides?)\b|"
    r"\b(?:page|word|character)\s+(?:limit|count|maximum)\b",
    re.I,
)
"""The logistics of submitting: where, when and in what order proposals are delivered ("Late
proposals will not be accepted", "Proposals shall be submitted through the City's Supplier
Portal", "organize their response in the order of this section") and how long they may be
("shall not exceed 30 pages"): no topic of any question (new-user trial: queries carried
them)."""


def says_how_to_answer(sentence: str) -> bool:
    """True when ``sentence`` lists the codes a response table is answered with ("Respond
    to each requirement with Comply, Partial, or Exception", "Answer Yes/No") or says to
    answer the questions and how long ("Answer every question in the table below", "Keep
    each answer to 500 words or fewer", ``_ANSWER_FORMAT``): it is an instruction, never a
    question's context (issue 15: rewrites carried "(Comply, Partial, Exception)" and, in
    the trial of session 11, "(question, table, Keep, words)"), or how proposals are
    submitted (``_SUBMISSION``)."""
    text = sentence or ""
    return bool(
        _RESPONSE_CODES.search(text) or _ANSWER_FORMAT.search(text) or _SUBMISSION.search(text)
    )


GENERIC_HEADING_WORDS: frozenset[str] = frozenset(
    """other additional considerations consideration general miscellaneous special related
    further topics topic matters items areas remaining supplemental supplementary various
    optional points issues notes specific key elements aspects""".split()
)
"""Words of headings that group leftovers ("Other Considerations"): no topic of their own."""

NEAR_SENTENCES = 2
"""Sentences of the section text just above a question that its pronouns most often point
to ("... lost. (2) Explain how your solution preserves *this* ability.")."""

NEAR_WORDS = 45
"""Cap on the verbatim sentences that stand in for a generic heading (about two sentences;
spent nearest first, ``nearest_sentences``)."""

_LABEL = re.compile(
    r"^\s*(?:"
    r"(?:Section|Part|Volume|Factor|Attachment|Appendix|Exhibit|Question|Article)\s+"
    r"[A-Z0-9IVXLC]+(?:[.-][A-Z0-9]+)*\.?"
    r"|(?:[A-Z]{1,3}|[0-9]+|[IVXLC]+)(?:\.[A-Z0-9]+)+\.?"
    r"|[0-9]+\.?"
    r")(?=[\s—–:-])\s*(?:[—–:-]\s*)?"
)
_VOLUME = re.compile(r"^\s*(?:Volume|Factor|Part|Section)\s+[A-Z0-9IVX]+\s*[—–:-]\s*", re.I)


_FOLLOW_UP = re.compile(r"^(?:if\s+(?:so|yes|not|applicable)|otherwise)\s*,?\s*", re.I)
"""The opening of a follow-up ask ("If so, describe ..."): the ask starts after it."""

_DOCUMENT_REFERENCE = re.compile(
    r"\bthis\s+(?:requirement|solicitation|acquisition|procurement|effort|RFP|RFQ)\b", re.I
)


@dataclass(frozen=True)
class ContextConfig:
    """How much context a question inherits (seed 2: two outline levels plus the summary).

    ``outline_levels``: topical headings above the question's own heading (0 = heading
    only); ``use_summary``: give the rewriter the document summary (the offline rewriter
    uses the document's subject line from it); ``paragraph_words`` / ``reference_words``:
    length of the keyword summaries of earlier paragraphs and cross-referenced sections
    (0 turns each off); ``skip_structural``: leave out headings that only place the answer
    ("Volume II — Technical Approach").
    """

    outline_levels: int = 2
    use_summary: bool = True
    paragraph_words: int = 6
    reference_words: int = 16
    skip_structural: bool = True


@dataclass
class ReferencedSection:
    """A section the question points to: its key, clean heading and keyword summary."""

    key: str
    heading: str
    summary: str


@dataclass
class QuestionContext:
    """What the question inherits, each piece shown in the rewrite log.

    ``heading``: nearest topical heading (numbering stripped; for a table row its topic);
    ``outline``: topical headings above it, nearest first; ``summary``: the document's
    one-paragraph summary; ``subject``: the document subject from its title; ``paragraphs``:
    keyword summary of the section's earlier paragraphs; ``references``: cross-referenced
    sections; ``skipped``: structural headings left out; ``document_reference``: the question
    points at the whole solicitation ("relevance ... to this requirement"), so the document
    subject is part of its topic; ``generic_heading``: the heading names no topic
    (``is_generic``), so the earlier paragraphs carry it; ``points_back``: the question refers
    to what was just said ("accomplish *this*", ``points_back``) and ``paragraphs`` holds the
    sentences it points to, as written.
    """

    heading: str = ""
    outline: list[str] = field(default_factory=list)
    summary: str = ""
    subject: str = ""
    paragraphs: str = ""
    references: list[ReferencedSection] = field(default_factory=list)
    topic: str = ""
    skipped: list[str] = field(default_factory=list)
    document_reference: bool = False
    generic_heading: bool = False
    points_back: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form (for the rewrite log and the LLM cache key)."""
        return asdict(self)


def clean_heading(text: str) -> str:
    """A heading without its numbering label: "3.4 Data Migration" -> "Data Migration",
    "L.4.2 Volume II — Technical Approach" -> "Technical Approach"; an aside in brackets that
    names no topic, only a length or scoring ("(limit: 4 pages)", "(Mandatory)",
    "[10 points]", ``FORMAT_WORDS``), is dropped with it (an acronym "(SSO)" stays)."""
    out = (text or "").strip().lstrip("#").strip()
    out = _ASIDE.sub(lambda m: "" if _names_nothing(m.group(1)) else m.group(0), out).strip()
    for _ in range(3):
        new = _VOLUME.sub("", _LABEL.sub("", out, count=1), count=1).strip()
        if new == out or not new:
            break
        out = new
    return out.strip(" .:—–-")


def is_structural(heading: str) -> bool:
    """True when every word of ``heading`` is a structural word (see ``STRUCTURAL_WORDS``)."""
    tokens = [w.lower() for w in words(heading)]
    return not tokens or all(t in STRUCTURAL_WORDS or t.isdigit() for t in tokens)


def is_generic(heading: str) -> bool:
    """True when ``heading`` names no topic: every word is structural or a leftover-group word
    ("Other Technical Considerations", "Additional Information", "General")."""
    tokens = [w.lower() for w in words(heading)]
    vocabulary = STRUCTURAL_WORDS | GENERIC_HEADING_WORDS
    return not tokens or all(t in vocabulary or t.isdigit() for t in tokens)


BACK_NOUNS: frozenset[str] = frozenset(
    """ability capability requirement requirements examination effort efforts activity
    activities need needs condition conditions goal goals objective objectives expectation
    expectations situation scenario risk risks constraint constraints task tasks""".split()
)
"""Nouns that only say "what was just described" ("preserves *this ability*")."""

_PERSONAL = frozenset({"it", "they", "them", "its", "their"})
_DEMONSTRATIVE = frozenset({"this", "these", "those", "that"})


def points_back(question: str) -> bool:
    """True when ``question`` refers to something stated before it: a personal pronoun
    ("What happens if one of *them* leaves?") or a demonstrative standing alone or before a
    word that names nothing ("accomplish *this*.", "preserves *this ability*").

    A personal pronoun after a thing the question names ("Describe *your approach* and the
    Bank resources *it* will require", "your staff and *their* roles") refers to that thing,
    as in any sentence, so it does not point back. A pronoun of a later ask of a compound
    question that the question itself names first
    ("Describe how often *backups* are taken and how long *they* are retained") points inside
    it, not back (``decompose`` rule 6 gives the part its referent)."""
    from rfp_retrieval.rewrite.decompose import decompose

    pieces = decompose(question)
    if pieces.separate_asks:
        question = " ".join(pieces.parts)
    tokens = words(question)
    for i, token in enumerate(tokens):
        low = token.lower()
        if low in _PERSONAL:
            if not _names_a_thing_before(tokens, i):
                return True
            continue
        if low in _DEMONSTRATIVE:
            nxt = tokens[i + 1].lower() if i + 1 < len(tokens) else ""
            if not nxt or nxt in STOPWORDS or nxt in ABSTRACT_WORDS or nxt in BACK_NOUNS:
                return True
    return False


_NAMING_WORDS = frozenset("the your our a an each every".split())


def _names_a_thing_before(tokens: list[str], index: int) -> bool:
    """True when a determiner or possessive followed by a content word ("your approach",
    "the subprocessors") stands before ``tokens[index]`` and no demonstrative does ("what
    *this period* includes and the criteria for ending *it*": the pronoun is the period the
    sentences above describe)."""
    if any(t.lower() in ("this", "these", "those") for t in tokens[:index]):
        return False
    for j in range(index - 1):
        if tokens[j].lower() in _NAMING_WORDS:
            nxt = tokens[j + 1].lower()
            if nxt not in STOPWORDS and nxt not in _PERSONAL:
                return True
    return False


def nearest_sentences(text: str, count: int = NEAR_SENTENCES, max_words: int | None = None) -> str:
    """The last ``count`` sentences of ``text`` that do not ask anything (the text just
    above a question), at most ``max_words`` words (None: no cap).

    The cap spends words nearest first: the last sentence is kept whole (it is what "this
    period" or "them" points to: "... keep an expanded team engaged for several weeks after
    each launch"), and an earlier one keeps its opening words, where its subject is
    ("Harborline's Model Risk Management policy, which ..."). Only a last sentence longer
    than the cap is cut, to its closing ``max_words`` words."""
    sentences = [s.strip() for s in re.split(r"(?<=[.?!])\s+|\n+", text or "") if s.strip()]
    kept = [s for s in sentences if not s.endswith("?")][-count:] if count > 0 else []
    if max_words is None or not kept:
        return " ".join(kept)
    out: list[str] = []
    budget = max_words
    for i, sentence in enumerate(reversed(kept)):
        tokens = sentence.split()
        if budget <= 0:
            break
        cut = len(tokens) > budget
        tokens = tokens[-budget:] if i == 0 else tokens[:budget]
        piece = " ".join(tokens)
        if cut:
            piece = f"… {piece}" if i == 0 else f"{piece} …"
        out.insert(0, piece)
        budget -= len(tokens)
    return " ".join(out)


def lead_in(question: Question, doc: RfpDocument | None) -> str:
    """The prose just above ``question`` in its section, back to the previous ask: the
    sentences a pronoun or a "these obligations" points to.

    When other asks stand between that prose and the question ("Q2. Describe how you will
    meet this expectation." then "Q3. How often is it exercised?"), the prose above them is
    still the one meant; prose above an earlier ask is not ("... retains records for seven
    years. Q1. Explain how you support these obligations. Some members use screen readers.
    Q2. How do you test with them?": Q2's lead-in is the screen-reader sentence only).
    Tables, headings and bold label lines end a run. Falls back to ``question.context``
    when the document or the question's section or line is unknown. Returns "" when no
    prose stands above the question.
    """
    if doc is None or not question.line or not question.section_key:
        return question.context or ""
    section = next((s for s in doc.sections if s.key == question.section_key), None)
    lines = (doc.text or "").splitlines()
    end = question.line - 1
    if section is None or not 0 <= end < len(lines) or section.line > end + 1:
        return question.context or ""
    start = section.line if section.kind == "heading" else section.line - 1
    # each unit: (is_ask, sentence); None marks a break (table, heading, label line)
    units: list[tuple[bool, str] | None] = []
    block: list[str] = []

    def flush() -> None:
        text = strip_inline_markdown(" ".join(block))
        block.clear()
        for sentence in split_sentences(text):
            bare = LIST_MARKER.sub("", _strip_label(sentence), count=1)
            if len(bare.split()) >= 3:
                units.append((is_ask(bare), bare))

    own = lines[end]
    at = own.find(question.text[:40]) if question.text else -1
    for raw in [*lines[start:end], own[:at] if at > 0 else ""]:
        s = raw.strip()
        if not s or s.startswith(("|", "#")) or re.fullmatch(r"\*\*[^*]+\*\*:?", s):
            flush()
            if s:
                units.append(None)
            continue
        if LIST_MARKER.match(s) or LEADING_LABEL.match(s):
            flush()  # a list item or a labelled ask starts its own unit
        block.append(s)
    flush()
    run: list[str] = []
    units = [u for u in units if u is None or u[0] or names_a_topic(u[1])]
    for unit in reversed(units):
        if unit is None:
            if run:
                break
            continue
        asks, sentence = unit
        if asks:
            if run:
                break
            continue
        run.insert(0, sentence)
    return " ".join(run)


def _strip_label(sentence: str) -> str:
    """``sentence`` without a leading numbering label ("3.1.4 Describe ..."), unless the
    number is its subject ("C.4.3.3 requires continuous scanning")."""
    m = LEADING_LABEL.match(sentence)
    if m and not sentence[m.end() :][:1].islower():
        return sentence[m.end() :]
    return sentence


def names_a_topic(sentence: str) -> bool:
    """True when ``sentence`` has a word that is neither a function word nor procurement
    boilerplate: "Offerors shall respond to each of the following items in order." names no
    topic (it says how to answer, not what about)."""
    if says_how_to_answer(sentence):
        return False
    vocabulary = STOPWORDS | BOILERPLATE_WORDS | STRUCTURAL_WORDS | QUESTION_WORDS | ABSTRACT_WORDS
    return any(
        w.lower() not in vocabulary and re.search(r"[a-z]", w.lower()) for w in words(sentence)
    )


def _names_nothing(aside: str) -> bool:
    """True when a heading's bracketed ``aside`` holds no word beyond function words,
    boilerplate, structural and ``FORMAT_WORDS`` (digits and punctuation aside)."""
    vocabulary = STOPWORDS | BOILERPLATE_WORDS | STRUCTURAL_WORDS | FORMAT_WORDS
    tokens = [w.lower() for w in words(aside)]
    return bool(tokens) and all(t in vocabulary or not re.search(r"[a-z]", t) for t in tokens)


def document_subject(title: str) -> str:
    """The subject of a solicitation from its title: the part after the last ':' or dash,
    without parenthesised acronyms ("... DHHS-RFP-2026-0417: Integrated Eligibility and Case
    Management System (IECMS) Modernization" -> "Integrated Eligibility and Case Management
    System Modernization")."""
    subject = re.split(r":\s+|\s+[—–]\s+", title or "")[-1]
    subject = re.sub(r"\s*\([A-Z0-9&/-]{2,}\)", "", subject)
    return " ".join(subject.split())


def keyword_summary(
    text: str, max_words: int, exclude: str = "", background: list[str] | None = None
) -> str:
    """A short keyword summary of ``text``: its thesaurus concepts first, then its most
    distinctive topical words, at most ``max_words`` words, in order of first appearance.

    Words are ranked by tf-idf against ``background`` (the document's section texts): a word
    used all over the RFP ("period", "performance", "offeror") says less about this passage
    than one concentrated in it. Without a background, by frequency.

    Sentences that ask something (end in "?", or start with an instruction verb or a
    "Question N." label, also after "If so," / "If not,": "If so, describe the algorithm and
    key management.") are left out: they are other questions, not context; so are sentences
    that list a response table's answer codes (``says_how_to_answer``). Words already
    in ``exclude`` (the question and heading) and procurement boilerplate are skipped.
    Returns "" when nothing topical is left or ``max_words`` is 0.
    """
    if max_words <= 0 or not text:
        return ""
    sentences = re.split(r"(?<=[.?!])\s+|\n+", text)
    kept = []
    for sentence in sentences:
        s = _LABEL.sub("", sentence.strip(), count=1)
        first = (words(_FOLLOW_UP.sub("", s, count=1))[:1] or [""])[0].lower()
        if not s or s.endswith("?") or first in QUESTION_WORDS or first == "question":
            continue
        if says_how_to_answer(s):
            continue
        kept.append(s)
    body = " ".join(kept)
    if not body:
        return ""
    seen = set(stem_words(exclude))
    tokens = words(body)
    picked: list[tuple[int, str]] = []
    used: set[str] = set()
    budget = max_words
    for start, end, group, _ in find_concepts(body):
        phrase = " ".join(tokens[start:end])
        stems = set(stem_words(phrase))
        if stems <= seen or stems <= used or THESAURUS[group][0] in ("work",):
            continue
        if len(phrase.split()) > budget:
            break
        picked.append((start, phrase))
        used |= stems
        budget -= len(phrase.split())
    counts: Counter[str] = Counter()
    first_pos: dict[str, tuple[int, str]] = {}
    for i, token in enumerate(tokens):
        low = token.lower()
        if (
            low in STOPWORDS
            or low in BOILERPLATE_WORDS
            or low in ABSTRACT_WORDS
            or low in QUESTION_WORDS
            or not re.search(r"[a-z]", low)
            or len(low) < 3
        ):
            continue
        stem = stem_words(low)[0]
        if stem in seen or stem in used:
            continue
        counts[stem] += 1
        first_pos.setdefault(stem, (i, token))
    idf = _idf(background or [])
    for stem, _ in sorted(
        counts.items(), key=lambda kv: (-kv[1] * idf.get(kv[0], 1.0), first_pos[kv[0]][0])
    ):
        if budget <= 0:
            break
        picked.append(first_pos[stem])
        used.add(stem)
        budget -= 1
    return ", ".join(p for _, p in sorted(picked))


def inherit_context(
    question: Question, doc: RfpDocument | None, config: ContextConfig | None = None
) -> QuestionContext:
    """The context ``question`` inherits from ``doc`` under ``config``.

    ``doc`` may be None (a question given on its own): then only the question's own
    ``section_path``, ``topic`` and ``context`` are used. Never raises for a missing section
    or reference key (they are simply not inherited).
    """
    config = config or ContextConfig()
    ctx = QuestionContext(topic=(question.topic or "").strip())
    if ctx.topic and config.skip_structural and is_structural(clean_heading(ctx.topic)):
        # a table's caption ("Requirements Response Table") places the row, it is no topic
        ctx.skipped.append(ctx.topic)
        ctx.topic = ""
    path = list(question.section_path or [])
    if doc is not None and path and _same(path[0], doc.title):
        path = path[1:]
    if path and question.label and clean_heading(path[-1]).startswith(question.text[:30]):
        path = path[:-1]
    topical: list[str] = []
    for entry in reversed(path):
        heading = clean_heading(entry)
        if not heading:
            continue
        if config.skip_structural and is_structural(heading):
            ctx.skipped.append(entry)
            continue
        if heading not in topical:
            topical.append(heading)
    if ctx.topic:
        ctx.heading = ctx.topic
        ctx.outline = [h for h in topical if h != ctx.topic][: config.outline_levels]
    elif topical:
        ctx.heading = topical[0]
        ctx.outline = topical[1 : 1 + config.outline_levels]
    ctx.document_reference = bool(_DOCUMENT_REFERENCE.search(question.text))
    if doc is not None and (config.use_summary or ctx.document_reference):
        ctx.summary = doc.summary or ""
        ctx.subject = document_subject(doc.title)
    exclude = " ".join([question.text, ctx.heading, *ctx.outline])
    background = [s.body for s in doc.sections if s.body] if doc is not None else []
    # no topical heading at all (every heading structural: "Section 4 — Vendor Responses") is
    # a generic heading too: the sentences above are the only topic there is
    ctx.generic_heading = not ctx.topic and (not ctx.heading or is_generic(ctx.heading))
    pointing = not ctx.topic and points_back(question.text)
    if (ctx.generic_heading or pointing) and config.paragraph_words > 0:
        # the heading says nothing, or the question points back ("accomplish this", "one of
        # them"): the sentences just above, as written, carry what it refers to
        ctx.paragraphs = nearest_sentences(lead_in(question, doc), max_words=NEAR_WORDS)
        ctx.points_back = pointing and bool(ctx.paragraphs)
    else:
        ctx.paragraphs = keyword_summary(
            question.context or "", config.paragraph_words, exclude, background
        )
    if doc is not None and config.reference_words > 0:
        by_key = {s.key: s for s in doc.sections}
        for key in question.references or []:
            section = by_key.get(key)
            if section is None:
                continue
            text = _section_text(section, doc.sections)
            heading = clean_heading(section.heading) if section.kind == "heading" else ""
            ctx.references.append(
                ReferencedSection(
                    key=key,
                    heading=heading,
                    summary=keyword_summary(
                        text,
                        config.reference_words,
                        " ".join([question.text, heading]),
                        background,
                    ),
                )
            )
    return ctx


def _idf(background: list[str]) -> dict[str, float]:
    """Smoothed inverse document frequency of each stem over ``background`` texts."""
    import math

    if not background:
        return {}
    df: Counter[str] = Counter()
    for text in background:
        df.update(set(stem_words(text)))
    n = len(background)
    return {stem: math.log((n + 1) / (count + 1)) + 1.0 for stem, count in df.items()}


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()).lower() == " ".join((b or "").split()).lower()


def _section_text(section: Section, sections: list[Section]) -> str:
    """A section's body plus the bodies of the sections nested under it."""
    parts = [section.body or ""]
    inside = False
    for s in sections:
        if s.key == section.key:
            inside = True
            continue
        if inside:
            if s.level <= section.level:
                break
            parts.append(s.body or "")
    return "\n".join(p for p in parts if p)
