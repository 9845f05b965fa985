"""Past-performance recall on the tuning and validation parts of the dev scopes (issue 18).

The split is fixed for every helper: a scope whose number is divisible by 3 (S03, S06, ...,
S78) is in the validation part, every other one in the tuning part (``split_of``). Prints
top-3 recall vs ``ideal`` and ``ideal_alt`` and MRR per mode on tuning, validation and all
scopes (``eval.past_performance.evaluate_modes``, constraints read from each RFP by the
product), and with ``--per-scope`` the tuning scopes' top 3 (never the validation ones).

    PYTHONPATH=. .venv/bin/python benchmarks/pp_split.py \
        --golden ../shared/data/pp_golden_all.jsonl --library ../shared/data/library

``--cache FILE`` keeps the embedded library and read scopes in a pickle (reused when it
exists: delete it after changing the RFP reading or the library).
"""

from __future__ import annotations

import argparse
import pickle
import re
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
from rfp_retrieval.retrieval.embedding import Embedder

PARTS = ("tuning", "validation", "all")


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
    print(f"elapsed: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
