"""A one-paragraph, deterministic summary of an RFP (no model): title, issuer, first background.

The summary feeds the question rewriter's inherited context (seed 2, step 1), so it has to be
short (``SUMMARY_WORDS``) and say what the work is.
"""

from __future__ import annotations

import re

from rfp_retrieval.documents.records import Section
from rfp_retrieval.documents.text import split_sentences, strip_inline_markdown

SUMMARY_WORDS = 80
"""Upper bound on summary length in words."""

_BACKGROUND = re.compile(
    r"\b(background|purpose|overview|introduction|summary|description|objectives?|scope|"
    r"project description|statement of (?:work|objectives|need)|requirements?)\b",
    re.I,
)
_FIRST_CHOICE = re.compile(
    r"\b(background|purpose|overview|introduction|summary|description)\b", re.I
)


def prose(text: str) -> str:
    """The running prose of a section body: no tables, headings, link-only or form lines."""
    kept: list[str] = []
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith(("|", "#", "+-", "<!--", "![")) or s.count("|") >= 2:
            continue
        kept.append(re.sub(r"^(?:[-*+]|\d{1,2}[.)])\s+", "", s))
    return strip_inline_markdown(" ".join(kept))


def _words(text: str) -> int:
    return len(text.split())


def _good_sentence(sentence: str, min_words: int) -> bool:
    letters = [c for c in sentence if c.isalpha()]
    shouting = bool(letters) and sum(c.isupper() for c in letters) / len(letters) > 0.6
    return (
        _words(sentence) >= min_words
        and sentence.endswith((".", "!", "?", ".)", '."', ".”"))
        and not shouting
        and not re.search(r"_{3,}|\.{4,}", sentence)
    )


def _sentences_of(section: Section) -> list[str]:
    return [s for s in split_sentences(prose(section.body)) if _good_sentence(s, 4)]


def summarize(title: str, issuer: str | None, sections: list[Section], text: str) -> str:
    """One paragraph of at most ``SUMMARY_WORDS`` words: title, issuer, first background sentences.

    Background sentences come from the first section headed Background / Purpose / Overview /
    Introduction / Summary / Description, else from the first Scope / Objectives / Statement of
    Work section, else from the first prose paragraph of the document. Deterministic.
    """
    parts: list[str] = []
    if title:
        parts.append(title.rstrip(".:") + ".")
    if issuer:
        parts.append(f"Issued by {issuer.rstrip('.')}.")
    budget = SUMMARY_WORDS - sum(_words(p) for p in parts)

    sentences: list[str] = []
    for pattern in (_FIRST_CHOICE, _BACKGROUND):
        for section in sections:
            if pattern.search(section.heading) and section.level > 0:
                sentences = _sentences_of(section)
                if sentences:
                    break
        if sentences:
            break
    if not sentences:
        for paragraph in re.split(r"\n\s*\n", text):
            sentences += [s for s in split_sentences(prose(paragraph)) if _good_sentence(s, 8)]
            if len(sentences) >= 3:
                break

    added = 0
    for sentence in sentences:
        n = _words(sentence)
        if n <= budget:
            parts.append(sentence)
            budget -= n
            added += 1
            continue
        if budget >= 12 and not added:  # a first sentence too long to keep whole is cut
            parts.append(" ".join(sentence.split()[:budget]).rstrip(",;:") + "…")
        break
    return " ".join(parts).strip()
