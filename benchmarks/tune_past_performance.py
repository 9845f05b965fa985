"""Learn the default ranking's weights from a golden set, with a nested leave-one-out estimate.

The ``default`` score is linear in its components (cosines, domain share, bumps, penalties;
see ``RankingConfig``), so its weights are the coefficients of a linear model. This script
reads every dev scope's candidates (the entries through the hard filters, ranked with all
their components), fits an L2-regularised logistic regression that tells the labelled
``ideal`` references from the other candidates, and turns the coefficients into
``RankingConfig`` values (divided by the sum of the three cosine coefficients, so the
similarity weights sum to 1 as before).

Honest figure: nested leave-one-out. For each held-out scope, the regularisation strength C is
chosen by leave-one-out on the other scopes, the model is fitted on them, and the held-out
scope's top 3 is scored against ``ideal`` and ``ideal_alt``. The mean over held-out scopes
estimates the whole procedure (C selection included) on unseen scopes. The script then fits
on every scope with the C that the plain leave-one-out prefers (ties: the smaller C, the
stronger regularisation), prints the config values, and ranks the golden set with them and
with the shipped ``PRODUCT_DEFAULT`` through ``rank_references`` (in-sample figures).

    .venv/bin/pip install -e '.[tune]'
    .venv/bin/python benchmarks/tune_past_performance.py \
        --golden ../shared/data/pp_golden_dev/golden.jsonl --library ../shared/data/library

``--part tuning`` fits (and runs the nested leave-one-out) on the tuning part of the split
of ``benchmarks/pp_split.py`` only, then ranks the validation part once with the learned
values (the held-out figure; issue 18). ``--cache`` reuses ``pp_split.py``'s pickle.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from pp_split import load, split_of
from sklearn.linear_model import LogisticRegression

from rfp_retrieval.eval.past_performance import (
    PreparedScope,
    recall_at_k,
)
from rfp_retrieval.retrieval.config import PRODUCT_DEFAULT, RankingConfig
from rfp_retrieval.retrieval.past_performance import rank_references
from rfp_retrieval.retrieval.prepared import PreparedLibrary

# component name -> (config field, sign): the field's value is sign x coefficient / S, where
# S is the sum of the three cosine coefficients.
COMPONENTS: dict[str, tuple[str, float]] = {
    "whole": ("default_weight_whole", 1.0),
    "outcome": ("default_weight_outcome", 1.0),
    "section_max": ("default_weight_section", 1.0),
    "domain_match": ("domain_weight", 1.0),
    "lexical_match": ("lexical_weight", 1.0),
    "recency_bump": ("default_recent_bump", 1.0),
    "age_penalty": ("default_old_penalty", -1.0),
    "agency_bump": ("default_agency_bump", 1.0),
    "sector_bump": ("default_sector_bump", 1.0),
    "vague_penalty": ("vague_penalty", -1.0),
    "value_penalty": ("penalty_value", 1.0),
    "role_penalty": ("penalty_role", 1.0),
    "industry_penalty": ("penalty_industry", 1.0),
}
COSINES = ("whole", "outcome", "section_max")
C_GRID = (1.0, 3.0, 10.0, 30.0, 100.0)
"""Inverse L2 strengths tried (smaller = stronger regularisation)."""

# Every component at unit scale: a bump is 1 when it applies, a penalty -1, the domain
# component the RFP-weighted share of the entry's tags, the lexical one the BM25 match in [0, 1].
UNIT = replace(
    PRODUCT_DEFAULT,
    domain_weight=1.0,
    lexical_weight=1.0,
    default_recent_bump=1.0,
    default_old_penalty=-1.0,
    default_agency_bump=1.0,
    default_sector_bump=1.0,
    vague_penalty=-1.0,
    penalty_value=1.0,
    penalty_role=1.0,
    penalty_industry=1.0,
    issuer_bump_cap=None,
)


@dataclass
class ScopeCandidates:
    """One scope's candidates: ids (n,), component matrix (n, len(COMPONENTS)), labels."""

    scope_id: str
    ids: list[str]
    features: np.ndarray
    ideal: list[str]
    ideal_alt: list[str]

    @property
    def labels(self) -> np.ndarray:
        return np.asarray([pp_id in self.ideal for pp_id in self.ids], dtype=np.int64)


def candidates_of(
    prepared: list[PreparedScope], entries, vectors, library: PreparedLibrary
) -> list[ScopeCandidates]:
    """Every scope's candidates with their unit-scale components (see ``UNIT``)."""
    out = []
    for p in prepared:
        result = rank_references(entries, vectors, p.query, UNIT, prepared=library, depth=10**9)
        rows = [[r.components.get(name, 0.0) for name in COMPONENTS] for r in result.references]
        out.append(
            ScopeCandidates(
                p.golden.scope_id,
                [r.id for r in result.references],
                np.asarray(rows, dtype=np.float64).reshape(-1, len(COMPONENTS)),
                p.golden.ideal,
                p.golden.ideal_alt or p.golden.ideal,
            )
        )
    return out


def fit(scopes: list[ScopeCandidates], c: float) -> np.ndarray:
    """Coefficients (len(COMPONENTS),) of a logistic regression, ideal vs other candidates."""
    x = np.concatenate([s.features for s in scopes])
    y = np.concatenate([s.labels for s in scopes])
    return LogisticRegression(C=c, max_iter=5000).fit(x, y).coef_[0]


def top3(coef: np.ndarray, scope: ScopeCandidates) -> list[str]:
    """The three best candidates under ``coef`` (ties by id, as ``rank_references``)."""
    score = scope.features @ coef
    order = sorted(range(len(scope.ids)), key=lambda i: (-round(score[i], 9), scope.ids[i]))
    return [scope.ids[i] for i in order[:3]]


def loo_recall(scopes: list[ScopeCandidates], c: float) -> float:
    """Plain leave-one-out top-3 recall (vs ideal) of a fixed C."""
    return float(
        np.mean(
            [
                recall_at_k(top3(fit(scopes[:j] + scopes[j + 1 :], c), s), s.ideal)
                for j, s in enumerate(scopes)
            ]
        )
    )


def pick_c(scopes: list[ScopeCandidates]) -> tuple[float, dict[float, float]]:
    """The C with the best plain leave-one-out recall on ``scopes`` (ties: the smallest)."""
    scores = {c: loo_recall(scopes, c) for c in C_GRID}
    best = max(scores.values())
    return min(c for c, v in scores.items() if np.isclose(v, best)), scores


def nested_loo(scopes: list[ScopeCandidates]) -> tuple[np.ndarray, np.ndarray, list[float]]:
    """Held-out recall per scope (vs ideal, vs ideal_alt) and the C each outer fold chose."""
    held, held_alt, chosen = [], [], []
    for j, scope in enumerate(scopes):
        train = scopes[:j] + scopes[j + 1 :]
        c, _ = pick_c(train)
        top = top3(fit(train, c), scope)
        held.append(recall_at_k(top, scope.ideal))
        held_alt.append(recall_at_k(top, scope.ideal_alt))
        chosen.append(c)
    return np.asarray(held), np.asarray(held_alt), chosen


def config_values(coef: np.ndarray, digits: int = 2) -> dict[str, float]:
    """``RankingConfig`` field values of a coefficient vector, rounded to ``digits``.

    Divided by the sum of the three cosine coefficients; a coefficient with the wrong sign (a
    penalty that would reward) is set to 0 and reported by the caller.
    """
    names = list(COMPONENTS)
    scale = sum(coef[names.index(c)] for c in COSINES)
    values = {}
    for name, (field_name, sign) in COMPONENTS.items():
        raw = max(coef[names.index(name)], 0.0) / scale
        values[field_name] = round(sign * raw, digits) + 0.0
    return values


def in_sample(prepared, entries, vectors, library, config: RankingConfig) -> tuple[float, float]:
    """Top-3 recall of ``config`` on every scope through ``rank_references`` (ideal, alt)."""
    ideal, alt = [], []
    for p in prepared:
        result = rank_references(entries, vectors, p.query, config, prepared=library)
        top = [r.id for r in result.references]
        ideal.append(recall_at_k(top, p.golden.ideal))
        alt.append(recall_at_k(top, p.golden.ideal_alt or p.golden.ideal))
    return float(np.mean(ideal)), float(np.mean(alt))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--golden", type=Path, required=True)
    parser.add_argument("--library", type=Path, required=True)
    parser.add_argument(
        "--model",
        default=None,
        help="embedding model name or local folder (default: the bundled all-MiniLM-L6-v2)",
    )
    parser.add_argument("--part", choices=("all", "tuning"), default="all")
    parser.add_argument("--cache", type=Path, default=None)
    args = parser.parse_args()

    started = time.perf_counter()
    entries, vectors, everything = load(args)
    prepared = [
        p for p in everything if args.part == "all" or split_of(p.golden.scope_id) == args.part
    ]
    held_out = [p for p in everything if p not in prepared]
    library = PreparedLibrary(entries, vectors)
    scopes = candidates_of(prepared, entries, vectors, library)

    held, held_alt, chosen = nested_loo(scopes)
    print(f"scopes: {len(scopes)}  candidates: {sum(len(s.ids) for s in scopes)}")
    print(f"nested leave-one-out top-3 recall (ideal):     {held.mean():.3f}")
    print(f"nested leave-one-out top-3 recall (ideal_alt): {held_alt.mean():.3f}")
    print(
        "held-out recall per scope: "
        + " ".join(f"{s.scope_id} {x:.2f}" for s, x in zip(scopes, held, strict=True))
    )
    print("C chosen per fold: " + " ".join(f"{c:g}" for c in chosen))

    c, scores = pick_c(scopes)
    print("plain leave-one-out by C: " + ", ".join(f"C={k:g} {v:.3f}" for k, v in scores.items()))
    coef = fit(scopes, c)
    wrong = [n for n, b in zip(COMPONENTS, coef, strict=True) if b < 0]
    values = config_values(coef)
    print(f"fitted on all scopes with C={c:g}; as RankingConfig values:")
    for name, value in values.items():
        print(f"    {name} = {value}")
    if wrong:
        print(f"  (set to 0, learned with the wrong sign: {', '.join(wrong)})")
    learned = replace(PRODUCT_DEFAULT, **values)
    ideal, alt = in_sample(prepared, entries, vectors, library, learned)
    print(f"learned config, all scopes (in-sample):  {ideal:.3f} ideal, {alt:.3f} ideal_alt")
    ideal, alt = in_sample(prepared, entries, vectors, library, PRODUCT_DEFAULT)
    print(f"shipped default, all scopes (in-sample): {ideal:.3f} ideal, {alt:.3f} ideal_alt")
    differs = {
        k: (getattr(PRODUCT_DEFAULT, k), v)
        for k, v in values.items()
        if not np.isclose(getattr(PRODUCT_DEFAULT, k), v)
    }
    if differs:
        print(
            "shipped default differs from the learned values: "
            + ", ".join(f"{k} {old} -> {new}" for k, (old, new) in differs.items())
        )
    if held_out:
        for name, config in (("learned", learned), ("shipped", PRODUCT_DEFAULT)):
            ideal, alt = in_sample(held_out, entries, vectors, library, config)
            print(f"{name} config, {len(held_out)} held-out scopes: {ideal:.3f} / {alt:.3f}")
    print(f"elapsed: {time.perf_counter() - started:.0f} s")
    library.close()


if __name__ == "__main__":
    main()
