"""Leave-one-out cross-validation of the default ranking's weights on a golden set.

For each held-out scope, the grid point with the best top-3 recall on the other scopes is
chosen (ties: every tied grid point counts, averaged) and scored on the held-out scope. The
mean over held-out scopes is an honest estimate of the whole selection procedure (grid search
included) on unseen scopes. The script also prints the grid point the procedure chose most
often (the shipped default in ``rfp_retrieval/retrieval/config.py`` should be it, or a
round-valued neighbour), its in-sample figure, and the shipped default's in-sample figure.

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
from rfp_retrieval.retrieval.past_performance import PreparedLibrary, rank_references

SIMILARITY_MIXES = [
    (1.0, 0.0, 0.0),
    (0.5, 0.5, 0.0),
    (0.5, 0.0, 0.5),
    (0.4, 0.3, 0.3),
    (0.34, 0.33, 0.33),
]
DOMAIN_WEIGHTS = (0.0, 0.05, 0.1)
AGENCY_BUMPS = (0.02, 0.08)
VALUE_PENALTIES = (0.05, 0.1, 1.0)
ROLE_PENALTIES = (0.05, 1.0)
TUNED = (
    "default_weight_whole",
    "default_weight_outcome",
    "default_weight_section",
    "domain_weight",
    "default_agency_bump",
    "penalty_value",
    "penalty_role",
)


def grid() -> list[RankingConfig]:
    """The grid searched (180 points): similarity mix (whole / outcome / best section) x
    domain-tag weight x agency bump x value and prime-role penalties (1.0 = as good as hard)."""
    configs = []
    for (w, o, s), dom, agency, pv, pr in itertools.product(
        SIMILARITY_MIXES, DOMAIN_WEIGHTS, AGENCY_BUMPS, VALUE_PENALTIES, ROLE_PENALTIES
    ):
        configs.append(
            replace(
                PRODUCT_DEFAULT,
                default_weight_whole=w,
                default_weight_outcome=o,
                default_weight_section=s,
                domain_weight=dom,
                default_agency_bump=agency,
                penalty_value=pv,
                penalty_role=pr,
            )
        )
    return configs


def describe(config: RankingConfig) -> str:
    """The tuned values of ``config``, one ``name=value`` per tuned field."""
    return ", ".join(f"{name}={getattr(config, name)}" for name in TUNED)


def leave_one_out(
    table: np.ndarray, table_alt: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Held-out recall per scope (vs ideal, vs ideal_alt) and how often each grid point was
    chosen. ``table``/``table_alt`` are (grid points, scopes) top-3 recalls; a fold's choice is
    every grid point tied for the best mean recall on the other scopes (each counted)."""
    scopes = table.shape[1]
    held, held_alt = np.zeros(scopes), np.zeros(scopes)
    chosen = np.zeros(table.shape[0], dtype=np.int64)
    for j in range(scopes):
        train = np.delete(table, j, axis=1).mean(axis=1)
        best = np.flatnonzero(np.isclose(train, train.max(), rtol=0, atol=1e-12))
        held[j] = table[best, j].mean()
        held_alt[j] = table_alt[best, j].mean()
        chosen[best] += 1
    return held, held_alt, chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--golden", type=Path, required=True)
    parser.add_argument("--library", type=Path, required=True)
    parser.add_argument(
        "--model",
        default=None,
        help="embedding model name or local folder (default: the bundled all-MiniLM-L6-v2)",
    )
    args = parser.parse_args()

    started = time.perf_counter()
    embedder = Embedder(args.model) if args.model else Embedder()
    scopes = load_golden(args.golden)
    entries = entries_frame(load_library(args.library).entries)
    vectors = embed_library(entries, embedder)
    prepared = prepare_scopes(scopes, embedder)
    library = PreparedLibrary(entries, vectors)
    configs = grid()

    def recalls(config: RankingConfig) -> tuple[np.ndarray, np.ndarray]:
        ideal, alt = [], []
        for p in prepared:
            result = rank_references(entries, vectors, p.query, config, prepared=library)
            top = [r.id for r in result.references]
            ideal.append(recall_at_k(top, p.golden.ideal))
            alt.append(recall_at_k(top, p.golden.ideal_alt or p.golden.ideal))
        return np.asarray(ideal), np.asarray(alt)

    rows = [recalls(c) for c in configs]
    table = np.stack([r[0] for r in rows])  # (configs, scopes)
    table_alt = np.stack([r[1] for r in rows])
    held, held_alt, chosen = leave_one_out(table, table_alt)
    most = np.flatnonzero(chosen == chosen.max())
    shipped, shipped_alt = recalls(PRODUCT_DEFAULT)
    print(f"scopes: {len(prepared)}  grid points: {len(configs)}")
    print(f"leave-one-out top-3 recall (ideal):     {held.mean():.3f}")
    print(f"leave-one-out top-3 recall (ideal_alt): {held_alt.mean():.3f}")
    print("held-out recall per scope:              " + " ".join(f"{x:.2f}" for x in held))
    print(f"chosen most often ({chosen.max()} of {len(prepared)} folds; {len(most)} tied):")
    for k in most:
        print(
            f"  {describe(configs[k])}: in-sample {table[k].mean():.3f} (ideal), "
            f"{table_alt[k].mean():.3f} (ideal_alt)"
        )
    print(f"shipped default, all scopes (ideal):     {shipped.mean():.3f}")
    print(f"shipped default, all scopes (ideal_alt): {shipped_alt.mean():.3f}")
    print(f"best grid point in-sample:               {table.mean(axis=1).max():.3f}")
    print(f"elapsed: {time.perf_counter() - started:.0f} s")
    library.close()


if __name__ == "__main__":
    main()
