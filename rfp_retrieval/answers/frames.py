"""Answer library <-> polars frames (the ``answer_blocks`` and ``answer_block_embeddings``
tables), and embedding that re-uses the vectors of unchanged blocks."""

from __future__ import annotations

import datetime as dt
from typing import Any

import polars as pl

from rfp_retrieval.answers.ingest import block_text
from rfp_retrieval.answers.records import (
    DEFAULT_REVIEW_INTERVAL_DAYS,
    AnswerBlock,
    AnswerLibrary,
)

UNREADABLE = "unreadable"

BLOCK_SCHEMA = {
    "id": pl.String,
    "title": pl.String,
    "topic": pl.String,
    "tags": pl.List(pl.String),
    "body": pl.String,
    "kind": pl.String,
    "question": pl.String,
    "owner": pl.String,
    "last_reviewed": pl.Date,
    "review_due": pl.Date,
    "source": pl.String,
    "row": pl.Int64,
    "problems": pl.List(pl.String),
    "duplicate_of": pl.String,
    "usable": pl.Boolean,
    "words": pl.Int64,
}

EMBEDDING_SCHEMA = {
    "id": pl.String,
    "model": pl.String,
    "text_sha": pl.String,
    "dim": pl.Int64,
    "vector": pl.List(pl.Float32),
}


def blocks_frame(
    library: AnswerLibrary, review_interval_days: int = DEFAULT_REVIEW_INTERVAL_DAYS
) -> pl.DataFrame:
    """One row per block (usable or not) plus one per unreadable file or row.

    An unreadable file has a null ``id``, ``usable`` False and ``problems`` =
    ["unreadable: <reason>"]. ``review_due`` is ``last_reviewed`` + ``review_interval_days``.
    """
    rows: list[dict[str, Any]] = []
    for b in library.blocks:
        rows.append(
            {
                "id": b.id,
                "title": b.title,
                "topic": b.topic,
                "tags": list(b.tags),
                "body": b.body,
                "kind": b.kind,
                "question": b.question,
                "owner": b.owner,
                "last_reviewed": b.last_reviewed,
                "review_due": b.review_due(review_interval_days),
                "source": b.source,
                "row": b.row,
                "problems": list(b.problems),
                "duplicate_of": b.duplicate_of,
                "usable": b.usable,
                "words": len(b.body.split()),
            }
        )
    for r in library.rejected:
        rows.append(
            {
                "id": None,
                "title": "",
                "topic": "",
                "tags": [],
                "body": "",
                "kind": "unreadable",
                "question": "",
                "owner": "",
                "last_reviewed": None,
                "review_due": None,
                "source": r.file,
                "row": r.row,
                "problems": [f"{UNREADABLE}: {r.reason}"],
                "duplicate_of": None,
                "usable": False,
                "words": 0,
            }
        )
    return pl.DataFrame(rows, schema=BLOCK_SCHEMA) if rows else pl.DataFrame(schema=BLOCK_SCHEMA)


def blocks_from_frame(frame: pl.DataFrame) -> list[AnswerBlock]:
    """The usable ``AnswerBlock`` records of an ``answer_blocks`` frame, in frame order."""
    out: list[AnswerBlock] = []
    for r in frame.filter(pl.col("usable")).iter_rows(named=True):
        out.append(
            AnswerBlock(
                id=r["id"],
                title=r["title"] or "",
                topic=r["topic"] or "",
                body=r["body"] or "",
                source=r["source"] or "",
                tags=list(r["tags"] or []),
                last_reviewed=r["last_reviewed"],
                owner=r["owner"] or "",
                row=r["row"],
                kind=r["kind"] or "block",
                question=r["question"] or "",
                problems=list(r["problems"] or []),
            )
        )
    return out


def stale_blocks(frame: pl.DataFrame, as_of: dt.date) -> pl.DataFrame:
    """Usable blocks whose review date has passed on ``as_of`` (or that were never reviewed)."""
    return frame.filter(
        pl.col("usable") & (pl.col("review_due").is_null() | (pl.col("review_due") < as_of))
    )


def answer_embeddings_frame(
    blocks: list[AnswerBlock], embedder: Any, previous: pl.DataFrame | None = None
) -> tuple[pl.DataFrame, dict[str, int]]:
    """One unit vector per usable block, re-embedding only new or changed texts.

    ``embedder`` is an ``Embedder``; ``previous`` the stored ``answer_block_embeddings``
    frame (or None). A vector is reused when the id, the text hash (``text_sha`` of
    ``block_text``) and the model all match; vectors of another model are never reused.
    Returns ``(frame, {"embedded": n, "reused": m})``; frame columns: id, model, text_sha,
    dim, vector (unit float32, cosine = dot product).
    """
    from rfp_retrieval.retrieval.embedding import encode_missing, text_sha

    model_id = embedder.model_id
    reuse: dict[tuple[str, str], list[float]] = {}
    if previous is not None and previous.height:
        for r in previous.filter(pl.col("model") == model_id).iter_rows(named=True):
            reuse[(r["id"], r["text_sha"])] = r["vector"]
    rows: list[dict[str, Any]] = []
    todo: list[tuple[int, str]] = []
    for block in blocks:
        if not block.usable:
            continue
        text = block_text(block)
        sha = text_sha(text)
        vector = reuse.get((block.id, sha))
        rows.append({"id": block.id, "model": model_id, "text_sha": sha, "vector": vector})
        if vector is None:
            todo.append((len(rows) - 1, text))
    encode_missing(rows, todo, embedder)
    frame = (
        pl.DataFrame(rows, schema=EMBEDDING_SCHEMA)
        if rows
        else pl.DataFrame(schema=EMBEDDING_SCHEMA)
    )
    return frame, {"embedded": len(todo), "reused": len(rows) - len(todo)}
