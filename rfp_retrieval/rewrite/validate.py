"""Validation of a rewriter's output before it is trusted (LLM output in particular).

Invalid output falls back to the offline rewriter for that question and is flagged. Invalid:

- a blank rewrite, or blank paraphrases;
- numbered or bulleted lines ("1. ...", "- ...") or several lines in one field: the model
  wrote a list instead of filling the schema;
- an answer instead of a rewrite: first-person claims ("We provide...", "Our approach...",
  "Yes, ...") or a text far longer than a query;
- a rewrite or paraphrase that drops or changes a protected term of the question
  (``terms.protected_terms``: "FedRAMP Moderate", "FIPS 140-3", "NIST SP 800-53 Rev. 5",
  "Section 508", "POA&M", "/v1/documents", numbers): every such term must survive verbatim
  in the rewrite and in each paraphrase (seed 2 lists the dropped-term failure; issue 14 the
  changed level or version, "FedRAMP High" for "FedRAMP Moderate");
- any query (rewrite, paraphrase, part) that adds a protected term found nowhere in the
  question or its context ("WCAG" for a question about "Section 508"), unless the thesaurus
  lists it as the same concept as a phrase of the request ("RTO" for "recovery time
  objective"); a part that names a term is checked the same way;
- fewer than three paraphrases;
- text that echoes or obeys instructions instead of rewriting ("ignore previous
  instructions", "system prompt", "API key", "as an AI"): RFP text is untrusted and a
  question that carries an injection must not steer the output (issue 7).
"""

from __future__ import annotations

import re

from rfp_retrieval.rewrite.records import RewriteOutput, RewriteRequest
from rfp_retrieval.rewrite.terms import keeps_term, protected_terms
from rfp_retrieval.rewrite.thesaurus import THESAURUS, find_concepts

MAX_REWRITE_WORDS = 80
"""A retrieval query longer than this is an answer or an essay, not a rewrite."""

_NUMBERED = re.compile(r"^\s*(?:\d+[.)]|[-*•]|\(?[a-z]\))\s+", re.M)
_ANSWER = re.compile(
    r"^\s*(?:yes|no)\b[,.]|^\s*(?:we|our|us)\b|\b(?:we (?:provide|use|have|will|are)|our "
    r"(?:team|company|firm|solution|approach|platform) (?:is|has|uses|provides))\b",
    re.I,
)


# A search query never tells anyone to ignore instructions: always an echo of an injection.
_INSTRUCTION_ECHO = re.compile(
    r"\b(?:ignore|disregard|forget)\b.{0,40}\b(?:instructions?|rules|prompt)\b|"
    r"\bas an ai\b|\bsk-[a-z]+-",
    re.I,
)
# Words a questionnaire may legitimately ask about ("How are API keys rotated?"): an echo
# only when the question itself does not mention them.
_SECRET_TALK = re.compile(r"\bsystem prompt\b|\bapi[ _-]?keys?\b", re.I)


def _request_text(request: RewriteRequest) -> str:
    """The question and every piece of context the rewriter was given, as one text."""
    ctx = request.context
    refs = " ".join(f"{r.heading} {r.summary}" for r in ctx.references)
    pieces = [request.question, ctx.topic or "", ctx.heading or "", " ".join(ctx.outline)]
    pieces += [refs, ctx.paragraphs or "", ctx.summary or "", " ".join(request.parts)]
    return " ".join(pieces)


def validate_output(request: RewriteRequest, output: RewriteOutput) -> list[str]:
    """Problems that make ``output`` unusable for ``request`` ([] when it is valid).

    Each problem is a short phrase for the rewrite log ("blank rewrite", "dropped distinctive
    term 'FedRAMP'").
    """
    problems: list[str] = []
    listed: set[str] = set()
    fields = [("rewrite", output.rewrite)] + [
        (f"paraphrase {i + 1}", p) for i, p in enumerate(output.paraphrases)
    ]
    fields += [(f"part {i + 1}", p) for i, p in enumerate(output.parts)]
    for name, text in fields:
        if not (text or "").strip():
            problems.append(f"blank {name}")
            continue
        if "\n" in text.strip() or _NUMBERED.search(text):
            problems.append(f"numbered or multi-line {name}")
            listed.add(name)  # its list numbers are not terms it adds
        if _ANSWER.search(text):
            problems.append(f"{name} answers the question instead of rewriting it")
        secret = _SECRET_TALK.search(text)
        if _INSTRUCTION_ECHO.search(text) or (
            secret and not _SECRET_TALK.search(_request_text(request))
        ):
            problems.append(f"{name} echoes instructions instead of rewriting")
        if len(text.split()) > MAX_REWRITE_WORDS:
            problems.append(f"{name} is {len(text.split())} words (answer, not a query)")
    if len(output.paraphrases) < 3:
        problems.append(f"{len(output.paraphrases)} paraphrases, 3 required")
    request_text = _request_text(request)
    equivalents = _thesaurus_equivalents(request_text)
    required = protected_terms(request.question)
    for name, text in fields:
        if not (text or "").strip():
            continue
        if not name.startswith("part"):
            for term in required:
                if keeps_term(text, term):
                    continue
                if name == "rewrite":
                    problems.append(f"dropped distinctive term {term!r}")
                else:
                    problems.append(f"{name} dropped or changed protected term {term!r}")
        for term in protected_terms(text) if name not in listed else []:
            if keeps_term(request_text, term) or term.lower() in equivalents:
                continue
            problems.append(f"{name} adds protected term {term!r} the question never named")
    return problems


def _thesaurus_equivalents(text: str) -> set[str]:
    """Lower-cased phrases of every thesaurus group a concept of ``text`` belongs to."""
    return {option.lower() for _, _, g, _ in find_concepts(text) for option in THESAURUS[g]}


def paraphrase_keeps(question: str, query: str) -> list[str]:
    """The protected terms of ``question`` that ``query`` does not keep verbatim ([] = all
    kept). The same rule as ``validate_output`` uses for rewrites and paraphrases."""
    return [t for t in protected_terms(question) if not keeps_term(query, t)]
