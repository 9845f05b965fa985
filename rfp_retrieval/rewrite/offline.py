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

from rfp_retrieval.rewrite.context import QuestionContext
from rfp_retrieval.rewrite.decompose import decompose
from rfp_retrieval.rewrite.records import RewriteOutput, RewriteRequest
from rfp_retrieval.rewrite.specificity import ANAPHORS, check_specificity
from rfp_retrieval.rewrite.terms import stem_words, words
from rfp_retrieval.rewrite.thesaurus import THESAURUS, find_concepts

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


class OfflineRewriter:
    """Rule-based rewriter; ``name`` is ``"offline"``. Thread-safe (no state)."""

    name = OFFLINE

    def rewrite(self, request: RewriteRequest) -> RewriteOutput:
        """Rewrite, parts and three paraphrases for ``request`` (never raises)."""
        ctx = request.context
        log: list[str] = []
        core = attach_topic(request.question, ctx, log)
        rewrite = _with_context(core, ctx, log)
        pieces = decompose(request.question)
        parts = [attach_topic(p, ctx, []) for p in (list(request.parts) or pieces.parts)]
        log.extend(pieces.log)
        paraphrases = paraphrase(core, _context_tail(ctx), PARAPHRASE_COUNT)
        log.append(f"{len(paraphrases)} paraphrases from the thesaurus")
        return RewriteOutput(
            rewrite=rewrite, parts=parts, paraphrases=paraphrases, producer=OFFLINE, log=log
        )


def attach_topic(question: str, ctx: QuestionContext, log: list[str]) -> str:
    """``question`` with its topic attached (pronoun resolved, or heading added).

    The topic is the table row's topic, else the nearest topical heading. Returns the
    question unchanged when it already names the topic or there is none.
    """
    text = question.strip()
    topic = ctx.topic or ctx.heading
    if not topic:
        return text
    topic_phrase = topic
    verdict = check_specificity(text)
    if verdict.anaphors:
        pronoun = verdict.anaphors[0]
        replacement = f"{topic_phrase}'s" if pronoun.lower() == "its" else topic_phrase
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


def _with_context(core: str, ctx: QuestionContext, log: list[str]) -> str:
    tail = _context_tail(ctx)
    if tail:
        log.append("inherited: " + tail)
        return f"{core} ({tail})"
    return core


def _context_tail(ctx: QuestionContext) -> str:
    pieces: list[str] = []
    for heading in ctx.outline:
        pieces.append(heading)
    for ref in ctx.references:
        ref_text = ": ".join(p for p in (ref.heading, ref.summary) if p)
        if ref_text:
            pieces.append(ref_text)
    if ctx.paragraphs:
        pieces.append(ctx.paragraphs)
    if ctx.subject:
        pieces.append(ctx.subject)
    return "; ".join(pieces)


def paraphrase(core: str, tail: str, count: int = PARAPHRASE_COUNT) -> list[str]:
    """``count`` rewordings of ``core`` (plus ``tail``), each swapping thesaurus phrases.

    Paraphrase i replaces every concept phrase found with the i-th other phrase of its group
    (cycling). A question with no thesaurus phrase gets keyword forms instead: its topical
    words, reordered. Duplicates of ``core`` are dropped, so fewer than ``count`` may return.
    """
    tokens = words(core)
    found = find_concepts(core)
    out: list[str] = []
    for i in range(1, count + 1):
        if found:
            pieces: list[str] = []
            cursor = 0
            for start, end, group, phrase_index in found:
                pieces.extend(tokens[cursor:start])
                options = THESAURUS[group]
                pieces.append(options[(phrase_index + i) % len(options)])
                cursor = end
            pieces.extend(tokens[cursor:])
            text = " ".join(pieces)
        else:
            content = [w for w in tokens if len(w) > 2]
            shift = i % max(1, len(content))
            text = " ".join(content[shift:] + content[:shift])
        if tail:
            text = f"{text} ({tail})"
        if text not in out and text != core:
            out.append(text)
    return out


def _covers(text: str, topic: str) -> bool:
    """True when at least half of the topic's words (stemmed) already occur in ``text``."""
    topic_stems = [s for s in stem_words(topic) if s not in _WEAK]
    if not topic_stems:
        return True
    have = set(stem_words(text))
    return sum(s in have for s in topic_stems) * 2 >= len(topic_stems)


_WEAK = set(stem_words(" ".join(sorted(ANAPHORS | {"and", "of", "the", "for", "to", "in"}))))
