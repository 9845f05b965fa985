"""The questions of an RFP as the brief shows them: rewrite, query set, passages, SME flag."""

from __future__ import annotations

import json
from typing import Any

import polars as pl

NEEDS_SME = "needs SME"


def question_views(
    rewritten: pl.DataFrame | None, answers: pl.DataFrame | None
) -> list[dict[str, Any]] | None:
    """Per question: label, text, section path, rewrite, query set, status and passages.

    ``rewritten`` / ``answers`` are the partition's ``rewritten_questions`` and
    ``question_answers`` frames (None when the answer pipeline has not run). Missing columns
    are tolerated. Returns None when both frames are None, [] when they hold no question.
    Each passage is ``{rank, block_id, title, score}``; ``needs_sme`` is True when the
    retrieval status says so.
    """
    if rewritten is None and answers is None:
        return None
    views: dict[str, dict[str, Any]] = {}

    def view(qid: str) -> dict[str, Any]:
        return views.setdefault(
            qid,
            {
                "question_id": qid,
                "label": None,
                "question": None,
                "section_path": [],
                "rewrite": None,
                "skipped": None,
                "queries": [],
                "status": None,
                "confidence": None,
                "needs_sme": False,
                "passages": [],
            },
        )

    for row in (rewritten if rewritten is not None else pl.DataFrame()).iter_rows(named=True):
        if not row.get("question_id"):
            continue
        v = view(row["question_id"])
        v["label"] = row.get("label")
        v["question"] = row.get("original")
        v["section_path"] = list(row.get("section_path") or [])
        v["rewrite"] = row.get("rewrite")
        v["skipped"] = row.get("skipped")
        try:
            queries = json.loads(row.get("queries") or "[]")
        except json.JSONDecodeError:
            queries = []
        v["queries"] = [q.get("text") if isinstance(q, dict) else str(q) for q in queries]
    for row in (answers if answers is not None else pl.DataFrame()).iter_rows(named=True):
        if not row.get("question_id"):
            continue
        v = view(row["question_id"])
        v["label"] = v["label"] or row.get("label")
        v["question"] = v["question"] or row.get("question")
        v["status"] = row.get("status")
        v["confidence"] = row.get("confidence")
        v["needs_sme"] = row.get("status") == NEEDS_SME
        if row.get("block_id"):
            v["passages"].append(
                {
                    "rank": row.get("rank"),
                    "block_id": row["block_id"],
                    "title": row.get("title"),
                    "score": row.get("score"),
                }
            )
    for v in views.values():
        v["passages"].sort(key=lambda p: p["rank"] if p["rank"] is not None else 1_000_000)
    return list(views.values())
