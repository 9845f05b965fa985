"""Specificity check (seed 2): is a question already a retrieval-grade query?

"Production runs a three-step rewrite for any question that scores below a specificity
threshold on a quick lexical check (short, abstract verbs, no domain noun phrases)." Specific
questions skip the rewrite (about 30 % in the seed's corpus): "What is the maximum file size
your API accepts on a POST to /v1/documents?" is retrieved as written.

Beyond the seed, two cues always send a question to the rewriter whatever its score: a pronoun
with nothing in the question to refer to ("Is *it* enforced for all workforce accounts?", the
table-row case), and a cross-reference ("the interfaces listed in Section 2.3").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rfp_retrieval.rewrite.terms import content_words, distinctive_terms, words
from rfp_retrieval.rewrite.thesaurus import GENERIC_CONCEPTS, THESAURUS, find_concepts

SPECIFICITY_THRESHOLD = 0.5
"""Questions scoring at or above this skip the rewrite (seed 2: "specificity threshold")."""

DISTINCTIVE_WEIGHT = 0.5
DOMAIN_PHRASE_WEIGHT = 0.4
EXTRA_WORD_WEIGHT = 0.05
MIN_WORDS_FOR_LENGTH_CREDIT = 4

ABSTRACT_WORDS: frozenset[str] = frozenset(
    """approach approaches plan plans process processes methodology method methods strategy
    solution solutions system systems platform service services contractor offeror offerors
    vendor quoter department agency government state work way ways capability capabilities
    practices practice program proposed current required each every major new existing
    ensure meet meeting support supporting requirement requirements information data
    item items thing things details detail choice option options use used using""".split()
)
"""Words that carry no topic of their own ("Describe your approach to ... the solution")."""

ANAPHORS: frozenset[str] = frozenset({"it", "they", "them", "this", "these", "those", "its"})

FILLER_WORDS: frozenset[str] = frozenset(
    """often frequently long many much well currently also already typically usually still
    ever always annually regularly last""".split()
)
"""Adverbs that can stand before a pronoun without giving it anything to refer to."""

_CROSS_REFERENCE = re.compile(
    r"\b(?:Sections?|Paragraphs?|Attachments?|Appendix|Exhibit)\s+(?!\d{3})[A-Z0-9](?:[\w.-]*\w)?"
    r"|\b[A-Z]\.\d+(?:\.\d+)+\b"
    r"|\b[IVX]+\.[A-Z](?:\.\d+)*\b"
    r"|\bthis\s+(?:requirement|solicitation|acquisition)\b",
)


@dataclass(frozen=True)
class Specificity:
    """The verdict for one question.

    ``score`` is in [0, 1] (0.5 per distinctive term, 0.4 per domain noun phrase, 0.05 per
    topical word beyond the fourth, capped at 1); ``specific`` is True when the question
    skips the rewrite; ``reasons`` say why, in the words shown in the rewrite log.
    """

    score: float
    specific: bool
    reasons: list[str] = field(default_factory=list)
    distinctive: list[str] = field(default_factory=list)
    domain_phrases: list[str] = field(default_factory=list)
    anaphors: list[str] = field(default_factory=list)
    cross_references: list[str] = field(default_factory=list)


def cross_references(text: str) -> list[str]:
    """Section references in ``text`` ("Section 2.4", "C.3.1", "II.A", "this requirement")."""
    return [m.group(0) for m in _CROSS_REFERENCE.finditer(text or "")]


def check_specificity(text: str, threshold: float = SPECIFICITY_THRESHOLD) -> Specificity:
    """Score how retrieval-ready ``text`` is and decide whether it skips the rewrite.

    Rule source: seed 2 (short, abstract verbs, no domain noun phrases -> rewrite), plus the
    anaphora and cross-reference cues described in the module docstring.
    """
    distinctive = distinctive_terms(text)
    tokens = words(text)
    domain: list[str] = []
    domain_positions: list[int] = []
    for start, end, group, _ in find_concepts(text):
        if THESAURUS[group][0] in GENERIC_CONCEPTS:
            continue
        domain.append(" ".join(tokens[start:end]))
        domain_positions.append(start)
    topical = [w for w in content_words(text) if w.lower() not in ABSTRACT_WORDS]
    refs = cross_references(text)
    # A pronoun is unresolved when nothing topical precedes it in the question.
    anaphors: list[str] = []
    first_topic = min(domain_positions, default=len(tokens))
    for i, word in enumerate(tokens):
        if word.lower() in ANAPHORS and i < first_topic and not _topical_before(tokens, i):
            anaphors.append(word)
    score = (
        DISTINCTIVE_WEIGHT * len(distinctive)
        + DOMAIN_PHRASE_WEIGHT * len(domain)
        + EXTRA_WORD_WEIGHT * max(0, len(topical) - MIN_WORDS_FOR_LENGTH_CREDIT)
    )
    score = round(min(1.0, score), 3)
    reasons: list[str] = []
    if distinctive:
        reasons.append("distinctive terms: " + ", ".join(distinctive))
    if domain:
        reasons.append("domain phrases: " + ", ".join(domain))
    if not distinctive and not domain:
        reasons.append("no domain noun phrase")
    if len(topical) <= 2:
        reasons.append(f"short: {len(topical)} topical word(s)")
    if anaphors:
        reasons.append("refers to something not in the question: " + ", ".join(anaphors))
    if refs:
        reasons.append("cross-reference: " + ", ".join(refs))
    specific = score >= threshold and not anaphors and not refs
    return Specificity(
        score=score,
        specific=specific,
        reasons=reasons,
        distinctive=distinctive,
        domain_phrases=domain,
        anaphors=anaphors,
        cross_references=refs,
    )


def _topical_before(tokens: list[str], index: int) -> bool:
    """True when a topical content word precedes position ``index``."""
    from rfp_retrieval.rewrite.terms import QUESTION_WORDS, STOPWORDS

    for word in tokens[:index]:
        low = word.lower()
        if low in STOPWORDS or low in QUESTION_WORDS or low in ABSTRACT_WORDS:
            continue
        if low in FILLER_WORDS:
            continue
        return True
    return False
