"""Leave-one-document-out cross-validation of the answer-retrieval settings that were tuned.

Run: ``.venv/bin/python benchmarks/cv_answers.py [--qrels FILE] [--only SETTING...] [--json]``

Tuned on the dev qrels: the fusion constant across a question's queries (``fusion_k``), the
length of the earlier-paragraph and cross-reference keyword summaries, whether the offline
rewrite carries the document subject, and whether specific questions are decomposed. For
each of the five documents, the grid point with the best mean MRR@10 on the other four is
chosen and scored on the held-out one; the pooled held-out scores are the cross-validated
figures (with rewriting on, offline rewriter). The defaults' in-sample figures are printed
beside them.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from rfp_retrieval.answers.ingest import load_answer_library  # noqa: E402
from rfp_retrieval.eval.answers import (  # noqa: E402
    METRICS,
    build_index,
    evaluate_answers,
    load_qrels,
    prepare_questions,
)
from rfp_retrieval.retrieval.answers import RetrievalConfig  # noqa: E402
from rfp_retrieval.retrieval.embedding import Embedder  # noqa: E402
from rfp_retrieval.rewrite.chain import ChainConfig  # noqa: E402
from rfp_retrieval.rewrite.context import ContextConfig  # noqa: E402
from rfp_retrieval.rewrite.offline import OfflineRewriter  # noqa: E402

GRID = {
    "fusion_k": (1, 3, 5, 10, 20, 60),
    "paragraph_words": (0, 6, 10),
    "reference_words": (0, 16),
    "include_subject": (False, True),
    "decompose_specific": (False, True),
}
DEFAULT = {
    "fusion_k": 5,
    "paragraph_words": 6,
    "reference_words": 16,
    "include_subject": False,
    "decompose_specific": False,
}


class _MemoEmbedder:
    """The bundled model with a per-text cache (the grid repeats most query texts)."""

    def __init__(self) -> None:
        self.model = Embedder()
        self.model_id = self.model.model_id
        self.memo: dict[str, np.ndarray] = {}

    def encode(self, texts: list[str]) -> np.ndarray:
        todo = [t for t in dict.fromkeys(texts) if t not in self.memo]
        if todo:
            self.memo.update(zip(todo, self.model.encode(todo), strict=True))
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        return np.stack([self.memo[t] for t in texts])


def _per_question(prepared, index, embedder, point: dict) -> dict[str, dict]:
    chain = ChainConfig(
        context=ContextConfig(
            paragraph_words=point["paragraph_words"], reference_words=point["reference_words"]
        ),
        decompose_specific=point["decompose_specific"],
    )
    run = evaluate_answers(
        prepared,
        index,
        embedder,
        modes=("on",),
        chain_config=chain,
        retrieval_config=RetrievalConfig(fusion_k=point["fusion_k"]),
        rewriter=OfflineRewriter(include_subject=point["include_subject"]),
    )["on"]
    return {row["qid"]: row for row in run["per_question"]}


def _summary(rows: list[dict]) -> dict:
    out = {m: round(float(np.mean([r[m] for r in rows])), 4) for m in METRICS}
    by_type: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_type[r["type"]].append(r)
    out["by_type"] = {
        t: {m: round(float(np.mean([r[m] for r in rs])), 4) for m in METRICS}
        for t, rs in sorted(by_type.items())
    }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--qrels", type=Path, default=REPO.parent / "shared" / "data" / "answers_qrels_dev.jsonl"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--only",
        nargs="*",
        choices=sorted(GRID),
        help="tune only these settings (the others stay at their defaults)",
    )
    args = parser.parse_args()
    qrels = load_qrels(args.qrels)
    prepared = prepare_questions(qrels)
    embedder = _MemoEmbedder()
    index = build_index(load_answer_library(REPO / "sample" / "answers").blocks, embedder)
    grid = {k: (v if not args.only or k in args.only else (DEFAULT[k],)) for k, v in GRID.items()}
    points = [dict(zip(grid, values, strict=True)) for values in itertools.product(*grid.values())]
    results = [_per_question(prepared, index, embedder, p) for p in points]
    doc_of = {q.qid: q.doc.name for q in qrels}
    docs = sorted(set(doc_of.values()))
    held_out: list[dict] = []
    chosen = {}
    for doc in docs:
        train = [qid for qid, d in doc_of.items() if d != doc]
        scores = [
            (
                np.mean([res[q]["mrr_at_10"] for q in train]),
                np.mean([res[q]["hit_rate_at_5"] for q in train]),
                p == DEFAULT,
                i,
            )
            for i, (p, res) in enumerate(zip(points, results, strict=True))
        ]
        best = max(scores)[3]
        chosen[doc] = points[best]
        held_out += [results[best][qid] for qid, d in doc_of.items() if d == doc]
    default_rows = list(results[points.index(DEFAULT)].values())
    report = {
        "grid_points": len(points),
        "chosen_per_held_out_document": chosen,
        "cross_validated": _summary(held_out),
        "defaults_in_sample": _summary(default_rows),
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for name in ("cross_validated", "defaults_in_sample"):
        s = report[name]
        print(f"{name}: " + " ".join(f"{m}={s[m]:.3f}" for m in METRICS))
        for t, m in s["by_type"].items():
            print(f"    {t:16s} " + " ".join(f"{k}={v:.3f}" for k, v in m.items()))
    for doc, point in chosen.items():
        print(f"held out {doc}: chose {point}")


if __name__ == "__main__":
    main()
