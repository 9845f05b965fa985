"""Checks on the answer library and on each RFP's rewrites and passages (failing rows named)."""

import datetime as dt

import dagster as dg
import numpy as np
import polars as pl

from checks.partitions import Evaluation, partition_check
from resources import EmbeddingModel
from rfp_retrieval.answers.frames import UNREADABLE, stale_blocks
from rfp_retrieval.answers.records import DUPLICATE_ID, EMPTY_BODY
from rfp_retrieval.retrieval.answers import NEEDS_SME
from rfp_retrieval.rewrite.frames import NO_QUESTIONS

MAX_LISTED = 50


def _listing(frame: pl.DataFrame, columns: list[str]) -> str:
    rows = [
        " ".join(str(r[c]) for c in columns if r[c] is not None)
        for r in frame.head(MAX_LISTED).iter_rows(named=True)
    ]
    more = f" (+{frame.height - MAX_LISTED} more)" if frame.height > MAX_LISTED else ""
    return "; ".join(rows) + more if rows else "none"


def _with_problem(frame: pl.DataFrame, prefix: str) -> pl.DataFrame:
    return frame.filter(
        pl.col("problems").list.eval(pl.element().str.starts_with(prefix)).list.any()
    )


@dg.asset_check(
    asset="answer_blocks",
    description=(
        "Block ids are unique: every losing copy of a repeated id is listed with its file and "
        "the file that won (the most recently reviewed copy)."
    ),
)
def answer_blocks_unique_ids(answer_blocks: pl.DataFrame) -> dg.AssetCheckResult:
    dupes = _with_problem(answer_blocks, DUPLICATE_ID)
    return dg.AssetCheckResult(
        passed=dupes.is_empty(),
        severity=dg.AssetCheckSeverity.ERROR,
        metadata={
            "duplicates": dupes.height,
            "duplicate_blocks": _listing(dupes, ["id", "source", "duplicate_of"]),
        },
    )


@dg.asset_check(
    asset="answer_blocks",
    description="Every block has a body; empty blocks (and unanswered Q/A rows) are listed.",
)
def answer_blocks_have_bodies(answer_blocks: pl.DataFrame) -> dg.AssetCheckResult:
    empty = _with_problem(answer_blocks, EMPTY_BODY)
    return dg.AssetCheckResult(
        passed=empty.is_empty(),
        severity=dg.AssetCheckSeverity.ERROR,
        metadata={"empty": empty.height, "empty_blocks": _listing(empty, ["id", "source", "row"])},
    )


@dg.asset_check(
    asset="answer_blocks",
    description="Every file of the answer library could be read; unreadable files are listed.",
)
def answer_blocks_readable(answer_blocks: pl.DataFrame) -> dg.AssetCheckResult:
    bad = _with_problem(answer_blocks, UNREADABLE)
    reasons = "; ".join(
        f"{r['source']}{' row ' + str(r['row']) if r['row'] else ''}: {r['problems'][0]}"
        for r in bad.head(MAX_LISTED).iter_rows(named=True)
    )
    return dg.AssetCheckResult(
        passed=bad.is_empty(),
        severity=dg.AssetCheckSeverity.ERROR,
        metadata={"unreadable": bad.height, "unreadable_files": reasons or "none"},
    )


@dg.asset_check(
    asset="answer_blocks",
    description=(
        "Warns about blocks past their review date (last_reviewed + the review interval) as of "
        "today: stale content is the most common complaint about answer libraries."
    ),
)
def answer_blocks_reviewed(answer_blocks: pl.DataFrame) -> dg.AssetCheckResult:
    today = dt.date.today()
    stale = stale_blocks(answer_blocks, today).sort("review_due", nulls_last=False)
    usable = answer_blocks.filter(pl.col("usable")).height
    return dg.AssetCheckResult(
        passed=stale.is_empty(),
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "as_of": today.isoformat(),
            "stale": stale.height,
            "stale_share": round(stale.height / max(usable, 1), 3),
            "stale_blocks": _listing(stale, ["id", "review_due", "owner"]),
        },
    )


@dg.asset_check(
    asset="answer_block_embeddings",
    additional_ins={"answer_blocks": dg.AssetIn("answer_blocks")},
    description=(
        "Every usable block has one vector made by the configured model, of the model's "
        "dimension and unit length."
    ),
)
def answer_block_embeddings_match_model(
    answer_blocks: pl.DataFrame,
    answer_block_embeddings: pl.DataFrame,
    embedding_model: EmbeddingModel,
) -> dg.AssetCheckResult:
    answer_block_embeddings = answer_block_embeddings.filter(pl.col("id").is_not_null())
    expected = set(answer_blocks.filter(pl.col("usable"))["id"].to_list())
    have = answer_block_embeddings["id"].to_list()
    missing = sorted(expected - set(have))
    wrong_model = answer_block_embeddings.filter(pl.col("model") != embedding_model.model_id)
    dims = sorted(set(answer_block_embeddings["dim"].to_list()))
    norms = (
        np.linalg.norm(np.asarray(answer_block_embeddings["vector"].to_list()), axis=1)
        if answer_block_embeddings.height
        else np.zeros(0)
    )
    not_unit = [i for i, n in zip(have, norms, strict=True) if abs(n - 1.0) > 1e-3]
    return dg.AssetCheckResult(
        passed=not missing and wrong_model.is_empty() and len(dims) <= 1 and not not_unit,
        severity=dg.AssetCheckSeverity.ERROR,
        metadata={
            "model": embedding_model.model_id,
            "dimensions": ", ".join(map(str, dims)) or "none",
            "missing_vectors": ", ".join(missing[:MAX_LISTED]) or "none",
            "other_model": ", ".join(wrong_model["id"].to_list()[:MAX_LISTED]) or "none",
            "not_unit_length": ", ".join(not_unit[:MAX_LISTED]) or "none",
        },
    )


@dg.asset_check(
    asset="rewritten_questions",
    description=(
        "Warns when the LLM rewriter failed or returned invalid output (blank, numbered lines, "
        "an answer, a dropped distinctive term) and the offline rewriter was used instead."
    ),
)
def rewritten_questions_no_fallback(rewritten_questions: pl.DataFrame) -> dg.AssetCheckResult:
    return partition_check(rewritten_questions, _rewrites_no_fallback, dg.AssetCheckSeverity.WARN)


def _rewrites_no_fallback(rewritten_questions: pl.DataFrame) -> Evaluation:
    real = rewritten_questions.filter(pl.col("kind") != NO_QUESTIONS)
    flagged = real.filter(pl.col("flags").list.len() > 0)
    return flagged.is_empty(), {
        "questions": real.height,
        "flagged": flagged.height,
        "flagged_questions": "; ".join(
            f"{r['label'] or r['question_id']}: {' | '.join(r['flags'])}"
            for r in flagged.head(MAX_LISTED).iter_rows(named=True)
        )
        or "none",
        "skipped_share": round(real["skipped"].mean() or 0.0, 3) if real.height else 0.0,
    }


@dg.asset_check(
    asset="question_answers",
    description=(
        "Warns about questions under the retrieval floor ('needs SME'): the library has no "
        "passage close enough, so a subject-matter expert must write the answer."
    ),
)
def question_answers_above_floor(question_answers: pl.DataFrame) -> dg.AssetCheckResult:
    return partition_check(question_answers, _above_floor, dg.AssetCheckSeverity.WARN)


def _above_floor(question_answers: pl.DataFrame) -> Evaluation:
    firsts = question_answers.filter(pl.col("rank") == 1)
    needs = firsts.filter(pl.col("status") == NEEDS_SME)
    return needs.is_empty(), {
        "questions": firsts.height,
        "needs_sme": needs.height,
        "needs_sme_questions": _listing(needs, ["label", "confidence"]),
    }
