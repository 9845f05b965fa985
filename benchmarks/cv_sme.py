"""Cross-validation of the "needs SME" rule with negatives (issue: the flag never fired).

Run: ``.venv/bin/python benchmarks/cv_sme.py [--qrels FILE...] [--validation DOC...] [--json]``

For every dev question (both qrels files by default) two cases are searched with the offline
rewriting chain:

- positive: the question against the full answer library (the library holds the answer);
- negative: the same question with its relevant blocks (grade 1 and 2) removed from the
  library (the library "lacks the answer"; a question on an RFP the library never saw).

"needs SME" should fire on the negatives and not on the positives. Each candidate signal
(``SME_SIGNALS`` in ``rfp_retrieval.retrieval.answers``) is thresholded; the signal and floor
with the best balanced accuracy (mean of the flag rate on negatives and the no-flag rate on
positives), among those flagging at most ``--max-false-flags`` (default 10%) of the
positives, are chosen by leave-one-document-out over the tuning documents (per fold: chosen
on the other tuning documents, scored on the held-out one), then chosen on all tuning
documents and scored on the validation documents (``--validation``, default the two held
back while the rules were designed). Also printed: how many positives with a relevant
passage in the top 3 the chosen rule flags (the trade-off with issue 15).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.cv_answers import VALIDATION, _MemoEmbedder  # noqa: E402
from rfp_retrieval.answers.ingest import load_answer_library  # noqa: E402
from rfp_retrieval.eval.answers import build_index, load_qrels, prepare_questions  # noqa: E402
from rfp_retrieval.retrieval.answers import (  # noqa: E402
    SME_SIGNALS,
    AnswerIndex,
    RetrievalConfig,
)
from rfp_retrieval.rewrite.chain import rewrite_question  # noqa: E402

STEPS = {
    "cosine_top3": np.round(np.arange(0.10, 0.801, 0.01), 2),
    "lexical_top3": np.round(np.arange(0.0, 1.001, 0.02), 2),
    "cosine_margin": np.round(np.arange(0.0, 0.301, 0.005), 3),
    "bm25_top3": np.round(np.arange(0.0, 30.01, 0.5), 1),
    "support": np.round(np.arange(0.10, 1.001, 0.01), 2),
    "rare_terms_top3": np.round(np.arange(0.0, 1.001, 0.02), 2),
}


def _cases(qrels, prepared, index, embedder) -> list[dict]:
    """Signals of every positive and negative case: ``{"qid", "doc", "negative", "top3_hit",
    signal: value...}``."""
    config = RetrievalConfig()
    rows: list[dict] = []
    for q in qrels:
        question = prepared.matched[q.qid]
        if question is None:
            continue
        rewritten = rewrite_question(question, prepared.documents[q.doc])
        queries = rewritten.queries
        vectors = embedder.encode([x.text for x in queries])
        keep = [i for i, b in enumerate(index.ids) if b not in q.relevant]
        lacking = AnswerIndex(
            [index.ids[i] for i in keep],
            [index.titles[i] for i in keep],
            [index.texts[i] for i in keep],
            index.vectors[keep],
        )
        for negative, idx in ((False, index), (True, lacking)):
            result = idx.search(queries, vectors, config)
            top3 = [p.block_id for p in result.passages[:3]]
            rows.append(
                {
                    "qid": q.qid,
                    "doc": q.doc.name,
                    "negative": negative,
                    "top3_hit": bool(set(top3) & set(q.relevant)),
                    **result.signals,
                }
            )
    return rows


def _balanced_accuracy(rows: list[dict], signal: str, floor: float) -> float:
    neg = [r for r in rows if r["negative"]]
    pos = [r for r in rows if not r["negative"]]
    tnr = np.mean([r[signal] < floor for r in neg]) if neg else 0.0
    tpr = np.mean([r[signal] >= floor for r in pos]) if pos else 0.0
    return float((tnr + tpr) / 2)


CHOOSABLE = ("cosine_top3", "lexical_top3", "cosine_margin", "support", "rare_terms_top3")
"""Signals the rule may use: the bounded ones. Raw BM25 (``bm25_top3``) is printed but not
chosen: its scale moves with the library's size and the query's length, so a floor tuned on
this library does not carry to a customer's."""

MAX_FALSE_FLAGS = 0.10
"""Default cap on the share of positives flagged (a writer who sees "needs SME" on a question
the library answers learns to ignore the flag); ``--max-false-flags 1`` gives plain balanced
accuracy."""


def _score(rows: list[dict], signal: str, floor: float, max_false: float) -> float:
    """Balanced accuracy, or -1 when more than ``max_false`` of the positives are flagged."""
    pos = [r for r in rows if not r["negative"]]
    if pos and np.mean([r[signal] < floor for r in pos]) > max_false + 1e-9:
        return -1.0
    return _balanced_accuracy(rows, signal, floor)


def _choose(rows: list[dict], max_false: float = MAX_FALSE_FLAGS) -> tuple[float, str, float]:
    """(score, signal, floor) best on ``rows`` (``_score``); ties: the first signal, the lower
    floor."""
    best = (-1.0, "", 0.0)
    for signal in CHOOSABLE:
        for floor in STEPS[signal]:
            score = _score(rows, signal, float(floor), max_false)
            if score > best[0] + 1e-9:
                best = (score, signal, float(floor))
    return best


def _figures(rows: list[dict], signal: str, floor: float) -> dict:
    neg = [r for r in rows if r["negative"]]
    pos = [r for r in rows if not r["negative"]]
    answerable = [r for r in pos if r["top3_hit"]]
    return {
        "balanced_accuracy": round(_balanced_accuracy(rows, signal, floor), 4),
        "negatives_flagged": f"{sum(r[signal] < floor for r in neg)}/{len(neg)}",
        "positives_flagged": f"{sum(r[signal] < floor for r in pos)}/{len(pos)}",
        "top3_answerable_flagged": f"{sum(r[signal] < floor for r in answerable)}"
        f"/{len(answerable)}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--qrels",
        type=Path,
        nargs="+",
        default=[
            REPO.parent / "shared" / "data" / "answers_qrels_dev.jsonl",
            REPO.parent / "shared" / "data" / "answers_qrels_dev2.jsonl",
        ],
    )
    parser.add_argument("--validation", nargs="*", default=list(VALIDATION))
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--rows-out", type=Path, help="write every case's signals (JSON)")
    parser.add_argument(
        "--max-false-flags",
        type=float,
        default=MAX_FALSE_FLAGS,
        help="largest share of positives the chosen rule may flag on the training documents",
    )
    args = parser.parse_args()
    assert set(STEPS) == set(SME_SIGNALS), (sorted(STEPS), SME_SIGNALS)
    qrels = [q for path in args.qrels for q in load_qrels(path)]
    prepared = prepare_questions(qrels)
    embedder = _MemoEmbedder()
    index = build_index(load_answer_library(REPO / "sample" / "answers").blocks, embedder)
    rows = _cases(qrels, prepared, index, embedder)
    if args.rows_out:
        args.rows_out.write_text(json.dumps(rows), encoding="utf-8")
    validation = set(args.validation)
    tuning_rows = [r for r in rows if r["doc"] not in validation]
    by_doc: dict[str, list[dict]] = defaultdict(list)
    for r in tuning_rows:
        by_doc[r["doc"]].append(r)
    folds = {}
    for doc in sorted(by_doc):
        train = [r for d, rs in by_doc.items() if d != doc for r in rs]
        score, signal, floor = _choose(train, args.max_false_flags)
        folds[doc] = {"signal": signal, "floor": floor, "train_balanced_accuracy": round(score, 4)}
        folds[doc] |= {"held_out": _figures(by_doc[doc], signal, floor)}
    held_rows = []
    for doc, fold in folds.items():
        held_rows += [dict(r, _floor=fold["floor"], _sig=fold["signal"]) for r in by_doc[doc]]
    pooled_neg = [r for r in held_rows if r["negative"]]
    pooled_pos = [r for r in held_rows if not r["negative"]]
    pooled = {
        "balanced_accuracy": round(
            float(
                np.mean([r[r["_sig"]] < r["_floor"] for r in pooled_neg]) / 2
                + np.mean([r[r["_sig"]] >= r["_floor"] for r in pooled_pos]) / 2
            ),
            4,
        )
    }
    score, signal, floor = _choose(tuning_rows, args.max_false_flags)
    per_signal = {s: _choose_one(tuning_rows, s, args.max_false_flags) for s in STEPS}
    report = {
        "folds": folds,
        "pooled_held_out_tuning": pooled,
        "chosen_on_tuning": {"signal": signal, "floor": floor},
        "tuning": _figures(tuning_rows, signal, floor),
        "validation": _figures([r for r in rows if r["doc"] in validation], signal, floor),
        "best_floor_per_signal_on_tuning": per_signal,
        "current_default": {
            "signal": RetrievalConfig().sme_signal,
            "floor": RetrievalConfig().floor,
            "tuning": _figures(tuning_rows, RetrievalConfig().sme_signal, RetrievalConfig().floor),
            "validation": _figures(
                [r for r in rows if r["doc"] in validation],
                RetrievalConfig().sme_signal,
                RetrievalConfig().floor,
            ),
        },
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for doc, fold in folds.items():
        h = fold["held_out"]
        print(
            f"held out {doc[:48]:48s} chose {fold['signal']}>={fold['floor']} "
            f"(train BA {fold['train_balanced_accuracy']:.3f}) held-out BA "
            f"{h['balanced_accuracy']:.3f} neg flagged {h['negatives_flagged']} "
            f"pos flagged {h['positives_flagged']} top3-answerable flagged "
            f"{h['top3_answerable_flagged']}"
        )
    print(f"pooled held-out (tuning documents): BA {pooled['balanced_accuracy']:.3f}")
    print(f"chosen on all tuning documents: {signal} >= {floor}")
    for part in ("tuning", "validation"):
        print(f"  {part}: {report[part]}")
    for s, (ba, f) in per_signal.items():
        print(f"  best {s:14s} floor {f:<6} tuning BA {ba:.3f}")
    cur = report["current_default"]
    print(f"current default {cur['signal']} >= {cur['floor']}: tuning {cur['tuning']}")
    print(f"  validation {cur['validation']}")


def _choose_one(rows: list[dict], signal: str, max_false: float) -> tuple[float, float]:
    """(score, floor) best for one ``signal`` (``_score``); ties: the lower floor."""
    best = (-1.0, 0.0)
    for floor in STEPS[signal]:
        score = _score(rows, signal, float(floor), max_false)
        if score > best[0] + 1e-9:
            best = (score, float(floor))
    return round(best[0], 4), best[1]


if __name__ == "__main__":
    main()
