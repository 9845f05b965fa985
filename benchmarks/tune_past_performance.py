"""Leave-one-out cross-validation of the default ranking's weights on a golden set.

For each held-out scope, the grid point with the best top-3 recall on the other scopes is
chosen (ties: every tied grid point counts, averaged) and scored on the held-out scope. The
mean over held-out scopes is an honest estimate of the default mode on unseen scopes; the
shipped default is compared with it.

    .venv/bin/python benchmarks/tune_past_performance.py \
        --golden ../shared/data/pp_golden_dev/golden.jsonl --library ../shared/data/library
"""

from __future__ import annotations

import argparse
import itertools
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from rfp_retrieval.eval.past_performance import (
    embed_library,
    load_golden,
    prepare_scopes,
    recall_at_k,
)
from rfp_retrieval.library.frames import entries_frame
from rfp_retrieval.library.ingest import load_library
from rfp_retrieval.retrieval.config import PRODUCT_DEFAULT, RankingConfig
from rfp_retrieval.retrieval.embedding import Embedder
from rfp_retrieval.retrieval.past_performance import rank_references

SIMILARITY_MIXES = [
    (1.0, 0.0, 0.0),
    (0.5, 0.5, 0.0),
    (0.5, 0.0, 0.5),
    (0.4, 0.3, 0.3),
    (0.34, 0.33, 0.33),
]


def grid() -> list[RankingConfig]:
    """The grid searched: similarity mix x domain weight x agency bump x soft penalties."""
    configs = []
    for (w, o, s), dom, agency, pv, pr in itertools.product(
        SIMILARITY_MIXES, (0.0, 0.05, 0.1), (0.02, 0.08), (0.05, 0.1, 1.0), (0.05, 1.0)
    ):
        configs.append(
            replace(
                PRODUCT_DEFAULT,
                default_weight_whole=w,
                default_weight_outcome=o,
                default_weight_section=s,
                domain_weight=dom,
                agency_bump=agency,
                penalty_value=pv,
                penalty_role=pr,
            )
        )
    return configs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--golden", type=Path, required=True)
    parser.add_argument("--library", type=Path, required=True)
    args = parser.parse_args()

    started = time.perf_counter()
    embedder = Embedder()
    scopes = load_golden(args.golden)
    entries = entries_frame(load_library(args.library).entries)
    vectors = embed_library(entries, embedder)
    prepared = prepare_scopes(scopes, embedder)
    configs = grid()

    def recalls(config: RankingConfig, field: str = "ideal") -> np.ndarray:
        out = []
        for p in prepared:
            top = [r.id for r in rank_references(entries, vectors, p.query, config).references]
            out.append(recall_at_k(top, getattr(p.golden, field) or p.golden.ideal))
        return np.asarray(out)

    table = np.stack([recalls(c) for c in configs])  # (configs, scopes)
    table_alt = np.stack([recalls(c, "ideal_alt") for c in configs])
    loo, loo_alt = [], []
    for j in range(len(prepared)):
        others = [k for k in range(len(prepared)) if k != j]
        train = table[:, others].mean(axis=1)
        best = np.flatnonzero(train == train.max())
        loo.append(table[best, j].mean())
        loo_alt.append(table_alt[best, j].mean())
    shipped = recalls(PRODUCT_DEFAULT)
    shipped_alt = recalls(PRODUCT_DEFAULT, "ideal_alt")
    print(f"scopes: {len(prepared)}  grid points: {len(configs)}")
    print(f"leave-one-out top-3 recall (ideal):     {np.mean(loo):.3f}")
    print(f"leave-one-out top-3 recall (ideal_alt): {np.mean(loo_alt):.3f}")
    print(f"shipped default, all scopes (ideal):     {shipped.mean():.3f}")
    print(f"shipped default, all scopes (ideal_alt): {shipped_alt.mean():.3f}")
    print(f"best grid point in-sample:               {table.mean(axis=1).max():.3f}")
    print(f"elapsed: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
