"""Words, stems and distinctive terms of RFP questions (shared by rewriting and BM25).

Stemming is the Snowball English stemmer (PyStemmer, the stemmer bm25s documents), so
"migrate", "migrating" and "migration" share the stem ``migrat``.
"""

from __future__ import annotations

import re
from functools import lru_cache

_ALNUM = r"[^\W_]"
"""A letter or digit of any script ("gestión", "pública", "Müller" are one word each)."""
_WORD = re.compile(rf"{_ALNUM}(?:{_ALNUM}|[&/+.'-])*(?:{_ALNUM}|[&+])|{_ALNUM}")

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
    """The words of ``text`` in order: runs of letters and digits of any script, with inner
    ``&/+.'-`` kept ("POA&M", "CI/CD", "gestión"; an ASCII-only pattern split "pública" into
    "p" and "blica")."""
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


# Protected terms (issue 14): a named standard keeps its version, revision, level and type
# ("FedRAMP Moderate", "FIPS 140-3", "NIST SP 800-53 Rev. 5", "SOC 2 Type II", "CMMC Level 2",
# "WCAG 2.1 AA", "DoD Impact Level 4", "OMB M-21-31"): "FedRAMP High" for "FedRAMP Moderate"
# is another requirement, not a rewording. A family is an acronym, a mixed-case name or a
# numbered-document word; qualifiers follow it.
_FAMILY = (
    r"(?:[A-Z][a-z]+[A-Z][A-Za-z]*|[A-Z]{2,}(?:/[A-Z]{2,})?[0-9]*"
    r"|Section|Publication|Special Publication|Part|Title|Level)"
)
_QUALIFIER = (
    r"(?:\s+(?:SP|Pub\.?|Publication|Special\s+Publication)?\s*[0-9][0-9A-Za-z.:-]*[0-9A-Za-z]"
    r"|\s+[0-9]"
    r"|\s+Rev(?:ision|\.)?\s*[0-9]+"
    r"|\s+(?:Impact\s+)?Level\s+(?:[0-9]+|[IVX]+)\b"
    r"|\s+Type\s+(?:[0-9]+|I{1,3}|IV)\b"
    r"|\s+(?:Moderate|High|Low|Li-SaaS|Tailored)\b"
    r"|\s+A{1,3}\b"
    r"|\s+[A-Z]-[0-9][0-9A-Za-z-]*)"
)
_STANDARD = re.compile(rf"(?<![\w/]){_FAMILY}{_QUALIFIER}+(?![\w])")
_NUMBER = re.compile(r"(?<![\w.])[0-9]+(?:[.,:-][0-9]+)*(?:%|x[0-9]+)?(?![\w])")
_DOMAIN_NAME = re.compile(r"(?<![\w.])[A-Za-z]+(?:\.[A-Za-z]+)*\.(?:gov|mil|com|org|net)\b")


def protected_terms(text: str) -> list[str]:
    """Terms every query of a question's query set must keep verbatim, in order of position.

    The distinctive terms (``distinctive_terms``) widened to the whole named standard with
    its version, revision, level or type ("FedRAMP Moderate", "FIPS 140-3", "NIST SP 800-53
    Rev. 5", "Section 508"), plus numbers ("99.9%", "24x7", "72", "3") and domain names
    ("Login.gov"). A shorter term inside a longer one is not listed twice ("FedRAMP" inside
    "FedRAMP Moderate"). Rule source: seed 2 (a rewrite that drops "FedRAMP" is invalid) and
    issue 14 (one that says "FIPS 140-2" for "FIPS 140-3" is invalid too).
    """
    text = text or ""
    spans: list[tuple[int, int]] = []
    for pattern in (_STANDARD, _DOMAIN_NAME):
        for m in pattern.finditer(text):
            spans.append((m.start(), m.end()))
    for m in _DISTINCTIVE.finditer(text):
        term = m.group(0).strip().rstrip(".:-")
        if term in _NOT_DISTINCTIVE or term.rstrip("s") in _NOT_DISTINCTIVE:
            continue
        spans.append((m.start(), m.start() + len(term)))
    for m in _NUMBER.finditer(text):
        spans.append((m.start(), m.end()))
    spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
    kept: list[tuple[int, int]] = []
    for start, end in spans:
        if any(start >= a and end <= b for a, b in kept):
            continue
        kept = [(a, b) for a, b in kept if not (a >= start and b <= end)]
        kept.append((start, end))
    found: list[str] = []
    for start, end in sorted(kept):
        term = " ".join(text[start:end].split()).rstrip(".:,-")
        if term and term not in found:
            found.append(term)
    return found


def keeps_term(text: str, term: str) -> bool:
    """True when ``text`` contains ``term`` as a whole term (case and spacing ignored):
    "FIPS 140-3" is not kept by "FIPS 140-30", "508" not by "5080"."""
    pattern = r"\s+".join(re.escape(p) for p in term.split())
    return re.search(rf"(?<![\w]){pattern}(?![\w]|[.-][0-9])", text or "", re.I) is not None


def word_spans(text: str) -> list[tuple[int, int]]:
    """Character ``(start, end)`` of each word of ``words(text)``, same order."""
    return [(m.start(), m.end()) for m in _WORD.finditer(text or "")]
