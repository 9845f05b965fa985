"""The deterministic offline rewriter (seed 2: "templates, rules, a domain thesaurus").

Given a question and its inherited context it produces the same three things the LLM does:

1. a rewrite that attaches the context: an unresolved pronoun takes the topic ("How often are
   *they* rotated?" under "Key Management" -> "How often are key management rotated?"),
   a bare "Describe your approach." takes the heading ("... approach to data migration"),
   otherwise the topic follows the question; then the outline levels, the cross-referenced
   sections, the earlier-paragraph keywords and the document subject, each as configured;
2. parts of a compound question (``decompose``), each carrying the topic;
3. three paraphrases that swap thesaurus vocabulary (migration -> conversion -> cutover ...),
   paraphrase i taking the i-th alternative of each concept.

Same input, same output: no randomness, no clock, no network.
"""

from __future__ import annotations

import re
from dataclasses import replace

from rfp_retrieval.rewrite.context import QuestionContext, is_structural
from rfp_retrieval.rewrite.decompose import decompose
from rfp_retrieval.rewrite.records import RewriteOutput, RewriteRequest
from rfp_retrieval.rewrite.specificity import ANAPHORS, check_specificity, cross_references
from rfp_retrieval.rewrite.terms import (
    QUESTION_WORDS,
    STOPWORDS,
    protected_terms,
    stem_words,
    word_spans,
)
from rfp_retrieval.rewrite.thesaurus import GENERIC_CONCEPTS, THESAURUS, find_concepts

PARAPHRASE_COUNT = 3
"""Seed 2: "Three paraphrases plus the rewritten query plus the original ... gains plateaued
at three"."""

_BARE_ASK = re.compile(
    r"^(?:describe|explain|discuss|outline|provide|present|detail)\s+(?:your|the|its)\s+"
    r"(?:proposed\s+|overall\s+|technical\s+)?"
    r"(?:approach|plan|process|methodology|strategy|solution|capability|capabilities)\s*[.?]?$",
    re.I,
)
OFFLINE = "offline"
_FUNCTION_WORDS = STOPWORDS | QUESTION_WORDS


class OfflineRewriter:
    """Rule-based rewriter; ``name`` is ``"offline"``. Stateless, so thread-safe.

    ``include_subject``: append the document subject to every rewrite. Off by default: on the
    dev qrels it cost specific questions 0.05 MRR@10 (the issue's own observation: "adding the
    whole document title/subject hurts specific questions"). A question that points at the
    whole solicitation ("... to this requirement") always gets it.
    """

    name = OFFLINE

    def __init__(self, include_subject: bool = False):
        self.include_subject = include_subject

    def rewrite(self, request: RewriteRequest) -> RewriteOutput:
        """Rewrite, parts and three paraphrases for ``request`` (never raises)."""
        ctx = request.context
        log: list[str] = []
        core = attach_topic(name_references(request.question, ctx, log), ctx, log)
        tail = _context_tail(ctx, self.include_subject or ctx.document_reference)
        if tail:
            log.append("inherited: " + tail)
        rewrite = f"{core} ({tail})" if tail else core
        pieces = decompose(request.question)
        # a part carries the heading, not the sentences a pronoun points to: the rewrite
        # already holds them, and parts that repeat them are near-copies of the rewrite
        part_ctx = replace(ctx, points_back=False) if ctx.heading else ctx
        parts = [attach_topic(p, part_ctx, []) for p in (list(request.parts) or pieces.parts)]
        log.extend(pieces.log)
        paraphrases = paraphrase(core, tail, PARAPHRASE_COUNT)
        log.append(f"{len(paraphrases)} paraphrases from the thesaurus")
        return RewriteOutput(
            rewrite=rewrite, parts=parts, paraphrases=paraphrases, producer=OFFLINE, log=log
        )


def attach_topic(question: str, ctx: QuestionContext, log: list[str]) -> str:
    """``question`` with its topic attached (pronoun resolved, or heading added).

    The topic is the table row's topic, else the nearest topical heading; under a generic
    heading ("Other Considerations") the sentences above the question. Returns the
    question unchanged when it already names the topic or there is none.
    """
    text = question.strip()
    topic = ctx.topic or ctx.heading
    referenced = _referenced_headings(ctx)
    if (ctx.generic_heading or ctx.points_back) and ctx.paragraphs and not referenced:
        # "Other Considerations", or no topical heading at all: the sentences above name the
        # topic (issue 14); a pronoun or "this ability" points to the sentences just above
        # it, not to the heading ("How is it backed up?" after "Regarding the vendor portal")
        log.append(
            "generic heading: the sentences above the question are its topic"
            if ctx.generic_heading
            else "points back: the sentences above the question are what it refers to"
        )
        return f"{text.rstrip(' .?')} — {ctx.paragraphs}"
    if referenced and not ctx.topic:
        if any(h in text for h in referenced):
            return text
        topic = referenced[0]
    if not topic:
        return text
    topic_phrase = topic
    verdict = check_specificity(text)
    if verdict.anaphors and _own_subject_possessive(text, verdict.anaphors[0]):
        log.append(f"{verdict.anaphors[0]!r} is the sentence's own subject's: not resolved")
        verdict = replace(verdict, anaphors=verdict.anaphors[1:])
    if verdict.anaphors:
        pronoun = verdict.anaphors[0]
        noun = in_sentence(topic_phrase)
        plural = noun.endswith("s") and not noun.endswith("ss")
        replacement = (noun + ("'" if plural else "'s")) if pronoun.lower() == "its" else noun
        text = re.sub(rf"\b{re.escape(pronoun)}\b", replacement, text, count=1)
        log.append(f"resolved {pronoun!r} to the topic {topic!r}")
        return text
    if _covers(text, topic):
        return text
    if _BARE_ASK.match(text):
        text = f"{text.rstrip(' .?')} to {topic_phrase}"
        log.append(f"bare request: attached the heading {topic!r}")
        return text
    log.append(f"attached the topic {topic!r}")
    return f"{text.rstrip(' .?')} — {topic_phrase}"


_SUBJECT_THEN_VERB = re.compile(
    r"^\W*(?:the|each|every|an?|all|any)\s+[A-Za-z-]+(?:\s+[A-Za-z-]+)?\s+"
    r"(?:shall|will|must|should|may|can|is\s+to|are\s+to)\b",
    re.I,
)


def _own_subject_possessive(text: str, pronoun: str) -> bool:
    """True when ``pronoun`` is "its"/"their" after the sentence's own subject and verb
    ("The quoter shall describe its approach": its = the quoter's). Rule: a possessive
    pronoun refers back to the subject of its clause, not to the section heading."""
    if pronoun.lower() not in ("its", "their"):
        return False
    m = re.search(rf"\b{re.escape(pronoun)}\b", text)
    return bool(m and _SUBJECT_THEN_VERB.search(text[: m.start()]))


def in_sentence(heading: str) -> str:
    """``heading`` as a noun inside a sentence, where it takes a pronoun's place: title-case
    words lower-cased, acronyms and mixed-case names kept ("Key Management" -> "How often are
    key management rotated?", "Technology" -> "How is technology backed up?", "SOC 2 Reports"
    -> "SOC 2 reports", "FedRAMP" stays). Retrieval reads lower case either way (the bundled
    embedding model is uncased, BM25 tokens are lower-cased): the rewrite just reads as a
    sentence in the log and the brief."""

    def one(word: str) -> str:
        if len(word) > 1 and (word.isupper() or any(c.isupper() for c in word[1:])):
            return word
        return word[:1].lower() + word[1:]

    return " ".join(one(w) for w in heading.split())


def _referenced_headings(ctx: QuestionContext) -> list[str]:
    return [r.heading for r in ctx.references if r.heading and not is_structural(r.heading)]


def name_references(question: str, ctx: QuestionContext, log: list[str]) -> str:
    """``question`` with each cross-reference followed by the referenced section's heading:
    "the requirements of C.3.1" -> "the requirements of Grants Lifecycle Platform (C.3.1)"
    (seed 2: "the retrieval target is the system, not the section"). A heading whose every
    word the question already writes is not named ("each task in Section C.3" stays, not
    "each task in Tasks (Section C.3)"): it adds no topic, only a repeated word."""
    text = question
    for ref in ctx.references:
        if not ref.heading or is_structural(ref.heading):
            continue
        if _all_words_in(ref.heading, text):
            log.append(f"reference {ref.key!r} not named: the question writes {ref.heading!r}")
            continue
        for mention in cross_references(text):
            if mention.endswith(ref.key) and ref.heading not in text:
                text = text.replace(mention, f"{ref.heading} ({mention})", 1)
                log.append(f"named reference {mention!r}: {ref.heading!r}")
                break
    return text


def _all_words_in(heading: str, text: str) -> bool:
    """True when every content word of ``heading`` (stemmed) occurs in ``text``."""
    mine = set(stem_words(text))
    theirs = [w for w in stem_words(heading) if w not in _FUNCTION_WORDS]
    return bool(theirs) and all(w in mine for w in theirs)


def _context_tail(ctx: QuestionContext, with_subject: bool) -> str:
    pieces: list[str] = list(ctx.outline)
    pointed = ctx.points_back and not ctx.generic_heading and not _referenced_headings(ctx)
    if pointed and ctx.heading:
        pieces.insert(0, ctx.heading)  # the sentences took the heading's place in the core
    for ref in ctx.references:
        if ref.summary:
            pieces.append(ref.summary)
    if ctx.paragraphs and not (ctx.generic_heading or pointed):
        pieces.append(ctx.paragraphs)
    if with_subject and ctx.subject:
        pieces.append(ctx.subject)
    return "; ".join(pieces)


def paraphrase(
    core: str, tail: str, count: int = PARAPHRASE_COUNT, swap_context: bool = False
) -> list[str]:
    """``count`` rewordings of ``core`` plus its context ``tail``, swapping thesaurus phrases.

    Paraphrase i replaces every concept phrase found (in the question and in its inherited
    context) with the i-th other phrase of its group, cycling, in place: the question's own
    punctuation, brackets and word order stay as written (issue 14). A concept is left as
    written when it overlaps a protected term (``terms.protected_terms``: "FedRAMP Moderate",
    "SOC 2 Type II") or when its group holds one the text names ("single sign-on (SSO)"
    stays: swapping the phrase beside its own acronym would pair the acronym with a different
    wording), so every protected term survives in every paraphrase. The inherited context
    (``tail``) is kept as written unless ``swap_context`` is set or the question itself holds
    no swappable phrase: swapping its keywords gave variants no writer could read ("Program
    Manager" -> "project management", "letter" -> "notifications"; issue 15). Text without any
    swappable phrase is returned in keyword form (topical words only) once. Duplicates are
    dropped, so fewer than ``count`` may return.
    """
    text = f"{core} ({tail})" if tail else core
    spans = word_spans(text)
    protected = [
        (m.start(), m.end())
        for term in protected_terms(text)
        for m in re.finditer(re.escape(term), text)
    ]
    named = {t.lower() for t in protected_terms(text)}
    found = []
    for start, end, group, phrase_index in find_concepts(text):
        a, b = spans[start][0], spans[end - 1][1]
        if any(a < pe and ps < b for ps, pe in protected):
            continue
        if any(option.lower() in named for option in THESAURUS[group]):
            continue
        if _POSSESSIVE.match(text[b:]):
            continue  # a possessive ("the task's owner") names its owner as written
        if _generic_use(text[:a], text[a:b], group):
            continue
        found.append((a, b, group, phrase_index))
    in_core = [f for f in found if f[1] <= len(core)]
    if in_core and not swap_context:
        found = in_core
    out: list[str] = []
    if not found:
        keywords = " ".join(
            text[a:b] + ("%" if text[b : b + 1] == "%" else "")
            for a, b in spans
            if text[a:b].lower() not in _FUNCTION_WORDS
        )
        return [keywords] if keywords and keywords != text else []
    for i in range(1, count + 1):
        pieces: list[str] = []
        cursor = 0
        for a, b, group, phrase_index in found:
            pieces.append(text[cursor:a])
            written = text[a:b]
            options = THESAURUS[group]
            option = options[(phrase_index + i) % len(options)]
            verb = bool(_VERB_POSITION.search(text[:a])) or not _same_participle(written, option)
            verb = verb or not _listed_form(written, options)
            swap = option if not verb and _fits(written, option, text[b:], text[:a]) else written
            pieces[-1] = _fix_article(pieces[-1], swap)
            pieces.append(swap)
            cursor = b
        pieces.append(text[cursor:])
        candidate = "".join(pieces)
        if candidate not in out and candidate != text:
            out.append(candidate)
    return out


_ROLE_NOUNS = frozenset(
    """manager managers lead leads director directors officer officers coordinator
    coordinators specialist specialists analyst analysts engineer engineers architect
    architects administrator administrators owner owners liaison""".split()
)
"""Head nouns of job titles: the word before one is part of the title, never swapped."""

_POSSESSIVE = re.compile(r"['\u2019](?:s\b|\s|$)")
_QUANTIFIER = re.compile(r"\b(?:each|every|any|all|other|another|no)\s+$", re.I)


def _generic_use(before: str, written: str, group: int) -> bool:
    """True when ``written`` (one word of a ``GENERIC_CONCEPTS`` group) follows a quantifier
    ("each task", "any work"): there it counts items of whatever the sentence is about, and a
    swap gives "each caseload". Rule: a generic noun after each/every/any names no concept."""
    return (
        " " not in written.strip()
        and THESAURUS[group][0] in GENERIC_CONCEPTS
        and bool(_QUANTIFIER.search(before))
    )


_NOMINAL = re.compile(
    r"(?:tion|sion|ment|ness|ity|ance|ence|ship|ism|ists?|ers?|ors?|ings?|ics)$", re.I
)
_VERB_POSITION = re.compile(r"\b(?:should|must|shall|will|would|can|could|may|might)\s+$", re.I)


def _listed_form(written: str, options: tuple[str, ...] | list[str]) -> bool:
    """True when ``written`` is one of its group's phrases as listed, or the plural or
    singular of one ("backups" for "backup"); a single word the thesaurus only matched
    through its stem ("encrypts" for "encryption", "migrate" for "migration") is another
    word class or form and is not swapped: "how the solution encrypts data" must not become
    "how the solution cryptography data" (issue 15: nonsense query variants)."""
    low = written.lower()
    if " " in low:
        return True
    for option in options:
        o = option.lower()
        if low == o or low in (o + "s", o + "es") or o in (low + "s", low + "es"):
            return True
    return False


def _same_participle(written: str, option: str) -> bool:
    """False when ``written`` is one word in "-ed" (a past tense or participle: "how long are
    backups *retained*") and ``option`` is a phrase of several words: a verb does not become
    a noun phrase ("How long are backups hold on to", "... continuity of staff"). True
    otherwise."""
    if " " in written or not written.lower().endswith("ed"):
        return True
    return len(option.split()) == 1


def same_word_class(written: str, option: str) -> bool:
    """True when swapping ``written`` for ``option`` cannot change the word class of the
    phrase's head (its last word). A written phrase of several words is a noun phrase; a
    single written word with a noun-forming suffix (-tion, -ment, -ity,
    -ance, -ness, -er, -ing ...) is a noun and may become any noun of its group; a head
    without one may be a verb or an adjective ("should measure", "a similar scope"), so it
    only becomes another suffix-less word: "should measure their level" must not become
    "should measurement their level", nor "a similar scope" "a applicability scope". The
    thesaurus holds noun concepts: a phrase right after a modal ("should measure") is a verb
    and is never swapped (``paraphrase``)."""
    if len(written.split()) > 1:
        return True  # a written compound ("disaster recovery") is a noun phrase
    head_w = (written.split() or [""])[-1]
    head_o = (option.split() or [""])[-1]
    return bool(_NOMINAL.search(head_w)) or not _NOMINAL.search(head_o)


def _fits(written: str, option: str, after: str, before: str = "") -> bool:
    """``option`` may replace ``written`` (between ``before`` and ``after``): it does not
    repeat the word next to it ("a similar scope" -> not "a comparable scope scope", "user
    adoption" -> not "user user acceptance"), and where ``written`` stands before a word (a
    modifier, "similar scope", "relevant contracts", or a verb before its object, "measure
    their level") a single word without a noun suffix becomes only a single word, of the
    same class (``same_word_class``). Before punctuation, a preposition or a conjunction ("Phase-In
    (...)", "relevance and ...") the phrase is a noun and any phrase of its group fits.

    A phrase that modifies the next noun (``_modifies``) keeps that noun its head: a singular
    modifier never becomes a plural phrase, which would read as a head of its own ("staffing
    plan" -> "personnel plan", not "labor categories plan"; "service level requirements" ->
    not "response and resolution times requirements"), and no option ends in the stem of the
    noun it modifies ("contingency planning plan"), and a job title keeps its words
    (``_ROLE_NOUNS``: "engagement manager" never "involvement manager"). One word before a
    determiner is a verb before its object ("staffing the help desk") and is not swapped.
    Rule: a swap replaces a noun phrase the thesaurus lists, never a head noun's modifier with
    another head (issue 15)."""
    nxt = re.match(r"\s+([A-Za-z][\w'-]*)", after)
    following = nxt.group(1).lower() if nxt else ""
    prev = re.search(r"([A-Za-z][\w'-]*)\s+$", before)
    preceding = prev.group(1).lower() if prev else ""
    if option.split()[-1].lower() == following or option.split()[0].lower() == preceding:
        return False
    if following and stem_words(option.split()[-1]) == stem_words(following):
        return False  # "contingency planning plan"
    if not following or (following in _FUNCTION_WORDS and following not in _DETERMINERS):
        return True
    if _modifies(following, before) and _plural(option) and not _plural(written):
        return False  # a modifier would become a head ("staffing plan": "labor categories plan")
    if _modifies(following, before) and following in _ROLE_NOUNS:
        return False  # a job title is named as written ("engagement manager", "payroll lead")
    if len(written.split()) == 1 and following in _DETERMINERS:
        return False  # a verb before its object ("staffing the help desk")
    if len(written.split()) == 1 and len(option.split()) > 1 and not _NOMINAL.search(written):
        return False  # an adjective or verb does not become a phrase ("relevant contracts")
    return same_word_class(written, option)


def _modifies(following: str, before: str) -> bool:
    """True when the phrase between ``before`` and the word ``following`` (lower case)
    modifies that word, a head noun ("staffing plan", "Modernization Approach"): the next word
    is a content word, not a participle ("are access reviews performed"), and the phrase is
    not a verb after a modal ("should measure adoption")."""
    return bool(
        following
        and following not in _FUNCTION_WORDS
        and not following.endswith(("ed", "ing"))
        and not _VERB_POSITION.search(before)
    )


def _plural(phrase: str) -> bool:
    """True when the last word of ``phrase`` is a plural noun by its spelling ("labor
    categories", "awards"); acronyms ("SLA"), "-ss" / "-us" / "-is" / "-ics" words
    ("process", "status", "analysis", "analytics") are not."""
    last = (phrase.split() or [""])[-1]
    low = last.lower()
    return (
        len(low) > 3
        and not last.isupper()
        and low.endswith("s")
        and not low.endswith(("ss", "us", "is", "ics"))
    )


_DETERMINERS = frozenset(
    "a an the their its your our his her this these those each every all any".split()
)


def _fix_article(before: str, following: str) -> str:
    """``before`` with a trailing indefinite article matched to ``following``'s first sound
    by its first letter ("a audit" -> "an audit", "an review" -> "a review"); acronyms and
    words starting with "u"/"eu"/"one" are left as written (their sound is not their
    letter)."""
    m = re.search(r"\b(a|an|A|An)(\s+)$", before)
    if not m or not following or following[:1].isupper() and following[:2].isupper():
        return before
    first = following.lstrip()[:3].lower()
    if not first or first[0] == "u" or first.startswith(("eu", "one")):
        return before
    article = "an" if first[0] in "aeio" else "a"
    if m.group(1)[0].isupper():
        article = article.capitalize()
    return before[: m.start(1)] + article + m.group(2)


def _covers(text: str, topic: str) -> bool:
    """True when at least half of the topic's words (stemmed) already occur in ``text``."""
    topic_stems = [s for s in stem_words(topic) if s not in _WEAK]
    if not topic_stems:
        return True
    have = set(stem_words(text))
    return sum(s in have for s in topic_stems) * 2 >= len(topic_stems)


_WEAK = set(stem_words(" ".join(sorted(ANAPHORS | {"and", "of", "the", "for", "to", "in"}))))
