"""Answer-library assets, and per RFP partition the rewritten questions and their passages."""

import datetime as dt
import json

import dagster as dg
import numpy as np
import polars as pl

from assets.partitions import OWNERS, each_partition, rfp_asset
from assets.previews import markdown_preview
from assets.rfp import source_of_inputs
from resources import EmbeddingModel, ProjectPaths
from resources.partition_store import DuckDBPartitionStore
from resources.rewriter import QuestionRewriter
from rfp_retrieval.answers.frames import (
    answer_embeddings_frame,
    blocks_frame,
    blocks_from_frame,
    stale_blocks,
)
from rfp_retrieval.answers.ingest import block_text, load_answer_library
from rfp_retrieval.answers.records import (
    DEFAULT_REVIEW_INTERVAL_DAYS,
    AnswerLibrary,
    RejectedBlock,
)
from rfp_retrieval.documents.tables import document_from_frames, questions_from_frame
from rfp_retrieval.lineage import SOURCE_SHA, with_source
from rfp_retrieval.retrieval.answers import (
    NEEDS_SME,
    AnswerIndex,
    RetrievalConfig,
    answers_frame,
    retrieve_answers,
)
from rfp_retrieval.rewrite.chain import ASK_KINDS, ChainConfig, rewrite_questions
from rfp_retrieval.rewrite.context import ContextConfig
from rfp_retrieval.rewrite.frames import query_sets_from_frame, rewrite_totals, rewrites_frame


class AnswerBlocksConfig(dg.Config):
    """``review_interval_days``: a block is due for review this long after last_reviewed."""

    review_interval_days: int = DEFAULT_REVIEW_INTERVAL_DAYS


@dg.asset(
    group_name="answers",
    kinds={"duckdb", "polars", "python"},
    owners=OWNERS,
    description=(
        "The answer library: one row per content block (Markdown with id/title/topic/tags/"
        "last_reviewed/owner front matter) or past questionnaire Q/A pair (CSV/XLSX), with its "
        "review due date and problems (empty body, duplicate id, unreadable file). Only "
        "usable rows are ever retrieved."
    ),
)
def answer_blocks(
    context: dg.AssetExecutionContext, config: AnswerBlocksConfig, paths: ProjectPaths
) -> dg.Output[pl.DataFrame]:
    """Ingest the answer-library folder.

    A missing or empty folder is not a failure (the past-performance side of the run still
    works): the folder is listed as unreadable, the readable check fails and every question
    of every RFP is marked "needs SME".
    """
    try:
        library = load_answer_library(paths.answers_dir)
    except FileNotFoundError as exc:
        library = AnswerLibrary(
            paths.answers_dir, rejected=[RejectedBlock(paths.answers_dir, None, str(exc))]
        )
    frame = blocks_frame(library, config.review_interval_days)
    usable = frame.filter(pl.col("usable"))
    if usable.is_empty():
        context.log.warning(
            f"answer library {paths.answers_dir} has no usable block; add Markdown blocks with "
            "front matter or Q/A spreadsheets (question, answer, topic)"
        )
    if frame.is_empty():
        library.rejected.append(
            RejectedBlock(paths.answers_dir, None, "folder holds no answer file")
        )
        frame = blocks_frame(library, config.review_interval_days)
    problems = frame.filter(pl.col("problems").list.len() > 0)
    context.log.info(f"{usable.height} usable blocks, {problems.height} rows with problems")
    return dg.Output(
        frame,
        metadata={
            "row_count": frame.height,
            "usable": usable.height,
            "with_problems": problems.height,
            "stale_today": stale_blocks(frame, dt.date.today()).height,
            "answers_dir": paths.answers_dir,
            "preview": dg.MetadataValue.md(
                markdown_preview(frame.select(["id", "title", "topic", "last_reviewed", "usable"]))
            ),
        },
    )


@dg.asset(
    group_name="answers",
    kinds={"duckdb", "polars", "python"},
    owners=OWNERS,
    description=(
        "One unit vector per usable answer block (title, topic, tags and body), with the model "
        "id beside it. Only new or changed blocks are embedded; a model change re-embeds all."
    ),
)
def answer_block_embeddings(
    context: dg.AssetExecutionContext,
    answer_blocks: pl.DataFrame,
    embedding_model: EmbeddingModel,
    duckdb: DuckDBPartitionStore,
) -> dg.Output[pl.DataFrame]:
    """Embed the usable blocks with the configured model."""
    previous = duckdb.read_table("answer_block_embeddings", ["id", "model", "text_sha", "vector"])
    frame, counts = answer_embeddings_frame(
        blocks_from_frame(answer_blocks), embedding_model.embedder, previous
    )
    context.log.info(f"embedded {counts['embedded']} blocks, reused {counts['reused']}")
    if frame.is_empty():  # no usable block: one placeholder row so the table exists
        frame = pl.DataFrame(
            [
                {
                    "id": None,
                    "model": embedding_model.model_id,
                    "text_sha": None,
                    "dim": 0,
                    "vector": [],
                }
            ],
            schema=frame.schema,
        )
    return dg.Output(
        frame,
        metadata={
            "row_count": frame.height,
            "model": embedding_model.model_id,
            # where the model was loaded from: a run in flight when these vectors replace
            # another model's embeds its queries with it (EmbeddingModel.embedder_for_vectors)
            "model_source": embedding_model.model_source,
            "dimension": int(frame["dim"][0]),
            **counts,
        },
    )


class RewriteConfig(dg.Config):
    """The context window of the rewrite chain (seed 2: two outline levels + the summary)."""

    outline_levels: int = 2
    use_summary: bool = True
    paragraph_words: int = 6
    reference_words: int = 16
    kinds: list[str] = list(ASK_KINDS)


@rfp_asset(
    "rfp",
    description=(
        "The rewrite log: per question its specificity score, whether it skipped the rewrite, "
        "the context it inherited (heading, outline, earlier paragraphs, referenced sections, "
        "table topic), the rewrite, parts, three paraphrases, the final query set with "
        "weights, which rewriter produced it (offline or the Claude model), flags, tokens and "
        "cost in USD."
    ),
)
def rewritten_questions(
    context: dg.AssetExecutionContext,
    config: RewriteConfig,
    rfp_document: pl.DataFrame,
    rfp_outline: pl.DataFrame,
    rfp_questions: pl.DataFrame,
    rewriter: QuestionRewriter,
) -> dg.Output[pl.DataFrame]:
    """Run the rewrite chain on every question of the partition."""
    chain = ChainConfig(
        context=ContextConfig(
            outline_levels=config.outline_levels,
            use_summary=config.use_summary,
            paragraph_words=config.paragraph_words,
            reference_words=config.reference_words,
        )
    )
    return each_partition(
        context,
        _rewrites_one,
        rfp_document=rfp_document,
        rfp_outline=rfp_outline,
        rfp_questions=rfp_questions,
        rewriter=rewriter,
        chain=chain,
        kinds=tuple(config.kinds),
    )


def _rewrites_one(key, rfp_document, rfp_outline, rfp_questions, rewriter, chain, kinds):
    sha = source_of_inputs(
        key, rfp_document=rfp_document, rfp_outline=rfp_outline, rfp_questions=rfp_questions
    )
    doc = document_from_frames(rfp_document, rfp_outline)
    rewritten = rewrite_questions(
        questions_from_frame(rfp_questions), doc, rewriter.get(), chain, kinds
    )
    frame = with_source(rewrites_frame(key, rewritten), sha)
    skipped = sum(r.skipped for r in rewritten)
    flagged = [r for r in rewritten if r.flags]
    log_md = "\n\n".join(
        f"**{r.label or r.question_id}** {r.original}\n\n" + "\n".join(f"- {s}" for s in r.steps)
        for r in rewritten[:40]
    )
    totals = rewrite_totals(frame)
    return frame, {
        SOURCE_SHA: sha or "not recorded",
        "questions": len(rewritten),
        "skipped_share": round(skipped / len(rewritten), 3) if rewritten else 0.0,
        "rewriter": rewriter.describe(),
        "by_source": dg.MetadataValue.json(totals["by_source"]),
        "api_requests": totals["api_requests"],
        "retries": totals["retries"],
        "fallbacks": totals["fallbacks"],
        "fallback_reasons": dg.MetadataValue.json(totals["fallback_reasons"]),
        "flagged": len(flagged),
        "input_tokens": sum(r.input_tokens for r in rewritten),
        "output_tokens": sum(r.output_tokens for r in rewritten),
        "cost_usd": round(sum(r.cost_usd for r in rewritten), 6),
        "rewrites": dg.MetadataValue.md(
            markdown_preview(
                frame.select(
                    ["label", "specificity", "skipped", "source", "rewrite", "query_count"]
                ),
                limit=40,
            )
        ),
        "rewrite_log": dg.MetadataValue.md(log_md or "_no questions_"),
    }


class QuestionAnswersConfig(dg.Config):
    """``keep``: passages stored per question; ``floor``: confidence (cosine) under which a
    question needs an SME; ``fusion_k``: RRF constant across a question's queries."""

    keep: int = 5
    floor: float = RetrievalConfig.floor
    fusion_k: int = RetrievalConfig.fusion_k


@rfp_asset(
    "retrieval",
    description=(
        "The best answer-library passages for every question: hybrid dense + BM25 retrieval "
        "per query, fused across the question's query set, each passage with its rank under "
        "every query. Questions whose confidence is under the retrieval floor are marked "
        "'needs SME'."
    ),
)
def question_answers(
    context: dg.AssetExecutionContext,
    config: QuestionAnswersConfig,
    rewritten_questions: pl.DataFrame,
    answer_blocks: pl.DataFrame,
    answer_block_embeddings: pl.DataFrame,
    embedding_model: EmbeddingModel,
) -> dg.Output[pl.DataFrame]:
    """Retrieve passages for each rewritten question, the queries embedded with the model
    that made the answer-block vectors (this run's model, or the new one when the answers
    were re-embedded while this run was in flight)."""
    models = sorted(m for m in answer_block_embeddings["model"].unique().to_list() if m)
    embedder = embedding_model.embedder
    if len(models) == 1 and models[0] != embedding_model.model_id:
        found = embedding_model.embedder_for_vectors(
            models[0], context.instance, "answer_block_embeddings"
        )
        if found is not None:
            context.log.info(
                f"the answer blocks were re-embedded with {models[0]} while this run was in "
                f"flight: the questions are embedded with it too"
            )
            embedder = found
    other = answer_block_embeddings.filter(pl.col("model") != embedder.model_id).height
    if other:
        raise dg.Failure(
            description=(
                f"{other} answer-block vectors were made with another model than "
                f"{embedder.model_id}; re-materialize answer_block_embeddings"
            )
        )
    blocks = {b.id: b for b in blocks_from_frame(answer_blocks)}
    vectors = answer_block_embeddings.filter(pl.col("id").is_in(list(blocks)))
    ids = vectors["id"].to_list()
    index = AnswerIndex(
        ids,
        [blocks[i].title for i in ids],
        [block_text(blocks[i]) for i in ids],
        np.asarray(vectors["vector"].to_list(), dtype=np.float32) if ids else np.zeros((0, 0)),
    )
    retrieval = RetrievalConfig(
        top_k=max(config.keep, 10), floor=config.floor, fusion_k=config.fusion_k
    )
    return each_partition(
        context,
        _answers_one,
        rewritten_questions=rewritten_questions,
        index=index,
        embedder=embedder,
        retrieval=retrieval,
        config=config,
    )


def _answers_one(key, rewritten_questions, index, embedder, retrieval, config):
    sha = source_of_inputs(key, rewritten_questions=rewritten_questions)
    pairs = query_sets_from_frame(rewritten_questions)
    results = retrieve_answers(index, [qs for _, qs in pairs], embedder, retrieval)
    frame = answers_frame(
        key,
        [(row, res) for (row, _), res in zip(pairs, results, strict=True)],
        keep=config.keep,
    )
    frame = with_source(frame, sha)
    needs = [
        row["label"] or row["question_id"]
        for (row, _), r in zip(pairs, results, strict=True)
        if r.status == NEEDS_SME
    ]
    top = frame.filter(pl.col("rank") == 1)
    return frame, {
        SOURCE_SHA: sha or "not recorded",
        "questions": len(pairs),
        "needs_sme": len(needs),
        "needs_sme_questions": ", ".join(map(str, needs)) or "none",
        "floor": config.floor,
        "top_passages": dg.MetadataValue.md(_passages_md(frame)),
        "best_per_question": dg.MetadataValue.md(
            markdown_preview(
                top.select(["label", "status", "confidence", "block_id", "title"]), limit=60
            )
        ),
    }


def _passages_md(frame: pl.DataFrame, limit: int = 30) -> str:
    """Per question: its passages with the rank each query gave them."""
    lines: list[str] = []
    for (qid,), group in frame.group_by(["question_id"], maintain_order=True):
        if len(lines) > limit * 8:
            lines.append("_more questions in the table_")
            break
        first = group.row(0, named=True)
        lines.append(
            f"**{first['label'] or qid}** ({first['status']}, confidence "
            f"{(first['confidence'] or 0):.2f}) {first['question'] or ''}"
        )
        lines.append("")
        lines.append("| rank | block | title | per-query ranks |")
        lines.append("| --- | --- | --- | --- |")
        for r in group.iter_rows(named=True):
            ranks = json.loads(r["query_ranks"]) if r["query_ranks"] else {}
            shown = " · ".join(f"{k} {v if v is not None else '-'}" for k, v in ranks.items())
            lines.append(f"| {r['rank']} | {r['block_id']} | {(r['title'] or '')[:50]} | {shown} |")
        lines.append("")
    return "\n".join(lines) or "_no questions_"
