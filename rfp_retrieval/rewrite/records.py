"""Typed records of the rewrite chain: what a rewriter is given, what it returns, and the
logged result per question (DESIGN.md "Rewritten question")."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from rfp_retrieval.rewrite.context import QuestionContext

QUERY_ROLES = ("original", "rewrite", "paraphrase", "part")
"""Roles of a query in a question's query set, in the order they are listed."""

SOURCES = ("model", "offline", "offline-fallback", "skipped", "off")
"""Where a question's rewrite came from (``RewrittenQuestion.source``)."""


@dataclass(frozen=True)
class RewriteRequest:
    """One question and its inherited context, as handed to a rewriter."""

    question: str
    context: QuestionContext
    kind: str = "question"
    parts: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "kind": self.kind,
            "parts": list(self.parts),
            "context": self.context.to_dict(),
        }


@dataclass
class RewriteOutput:
    """A rewriter's answer for one question.

    ``rewrite`` is a self-contained retrieval query; ``parts`` the sub-questions of a compound
    question ([] when not compound); ``paraphrases`` three rewordings with different vocabulary.
    ``producer`` is ``offline`` or the model name; ``input_tokens`` / ``output_tokens`` and
    ``cost_usd`` (USD) are 0 for the offline rewriter and for a cache hit's cost; ``cached``
    says the answer came from the response cache; ``log`` lists the rewriter's own steps.
    """

    rewrite: str
    parts: list[str] = field(default_factory=list)
    paraphrases: list[str] = field(default_factory=list)
    producer: str = "offline"
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    cached: bool = False
    attempts: int = 0
    log: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Query:
    """One query of a question's query set: its role, text and fusion weight (>= 0)."""

    role: str
    text: str
    weight: float

    @property
    def key(self) -> str:
        """A short stable name for the per-query rank columns (``original``, ``paraphrase_2``)."""
        return self.role


@dataclass
class RewrittenQuestion:
    """Everything the chain did to one question, for the rewrite log (DESIGN.md).

    ``specificity`` is the score in [0, 1]; ``skipped`` is True when the question was
    specific enough to be retrieved as written; ``queries`` is the final query set (the
    original always first); ``rewriter`` names what produced the rewrite (``offline``, a
    model name, ``offline (fallback: ...)``, or ``none`` when skipped); ``flags`` lists
    problems ("llm-output-invalid: ..."); ``steps`` is the ordered log of every step.

    ``source`` is one of ``SOURCES``: ``model`` (the LLM's output, fresh or ``cached``),
    ``offline`` (the offline rewriter was configured), ``offline-fallback`` (the LLM failed
    or its output was rejected; ``fallback_reason`` says which and why), ``skipped``
    (specific enough, retrieved as written) or ``off`` (rewriting off). ``attempts`` counts
    the API requests made for the question (0 for offline, skipped and cache hits), so
    ``retries`` is every request after the first.
    """

    question_id: str
    label: str | None
    original: str
    section_path: list[str]
    kind: str
    specificity: float
    skipped: bool
    context: QuestionContext
    rewrite: str
    parts: list[str]
    paraphrases: list[str]
    queries: list[Query]
    rewriter: str
    flags: list[str] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    cached: bool = False
    source: str = "model"
    fallback_reason: str | None = None
    attempts: int = 0

    @property
    def retries(self) -> int:
        """API requests after the first for this question (0 when none or one was made)."""
        return max(self.attempts - 1, 0)

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form (for tables, metadata and the CLI)."""
        out = asdict(self)
        out["context"] = self.context.to_dict()
        out["retries"] = self.retries
        return out
