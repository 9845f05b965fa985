"""Past-performance recall on the tuning and validation parts of the dev scopes (issue 18).

The split is fixed for every helper: a scope whose number is divisible by 3 (S03, S06, ...,
S78) is in the validation part, every other one in the tuning part (``split_of``). Prints
top-3 recall vs ``ideal`` and ``ideal_alt`` and MRR per mode on tuning, validation and all
scopes (``eval.past_performance.evaluate_modes``, constraints read from each RFP by the
product), and with ``--per-scope`` the tuning scopes' top 3 (never the validation ones).
``--misses`` lists where each ideal pick the ``default`` mode misses on a tuning scope ranks
(``miss_rows``: a near-tie just below the cut, ranked lower, or not ranked at all) and counts
them by class; ``--spread`` prints how much the tuning recall moves over random subsets the
size of the validation part (``subsample_spread``: the noise a 20-scope figure carries).

    PYTHONPATH=. .venv/bin/python benchmarks/pp_split.py \
        --golden ../shared/data/pp_golden_all.jsonl --library ../shared/data/library

``--cache FILE`` keeps the embedded library and read scopes in a pickle (reused when it
exists: delete it after changing the RFP reading or the library).
"""

from __future__ import annotations

import argparse
import pickle
import random
import re
import statistics
import time
from pathlib import Path
from typing import Any

from rfp_retrieval.eval.past_performance import (
    embed_library,
    evaluate_modes,
    load_golden,
    mode_configs,
    prepare_scopes,
    reciprocal_rank,
)
from rfp_retrieval.library.frames import entries_frame
from rfp_retrieval.library.ingest import load_library
from rfp_retrieval.retrieval.config import RankingConfig
from rfp_retrieval.retrieval.embedding import Embedder
from rfp_retrieval.retrieval.past_performance import rank_references
from rfp_retrieval.retrieval.prepared import PreparedLibrary

PARTS = ("tuning", "validation", "all")
NEAR_TIE = 0.05
"""Score units: a missed ideal pick ranked within ``NEAR_TIE_RANK`` and at most this far below
the last pick is a near-tie (the session 11 notes: near-ties at ranks 4-8 decide most misses)."""
NEAR_TIE_RANK = 8
MISS_DEPTH = 20
"""How deep ``--misses`` ranks each tuning scope; an ideal pick below it is ``not ranked``."""


def split_of(scope_id: str) -> str:
    """``validation`` when the scope's number is divisible by 3, else ``tuning``.

    Raises:
        ValueError: the id has no number.
    """
    found = re.search(r"\d+", scope_id)
    if found is None:
        raise ValueError(f"scope id {scope_id!r} has no number")
    return "validation" if int(found.group()) % 3 == 0 else "tuning"


def summarise(per_scope: list[dict[str, Any]]) -> dict[str, float]:
    """Mean top-3 recall (ideal, ideal_alt) and MRR of some scopes of ``evaluate_modes``."""
    n = max(len(per_scope), 1)
    alts = [s["recall_alt"] for s in per_scope if s["recall_alt"] is not None]
    return {
        "n": len(per_scope),
        "recall": sum(s["recall"] for s in per_scope) / n,
        "recall_alt": sum(alts) / max(len(alts), 1),
        "mrr": sum(reciprocal_rank(s["top3"], s["ideal"]) for s in per_scope) / n,
    }


def miss_rows(ranked: list[tuple[str, float]], ideal: list[str], top_k: int = 3) -> list[dict]:
    """Where each ideal pick that ``ranked`` misses in its first ``top_k`` stands.

    ``ranked`` is ``[(entry id, score)]`` best first (a ``RankingResult``'s references, ranked
    deeper than ``top_k``); ``ideal`` the labelled picks. Returns one dict per missed id, in
    the order of ``ideal``: ``id``, ``rank`` (1-based, None when it is not in ``ranked``:
    left out by the filters or below the depth), ``gap`` (score of the ``top_k``-th pick minus
    its score, >= 0; None when not ranked) and ``kind``: ``near-tie`` (rank <= ``NEAR_TIE_RANK``
    and gap <= ``NEAR_TIE``), ``ranked lower`` or ``not ranked`` (every missed id is ``not
    ranked`` when ``ranked`` is empty).
    """
    position = {pp_id: k for k, (pp_id, _) in enumerate(ranked)}
    cut = ranked[min(top_k, len(ranked)) - 1][1] if ranked else None
    rows = []
    for pp_id in ideal:
        k = position.get(pp_id)
        if k is not None and k < top_k:
            continue
        if k is None or cut is None:
            rows.append({"id": pp_id, "rank": None, "gap": None, "kind": "not ranked"})
            continue
        gap = max(cut - ranked[k][1], 0.0)
        near = k + 1 <= NEAR_TIE_RANK and gap <= NEAR_TIE
        rows.append(
            {"id": pp_id, "rank": k + 1, "gap": gap, "kind": "near-tie" if near else "ranked lower"}
        )
    return rows


def subsample_spread(
    recalls: list[float], size: int, draws: int = 20000, seed: int = 0
) -> dict[str, float]:
    """How much a mean recall over ``size`` scopes moves by which scopes are drawn.

    ``recalls`` are per-scope top-3 recalls (the tuning part's); draws ``draws`` random subsets
    of ``size`` scopes without replacement (``random.Random(seed)``) and returns the mean,
    standard deviation, 5th and 95th percentile of their means. Without replacement from a
    finite part it understates the spread of a new sample of ``size`` scopes: a lower bound
    on the noise of a validation figure of that size.

    Raises:
        ValueError: ``size`` is not in 1..len(recalls).
    """
    if not 1 <= size <= len(recalls):
        raise ValueError(f"subset size {size} outside 1..{len(recalls)}")
    rng = random.Random(seed)
    means = sorted(statistics.fmean(rng.sample(recalls, size)) for _ in range(draws))
    return {
        "mean": statistics.fmean(means),
        "sd": statistics.pstdev(means),
        "p05": means[int(0.05 * (draws - 1))],
        "p95": means[int(0.95 * (draws - 1))],
    }


def print_misses(entries: Any, vectors: Any, prepared: list) -> None:
    """``miss_rows`` of the ``default`` mode on every TUNING scope, then the count per kind."""
    config = RankingConfig()
    library = PreparedLibrary(entries, vectors)
    kinds: dict[str, int] = {}
    try:
        for p in prepared:
            if split_of(p.golden.scope_id) != "tuning":
                continue
            result = rank_references(
                entries, vectors, p.query, config, prepared=library, depth=MISS_DEPTH
            )
            ranked = [(r.id, r.score) for r in result.references]
            for row in miss_rows(ranked, p.golden.ideal, config.top_k):
                kinds[row["kind"]] = kinds.get(row["kind"], 0) + 1
                gap = "" if row["gap"] is None else f" gap={row['gap']:.3f}"
                print(f"miss {p.golden.scope_id} {row['id']} rank={row['rank']}{gap} {row['kind']}")
    finally:
        library.close()
    print("misses by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))


def load(args: argparse.Namespace) -> tuple[Any, Any, list]:
    """(entries, vectors, prepared scopes); the vectors and scopes from ``args.cache`` when
    it exists (the entries are always read again: ingest rules such as the vague flag)."""
    entries = entries_frame(load_library(args.library).entries)
    if args.cache and args.cache.exists():
        with args.cache.open("rb") as fh:
            vectors, prepared = pickle.load(fh)
        return entries, vectors, prepared
    embedder = Embedder(args.model) if args.model else Embedder()
    vectors = embed_library(entries, embedder)
    prepared = prepare_scopes(load_golden(args.golden), embedder)
    if args.cache:
        with args.cache.open("wb") as fh:
            pickle.dump((vectors, prepared), fh)
    return entries, vectors, prepared


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--golden", type=Path, required=True)
    parser.add_argument("--library", type=Path, required=True)
    parser.add_argument("--mode", default="all")
    parser.add_argument("--model", default=None)
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--per-scope", action="store_true", help="tuning scopes' top 3")
    parser.add_argument("--misses", action="store_true", help="tuning misses of default")
    parser.add_argument("--spread", action="store_true", help="noise of a validation-size mean")
    args = parser.parse_args()
    started = time.perf_counter()
    entries, vectors, prepared = load(args)
    results = evaluate_modes(entries, vectors, prepared, mode_configs(args.mode))
    print(f"{'mode':<12} {'part':<10} {'n':>3} {'recall':>7} {'alt':>7} {'mrr':>7}")
    for mode, result in results.items():
        for part in PARTS:
            scopes = [
                s for s in result["per_scope"] if part == "all" or split_of(s["scope_id"]) == part
            ]
            f = summarise(scopes)
            print(
                f"{mode:<12} {part:<10} {f['n']:>3} {f['recall']:>7.3f} "
                f"{f['recall_alt']:>7.3f} {f['mrr']:>7.3f}"
            )
    if args.per_scope:
        for mode, result in results.items():
            for s in result["per_scope"]:
                if split_of(s["scope_id"]) == "tuning":
                    print(
                        f"{mode:<12} {s['scope_id']} {s['recall']:.2f} top={','.join(s['top3'])} "
                        f"ideal={','.join(s['ideal'])} relaxed={s['relaxed']}"
                    )
    if args.misses:
        print_misses(entries, vectors, prepared)
    if args.spread and "default" in results:
        tuning = [
            s["recall"]
            for s in results["default"]["per_scope"]
            if split_of(s["scope_id"]) == "tuning"
        ]
        size = sum(split_of(p.golden.scope_id) == "validation" for p in prepared)
        f = subsample_spread(tuning, size)
        print(
            f"default tuning recall over {size}-scope subsets: mean {f['mean']:.3f} "
            f"sd {f['sd']:.3f} 5% {f['p05']:.3f} 95% {f['p95']:.3f}"
        )
    print(f"elapsed: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
