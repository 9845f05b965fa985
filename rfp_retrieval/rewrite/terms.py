"""Words, stems and distinctive terms of RFP questions (shared by rewriting and BM25).

Stemming is the Snowball English stemmer (PyStemmer, the stemmer bm25s documents), so
"migrate", "migrating" and "migration" share the stem ``migrat``.
"""

from __future__ import annotations

import re
from functools import lru_cache

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9&/+.'-]*[A-Za-z0-9&+]|[A-Za-z0-9]")

STOPWORDS: frozenset[str] = frozenset(
    """a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each few
    for from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not now of off on once only or
    other our ours ourselves out over own same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your yours
    yourself yourselves shall may must within without per via""".split()
)
"""English function words (never a retrieval signal on their own)."""

QUESTION_WORDS: frozenset[str] = frozenset(
    """describe explain discuss provide identify state list detail outline demonstrate
    indicate specify summarize justify confirm include address submit""".split()
)
"""Instruction verbs of RFP questions ("Describe your approach..."): no topic signal."""

# Terms whose exact form must survive a rewrite (seed 2: an LLM rewrite that drops "FedRAMP"
# or "POA&M" is invalid). Acronyms and mixed-case names (FedRAMP, StateRAMP, SOC 2), numbered
# standards and clauses (Section 508, IRS Publication 1075, DFARS 252.204-7012, NIST SP
# 800-53), and API paths (/v1/documents).
_DISTINCTIVE = re.compile(
    r"(?<![\w/])(?:"
    r"/[a-z0-9_/{}.-]+"  # API paths
    r"|(?:Section|Publication|Pub\.|SP|Part|Level|Type)\s+[0-9][0-9A-Za-z.-]*"
    r"|(?:DFARS|FAR|NIST|FIPS|ISO(?:/IEC)?|OMB|CMMC|SOC|IL|WCAG|TLS)\s*[0-9][0-9A-Za-z.:-]*"
    r"|[A-Z][a-z]+[A-Z][A-Za-z]*"  # FedRAMP, StateRAMP, DevSecOps
    r"|[A-Z]{2,}(?:&[A-Z]+)?[0-9]*s?"  # CUI, POA&M, RTOs
    r"|[0-9]{3,}(?:[.-][0-9]+)*"  # 508, 1075, 252.204-7012
    r")(?![\w])"
)
_NOT_DISTINCTIVE = frozenset({"I", "II", "III", "IV", "V", "VI", "VII", "US", "USA", "OK"})


def words(text: str) -> list[str]:
    """The words of ``text`` in order (letters, digits and inner ``&/+.'-`` kept)."""
    return _WORD.findall(text or "")


@lru_cache(maxsize=1)
def _stemmer():
    import Stemmer

    return Stemmer.Stemmer("english")


def stem_words(text: str) -> list[str]:
    """Lower-cased, stemmed words of ``text`` (stopwords kept: phrases match word for word)."""
    tokens = [w.lower() for w in words(text)]
    return list(_stemmer().stemWords(tokens)) if tokens else []


def content_words(text: str) -> list[str]:
    """Words of ``text`` that are neither stopwords nor instruction verbs (original case)."""
    return [
        w for w in words(text) if w.lower() not in STOPWORDS and w.lower() not in QUESTION_WORDS
    ]


def index_tokens(text: str) -> list[str]:
    """Tokens for BM25: lower-cased, stemmed content words (stopwords dropped)."""
    tokens = [w.lower() for w in words(text) if w.lower() not in STOPWORDS]
    return list(_stemmer().stemWords(tokens)) if tokens else []


def distinctive_terms(text: str) -> list[str]:
    """Acronyms, mixed-case names, numbered standards and API paths in ``text``, in order.

    These are the terms a rewrite must keep verbatim (seed 2: "FedRAMP", "508", "POA&M").
    Roman numerals and a lone ``US`` are not distinctive.
    """
    found: list[str] = []
    for match in _DISTINCTIVE.finditer(text or ""):
        term = match.group(0).strip().rstrip(".:-")
        if term in _NOT_DISTINCTIVE or term.rstrip("s") in _NOT_DISTINCTIVE:
            continue
        if term not in found:
            found.append(term)
    return found
