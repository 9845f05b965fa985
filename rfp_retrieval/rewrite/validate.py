"""Validation of a rewriter's output before it is trusted (LLM output in particular).

Invalid output falls back to the offline rewriter for that question and is flagged. Invalid:

- a blank rewrite, or blank paraphrases;
- numbered or bulleted lines ("1. ...", "- ...") or several lines in one field: the model
  wrote a list instead of filling the schema;
- an answer instead of a rewrite: first-person claims ("We provide...", "Our approach...",
  "Yes, ...") or a text far longer than a query;
- a rewrite that drops a distinctive term of the question ("FedRAMP", "508", "POA&M",
  "/v1/documents"): the term must survive verbatim in the rewrite (seed 2 lists this failure);
- fewer than three paraphrases;
- text that echoes or obeys instructions instead of rewriting ("ignore previous
  instructions", "system prompt", "API key", "as an AI"): RFP text is untrusted and a
  question that carries an injection must not steer the output (issue 7).
"""

from __future__ import annotations

import re

from rfp_retrieval.rewrite.records import RewriteOutput, RewriteRequest
from rfp_retrieval.rewrite.terms import distinctive_terms

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
    rewrite = output.rewrite or ""
    for term in distinctive_terms(request.question):
        if term.lower() not in rewrite.lower():
            problems.append(f"dropped distinctive term {term!r}")
    return problems
