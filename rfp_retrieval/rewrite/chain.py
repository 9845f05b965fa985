"""The rewrite chain for one question (seed 2), with every step logged.

1. specificity check: a specific question skips steps 2-4 and is retrieved as written (a
   table row is rewritten unless its score is 1.0: its row topic is context it cannot carry
   otherwise, "Is administrative access brokered through a vault?" under "Privileged Access");
2. inherit context (``context.inherit_context``, window per ``ContextConfig``);
3. rewrite, decompose and paraphrase (the configured rewriter; offline when none, and as the
   fallback when an LLM's output is invalid or its API fails);
4. query set: original (always kept: seed 2 "keeping the original always wins") + rewrite +
   three paraphrases + parts, each with its fusion weight.

A specific question skips the rewrite and paraphrases (seed 2: the whole chain is skipped) but
is still split when it holds separate asks, each with its own instruction ("Describe your
approach to data migration and your data validation methodology": two answers, issue 14
defect 2; ``decompose.Decomposition.separate_asks``). Its shared-head and noun-phrase splits
("support tiers and hours of coverage") are made only when ``ChainConfig.decompose_specific``
is set: on the dev qrels those parts pushed partially relevant blocks out of the top 5
(compound recall@5 0.86 -> 0.82). Rewriting "off"
(``original_only``) is the query set of the original alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Protocol

from rfp_retrieval.documents.records import Question, RfpDocument
from rfp_retrieval.rewrite.context import ContextConfig, QuestionContext, inherit_context
from rfp_retrieval.rewrite.decompose import decompose
from rfp_retrieval.rewrite.offline import OfflineRewriter
from rfp_retrieval.rewrite.records import (
    Query,
    RewriteOutput,
    RewriteRequest,
    RewrittenQuestion,
)
from rfp_retrieval.rewrite.specificity import SPECIFICITY_THRESHOLD, check_specificity
from rfp_retrieval.rewrite.validate import validate_output

ASK_KINDS = ("question", "table-row")
"""Question kinds that get a rewrite and answer passages (requirements and evaluation
criteria are compliance-matrix rows, not asks of the answer library), and a requirement whose
listed items are questions (``asks_in_parts``)."""


def asks_in_parts(question: Question, doc: RfpDocument | None) -> bool:
    """True for a requirement whose listed items include a question by their own wording
    (``ask_kinds.item_kind``: "Respondents shall submit a capability statement that addresses
    the following: a. Describe your experience with ..."): the items are answered from the
    answer library though the prompt is a submission rule. False without the document (the
    item rule reads the section) or without items. Source: new-user trial (a sources-sought
    notice's capability questions got no answers)."""
    if question.kind != "requirement" or not question.parts or doc is None:
        return False
    from rfp_retrieval.documents.ask_kinds import item_kind
    from rfp_retrieval.documents.section_kinds import SectionKinds

    kinds = SectionKinds(doc)
    return any(
        item_kind(doc, kinds, question, part, question.kind) == "question"
        for part in question.parts
    )


class Rewriter(Protocol):
    """Anything that turns a ``RewriteRequest`` into a ``RewriteOutput`` (``name`` is logged).

    ``rewrite`` may raise ``RewriterError``; the chain then falls back to the offline rewriter.
    """

    name: str

    def rewrite(self, request: RewriteRequest) -> RewriteOutput: ...


class RewriterError(RuntimeError):
    """A rewriter could not produce output (API failure after retries, unusable response).

    ``attempts`` is the number of API requests made for the question before giving up (0 when
    none was made); ``log`` the rewriter's own lines (one per failed attempt and its wait).
    Both end up in the question's rewrite log.
    """

    def __init__(self, message: str, attempts: int = 0, log: list[str] | None = None):
        super().__init__(message)
        self.attempts = attempts
        self.log = list(log or [])


@dataclass(frozen=True)
class QueryWeights:
    """Fusion weight of each query role (reciprocal rank fusion numerators, >= 0).

    Defaults: the original and the rewrite count fully, each paraphrase and part half. The
    original outweighs any single paraphrase, so a rewrite that drifts cannot bury what the
    question literally asked (seed 2: "the original sometimes carries vocabulary signal").
    ``pointing_original``: the original's weight when the question points outside itself
    (a pronoun, "this ability": "How often is it performed?") and is rewritten: as written it
    names no topic, and its own ranking follows its leftover words ("performed" finds
    performance testing). 0.5, chosen on the tuning documents (MRR@10 0.937 -> 0.952 with the
    offline rewriter; 0.25 ties on MRR, lower nDCG) and a setting of ``benchmarks/cv_answers.py``.
    """

    original: float = 1.0
    rewrite: float = 1.0
    paraphrase: float = 0.5
    part: float = 0.5
    pointing_original: float = 0.5


@dataclass(frozen=True)
class ChainConfig:
    """Settings of the whole chain (one object, one place to change a rule)."""

    context: ContextConfig = field(default_factory=ContextConfig)
    specificity_threshold: float = SPECIFICITY_THRESHOLD
    decompose_specific: bool = False
    weights: QueryWeights = field(default_factory=QueryWeights)


def original_only(question: Question) -> RewrittenQuestion:
    """The "rewriting off" record: the verbatim question is the only query."""
    return RewrittenQuestion(
        question_id=question.id,
        label=question.label,
        original=question.text,
        section_path=list(question.section_path),
        kind=question.kind,
        specificity=check_specificity(question.text).score,
        skipped=True,
        context=QuestionContext(),
        rewrite=question.text,
        parts=[],
        paraphrases=[],
        queries=[Query("original", question.text, 1.0)],
        rewriter="none",
        steps=["rewriting off: the question as written is the only query"],
        source="off",
    )


def rewrite_question(
    question: Question,
    doc: RfpDocument | None,
    rewriter: Rewriter | None = None,
    config: ChainConfig | None = None,
) -> RewrittenQuestion:
    """Run the chain on ``question`` (from ``doc``) and return the logged result.

    ``rewriter`` defaults to the offline rewriter. Never raises for a rewriter failure: the
    offline rewriter takes over and the question is flagged.
    """
    config = config or ChainConfig()
    offline = OfflineRewriter()
    rewriter = rewriter or offline
    steps: list[str] = []
    flags: list[str] = []
    verdict = check_specificity(question.text, config.specificity_threshold)
    reasons = list(verdict.reasons)
    specific = verdict.specific
    if specific and question.topic and verdict.score < 1.0:
        specific = False
        reasons.append(f"table row under {question.topic!r}: the topic is part of the question")
    steps.append(
        f"1 specificity {verdict.score:.2f} "
        f"({'specific: skip the rewrite' if specific else 'rewrite'}); " + "; ".join(reasons)
    )
    weights = config.weights
    queries = [Query("original", question.text, weights.original)]
    if specific:
        parts: list[str] = []
        pieces = decompose(question.text)
        if config.decompose_specific or pieces.separate_asks:
            parts = list(question.parts) or pieces.parts
            steps.extend(f"2 decompose: {line}" for line in pieces.log)
        queries += _part_queries(parts, weights)
        steps.append(f"5 query set: {len(queries)} queries (original + {len(parts)} parts)")
        return RewrittenQuestion(
            question_id=question.id,
            label=question.label,
            original=question.text,
            section_path=list(question.section_path),
            kind=question.kind,
            specificity=verdict.score,
            skipped=True,
            context=QuestionContext(),
            rewrite=question.text,
            parts=parts,
            paraphrases=[],
            queries=queries,
            rewriter="none",
            steps=steps,
            source="skipped",
        )
    context = inherit_context(question, doc, config.context)
    steps.append("2 context: " + _describe_context(context))
    request = RewriteRequest(
        question=question.text,
        context=context,
        kind=question.kind,
        parts=tuple(question.parts),
    )
    if (verdict.anaphors or context.points_back) and weights.pointing_original != weights.original:
        queries = [Query("original", question.text, weights.pointing_original)]
        steps.append(
            f"2 the question points outside itself: its original weighs "
            f"{weights.pointing_original} in the fusion"
        )
    output, producer, fallback = _run_rewriter(rewriter, offline, request, flags, steps)
    steps.extend(f"3 {producer}: {line}" for line in output.log)
    steps.append(f"3 rewrite: {output.rewrite}")
    if output.parts:
        steps.append("4 parts: " + " | ".join(output.parts))
    steps.extend(f"4 paraphrase {i}: {p}" for i, p in enumerate(output.paraphrases, start=1))
    if output.rewrite.strip() and output.rewrite.strip() != question.text.strip():
        queries.append(Query("rewrite", output.rewrite, weights.rewrite))
    queries += [
        Query(f"paraphrase_{i}", p, weights.paraphrase)
        for i, p in enumerate(output.paraphrases, start=1)
    ]
    queries += _part_queries(output.parts, weights)
    steps.append(
        f"5 query set: {len(queries)} queries (original + rewrite + "
        f"{len(output.paraphrases)} paraphrases + {len(output.parts)} parts)"
    )
    return RewrittenQuestion(
        question_id=question.id,
        label=question.label,
        original=question.text,
        section_path=list(question.section_path),
        kind=question.kind,
        specificity=verdict.score,
        skipped=False,
        context=context,
        rewrite=output.rewrite,
        parts=list(output.parts),
        paraphrases=list(output.paraphrases),
        queries=queries,
        rewriter=producer,
        flags=flags,
        steps=steps,
        input_tokens=output.input_tokens,
        output_tokens=output.output_tokens,
        cost_usd=output.cost_usd,
        cached=output.cached,
        source=_source(rewriter, offline, fallback),
        fallback_reason=fallback,
        attempts=output.attempts,
    )


def rewrite_questions(
    questions: Iterable[Question],
    doc: RfpDocument | None,
    rewriter: Rewriter | None = None,
    config: ChainConfig | None = None,
    kinds: tuple[str, ...] = ASK_KINDS,
) -> list[RewrittenQuestion]:
    """``rewrite_question`` for every question whose kind is in ``kinds``, in order, and, when
    ``question`` is one of ``kinds``, every requirement whose items are questions
    (``asks_in_parts``).

    The same ask repeated in one section (same text, kind, parts, table topic and section
    path: ``same_ask_key``) is rewritten once and its record shared: every question keeps its
    own row (id, label), the copies carry no tokens, cost or API requests (the work was done
    once) and a last step naming the question whose rewrite they share. A document that
    repeats one sentence thousands of times costs one rewrite, not thousands.
    """
    done: dict[tuple, RewrittenQuestion] = {}
    out: list[RewrittenQuestion] = []
    for q in questions:
        if q.kind not in kinds and not ("question" in kinds and asks_in_parts(q, doc)):
            continue
        key = same_ask_key(q)
        first = done.get(key)
        if first is None:
            done[key] = first = rewrite_question(q, doc, rewriter, config)
            out.append(first)
            continue
        out.append(
            replace(
                first,
                question_id=q.id,
                label=q.label,
                original=q.text,
                flags=list(first.flags),
                steps=[*first.steps, f"6 same ask as {first.question_id}: its rewrite shared"],
                input_tokens=0,
                output_tokens=0,
                cost_usd=0.0,
                attempts=0,
            )
        )
    return out


def same_ask_key(question: Question) -> tuple:
    """What makes two asks of one RFP the same ask (one rewrite serves both): the text with
    runs of whitespace collapsed, the kind, the listed parts, the table topic and the section
    path. Rule: an RFP that repeats an ask word for word in one section asks it once."""
    return (
        " ".join(question.text.split()),
        question.kind,
        tuple(question.parts),
        question.topic,
        tuple(question.section_path),
    )


def _part_queries(parts: list[str], weights: QueryWeights) -> list[Query]:
    return [Query(f"part_{i}", p, weights.part) for i, p in enumerate(parts, start=1)]


def _run_rewriter(
    rewriter: Rewriter,
    offline: OfflineRewriter,
    request: RewriteRequest,
    flags: list[str],
    steps: list[str],
) -> tuple[RewriteOutput, str, str | None]:
    """(output, producer name, fallback reason or None). A fallback's output carries the
    failed model call's attempts and tokens, so retries and cost are never lost."""
    if rewriter.name == offline.name:
        return rewriter.rewrite(request), offline.name, None
    try:
        output = rewriter.rewrite(request)
    except RewriterError as exc:
        flags.append(f"rewriter-failed: {exc}")
        steps.extend(f"3 {rewriter.name}: {line}" for line in exc.log)
        steps.append(f"3 {rewriter.name} failed ({exc}); offline rewriter used")
        fallback = offline.rewrite(request)
        fallback.attempts = exc.attempts
        message = str(exc).removeprefix(f"{rewriter.name}: ")
        reason = f"{rewriter.name} failed: {message}"
        return fallback, f"offline (fallback: {rewriter.name} failed)", reason
    problems = validate_output(request, output)
    if problems:
        flags.append("llm-output-invalid: " + "; ".join(problems))
        steps.extend(f"3 {rewriter.name}: {line}" for line in output.log)
        steps.append(f"3 {rewriter.name} output rejected ({'; '.join(problems)}); offline used")
        fallback = offline.rewrite(request)
        fallback.input_tokens = output.input_tokens
        fallback.output_tokens = output.output_tokens
        fallback.cost_usd = output.cost_usd
        fallback.attempts = output.attempts
        return (
            fallback,
            f"offline (fallback: {rewriter.name} output invalid)",
            f"{rewriter.name} output invalid: " + "; ".join(problems),
        )
    return output, output.producer or rewriter.name, None


def _source(rewriter: Rewriter, offline: OfflineRewriter, fallback: str | None) -> str:
    if fallback is not None:
        return "offline-fallback"
    return "offline" if rewriter.name == offline.name else "model"


def _describe_context(ctx: QuestionContext) -> str:
    pieces = []
    if ctx.topic:
        pieces.append(f"topic {ctx.topic!r}")
    elif ctx.heading:
        pieces.append(f"heading {ctx.heading!r}")
    if ctx.outline:
        pieces.append("outline " + " > ".join(ctx.outline))
    if ctx.references:
        pieces.append(
            "references " + ", ".join(f"{r.key} {r.heading}".strip() for r in ctx.references)
        )
    if ctx.paragraphs:
        pieces.append(f"earlier paragraphs [{ctx.paragraphs}]")
    if ctx.subject:
        pieces.append(f"subject {ctx.subject!r}")
    if ctx.skipped:
        pieces.append("skipped structural " + ", ".join(repr(s) for s in ctx.skipped))
    return "; ".join(pieces) or "none found"
