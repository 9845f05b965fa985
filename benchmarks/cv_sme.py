"""Cross-validation of the "needs SME" rule with negatives (issue 15: the flag was too permissive).

Run: ``.venv/bin/python benchmarks/cv_sme.py [--qrels FILE...] [--validation DOC...] [--json]
[--rows-out FILE | --rows-in FILE] [--tuning-only]``

For every dev question (both qrels files by default) two cases are searched with the offline
rewriting chain:

- positive: the question against the full answer library (the library holds the answer);
- negative: the same question with its relevant blocks (grade 1 and 2) removed from the
  library (the library "lacks the answer"; a question on an RFP the library never saw).

"needs SME" should fire when no relevant passage is in the top 3 and not when one is (issue
15: "the SME flag cross-checked on the dev qrels (no flag when a relevant passage is in the top
3)"): every case is labelled by that, whether searched against the full library or not. A rule
flags when a signal (``SME_SIGNALS`` in ``rfp_retrieval.retrieval.answers``) is under its
floor, or either of two signals is, or (``THIRD``) a pair on ``cosine_top3`` with a stricter
cosine floor for the questions that could not be rephrased (``cosine_unvaried``). The rule
with the best balanced accuracy, among those flagging at most ``--max-false-flags`` (default
10%) of the top-3-answerable cases, is chosen by leave-one-document-out over the tuning
documents (per fold: chosen on the other tuning documents, scored on the held-out one), then
chosen on all tuning documents and scored on the validation documents (``--validation``,
default the two held back while the rules were designed; ``--tuning-only`` leaves them out).
Printed per rule: the flag's precision and recall against "no relevant passage in the top
3", and the counts behind them.
``--rows-out FILE`` keeps every case's signals, ``--rows-in FILE`` re-scores them without
the model. ``RFP_RETRIEVAL_SHARED_DATA`` names the shared data folder (default
``../shared/data``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DATA = Path(os.environ.get("RFP_RETRIEVAL_SHARED_DATA") or REPO.parent / "shared" / "data")
"""The shared data folder (``RFP_RETRIEVAL_SHARED_DATA`` overrides; a worktree passes it)."""

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
    "cosine_unvaried": np.round(np.arange(0.10, 0.801, 0.01), 2),
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


CHOOSABLE = (
    "cosine_top3",
    "lexical_top3",
    "cosine_margin",
    "support",
    "rare_terms_top3",
    "cosine_unvaried",
)
"""Signals the rule may use: the bounded ones. Raw BM25 (``bm25_top3``) is printed but not
chosen: its scale moves with the library's size and the query's length, so a floor tuned on
this library does not carry to a customer's."""

THIRD = "cosine_unvaried"
"""The signal of the third clause tried on each pair whose first signal is ``cosine_top3``
(the same cosine, stricter where no paraphrase exists, at a floor above the pair's own:
``RetrievalConfig``). Only these triples are searched: all triples of the grids would take
minutes per fold."""

MAX_FALSE_FLAGS = 0.10
"""Default cap on the share of top-3-answerable cases flagged (a writer who sees "needs SME"
on a question whose answer is among the three passages learns to ignore the flag);
``--max-false-flags 1`` gives plain balanced accuracy."""

Rule = tuple[tuple[str, float], ...]
"""A "needs SME" rule: flagged when any ``(signal, floor)`` clause has signal < floor."""


def _flags(rows: list[dict], rule: Rule) -> np.ndarray:
    out = np.zeros(len(rows), dtype=bool)
    for signal, floor in rule:
        out |= np.array([r[signal] < floor for r in rows], dtype=bool)
    return out


def _target(rows: list[dict]) -> np.ndarray:
    """True where no relevant passage is in the top 3 (the flag should fire; issue 15)."""
    return np.array([not r["top3_hit"] for r in rows], dtype=bool)


def _objective(flag: np.ndarray, target: np.ndarray, max_false: float) -> np.ndarray:
    """Balanced accuracy of ``flag`` (any leading shape, last axis the cases) against
    ``target``; -1 where more than ``max_false`` of the top-3-answerable cases are flagged."""
    hit = ~target
    tpr = (flag & target).sum(-1) / max(int(target.sum()), 1)
    false = (flag & hit).sum(-1) / max(int(hit.sum()), 1)
    score = (tpr + (1 - false)) / 2
    return np.where(false > max_false + 1e-9, -1.0, score)


def _choose(rows: list[dict], max_false: float = MAX_FALSE_FLAGS) -> tuple[float, Rule]:
    """(score, rule) best on ``rows`` (``_objective``) among one-signal rules, pairs of
    signals (flag when either is under its floor) and the pairs on ``cosine_top3`` with a
    ``THIRD`` clause above the cosine floor; ties: the fewer clauses, then the first signals,
    then the lower floors."""
    target = _target(rows)
    values = {s: np.array([r[s] for r in rows], dtype=float) for s in CHOOSABLE}
    best: tuple[float, Rule] = (-1.0, ())
    for signal in CHOOSABLE:
        grid = STEPS[signal]
        flag = values[signal][None, :] < grid[:, None]
        scores = _objective(flag, target, max_false)
        i = int(np.argmax(scores))
        if scores[i] > best[0] + 1e-9:
            best = (float(scores[i]), ((signal, float(grid[i])),))
    for k, first in enumerate(CHOOSABLE):
        for second in CHOOSABLE[k + 1 :]:
            ga, gb = STEPS[first], STEPS[second]
            fa = values[first][None, :] < ga[:, None]
            fb = values[second][None, :] < gb[:, None]
            flag = fa[:, None, :] | fb[None, :, :]
            scores = _objective(flag, target, max_false)
            i, j = np.unravel_index(int(np.argmax(scores)), scores.shape)
            if scores[i, j] > best[0] + 1e-9:
                best = (float(scores[i, j]), ((first, float(ga[i])), (second, float(gb[j]))))
    best = max(_triples(values, target, max_false), best, key=lambda b: b[0] - 1e-9 * len(b[1]))
    return best


def _triples(values: dict, target: np.ndarray, max_false: float) -> tuple[float, Rule]:
    """Best (score, rule) among ``cosine_top3 < a or <second> < b or THIRD < c`` with c > a
    (``_choose``); (-1.0, ()) when none keeps the cap."""
    best: tuple[float, Rule] = (-1.0, ())
    ga, gc = STEPS["cosine_top3"], STEPS[THIRD]
    fa = values["cosine_top3"][None, :] < ga[:, None]
    fc = values[THIRD][None, :] < gc[:, None]
    for second in CHOOSABLE:
        if second in ("cosine_top3", THIRD):
            continue
        gb = STEPS[second]
        pair = fa[:, None, :] | (values[second][None, :] < gb[:, None])[None, :, :]
        for k, c in enumerate(gc):
            above = ga < c
            if not above.any():
                continue
            scores = _objective(pair[above] | fc[k], target, max_false)
            i, j = np.unravel_index(int(np.argmax(scores)), scores.shape)
            if scores[i, j] > best[0] + 1e-9:
                rule = (
                    ("cosine_top3", float(ga[above][i])),
                    (second, float(gb[j])),
                    (THIRD, float(c)),
                )
                best = (float(scores[i, j]), rule)
    return best


def _figures(rows: list[dict], rule: Rule) -> dict:
    """Flag figures of ``rule`` on ``rows``: precision and recall against "no relevant passage
    in the top 3", balanced accuracy, and the counts behind them."""
    flag, target = _flags(rows, rule), _target(rows)
    neg = np.array([r["negative"] for r in rows], dtype=bool)
    hit = ~target
    flagged = int(flag.sum())
    right = int((flag & target).sum())
    return {
        "precision": round(right / flagged, 4) if flagged else None,
        "recall": round(right / int(target.sum()), 4) if target.any() else None,
        "balanced_accuracy": round(float(_objective(flag, target, 1.0)), 4),
        "no_top3_flagged": f"{right}/{int(target.sum())}",
        "top3_answerable_flagged": f"{int((flag & hit).sum())}/{int(hit.sum())}",
        "negatives_flagged": f"{int((flag & neg).sum())}/{int(neg.sum())}",
        "positives_flagged": f"{int((flag & ~neg).sum())}/{int((~neg).sum())}",
    }


def _rule_text(rule: Rule) -> str:
    return " or ".join(f"{s} < {f}" for s, f in rule) or "never"


def default_rule(config: RetrievalConfig | None = None) -> Rule:
    """The rule ``RetrievalConfig`` applies (``AnswerIndex.search``)."""
    config = config or RetrievalConfig()
    rule: Rule = ((config.sme_signal, config.floor),)
    if config.sme_second_signal:
        rule += ((config.sme_second_signal, config.sme_second_floor),)
    if config.sme_third_signal:
        rule += ((config.sme_third_signal, config.sme_third_floor),)
    return rule


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--qrels",
        type=Path,
        nargs="+",
        default=[
            DATA / "answers_qrels_dev.jsonl",
            DATA / "answers_qrels_dev2.jsonl",
        ],
    )
    parser.add_argument("--validation", nargs="*", default=list(VALIDATION))
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--rows-out", type=Path, help="write every case's signals (JSON)")
    parser.add_argument("--rows-in", type=Path, help="read the cases from --rows-out instead")
    parser.add_argument(
        "--tuning-only", action="store_true", help="leave the validation documents out"
    )
    parser.add_argument(
        "--max-false-flags",
        type=float,
        default=MAX_FALSE_FLAGS,
        help="largest share of top-3-answerable cases the chosen rule may flag (training)",
    )
    args = parser.parse_args()
    assert set(STEPS) == set(SME_SIGNALS), (sorted(STEPS), SME_SIGNALS)
    if args.rows_in:
        rows = json.loads(args.rows_in.read_text(encoding="utf-8"))
    else:
        qrels = [q for path in args.qrels for q in load_qrels(path)]
        prepared = prepare_questions(qrels)
        embedder = _MemoEmbedder()
        index = build_index(load_answer_library(REPO / "sample" / "answers").blocks, embedder)
        rows = _cases(qrels, prepared, index, embedder)
    if args.rows_out:
        args.rows_out.write_text(json.dumps(rows), encoding="utf-8")
    validation = set(args.validation)
    tuning_rows = [r for r in rows if r["doc"] not in validation]
    validation_rows = [] if args.tuning_only else [r for r in rows if r["doc"] in validation]
    by_doc: dict[str, list[dict]] = defaultdict(list)
    for r in tuning_rows:
        by_doc[r["doc"]].append(r)
    folds, held = {}, []
    for doc in sorted(by_doc):
        train = [r for d, rs in by_doc.items() if d != doc for r in rs]
        score, rule = _choose(train, args.max_false_flags)
        folds[doc] = {"rule": _rule_text(rule), "train_balanced_accuracy": round(score, 4)}
        folds[doc] |= {"held_out": _figures(by_doc[doc], rule)}
        held.append((by_doc[doc], rule))
    flag = np.concatenate([_flags(rs, rule) for rs, rule in held]) if held else np.array([])
    target = np.concatenate([_target(rs) for rs, _ in held]) if held else np.array([])
    right = int((flag & target).sum())
    pooled = {
        "precision": round(right / int(flag.sum()), 4) if flag.sum() else None,
        "recall": round(right / int(target.sum()), 4) if target.sum() else None,
        "balanced_accuracy": round(float(_objective(flag, target, 1.0)), 4),
    }
    score, rule = _choose(tuning_rows, args.max_false_flags)
    current = default_rule()
    report = {
        "folds": folds,
        "pooled_held_out_tuning": pooled,
        "chosen_on_tuning": _rule_text(rule),
        "tuning": _figures(tuning_rows, rule),
        "current_default": {
            "rule": _rule_text(current),
            "tuning": _figures(tuning_rows, current),
        },
    }
    if validation_rows:
        report["validation"] = _figures(validation_rows, rule)
        report["current_default"]["validation"] = _figures(validation_rows, current)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for doc, fold in folds.items():
        h = fold["held_out"]
        print(
            f"held out {doc[:44]:44s} chose {fold['rule']} (train BA "
            f"{fold['train_balanced_accuracy']:.3f}): precision {h['precision']} recall "
            f"{h['recall']} top3-answerable flagged {h['top3_answerable_flagged']}"
        )
    print(f"pooled held-out (tuning documents): {pooled}")
    print(f"chosen on all tuning documents: {_rule_text(rule)}")
    for part in ("tuning", "validation"):
        if part in report:
            print(f"  {part}: {report[part]}")
    cur = report["current_default"]
    print(f"current default {cur['rule']}: tuning {cur['tuning']}")
    if "validation" in cur:
        print(f"  validation {cur['validation']}")


if __name__ == "__main__":
    main()
