"""The references ranked for an RFP are as many as its Section L asks for (new-user trial:
"provide two (2) references" and "up to five" still gave three); three when it states none.
Evaluation keeps scoring the top three (``eval.past_performance``)."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import numpy as np
import polars as pl
import pytest

from assets.retrieval import _references_one
from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.retrieval.config import DEFAULT_TOP_K, RankingConfig, references_to_offer
from rfp_retrieval.retrieval.records import EntryVectors
from rfp_retrieval.retrieval.scope_query import build_scope_query
from rfp_retrieval.scope.as_of import AsOf
from tests.small_project import StubEncoder

IDS = [f"PP-{k:02d}" for k in range(1, 8)]


def _library() -> tuple[pl.DataFrame, EntryVectors]:
    n = len(IDS)
    frame = pl.DataFrame(
        {
            "id": IDS,
            "title": IDS,
            "customer_type": ["state"] * n,
            "industry": [None] * n,
            "vehicle_type": ["standalone"] * n,
            "value_min": [3_000_000] * n,
            "value_max": [3_000_000] * n,
            "start_date": [dt.date(2021, 1, 1)] * n,
            "end_date": [None] * n,
            "ongoing": [True] * n,
            "role": ["prime"] * n,
            "customer_named": ["DHS"] * n,
            "customer_acronym": [None] * n,
        },
        schema_overrides={"industry": pl.String, "customer_acronym": pl.String},
    )
    sims = np.linspace(0.9, 0.3, n)
    matrix = np.stack([sims, np.sqrt(1 - sims**2)], axis=1).astype(np.float32)
    facets = ("narrative", "technical", "outcome", "whole")
    return frame, EntryVectors(ids=IDS, matrices={f: matrix for f in facets})


def _rfp(tmp_path, sentence: str):
    path = tmp_path / "rfq.md"
    path.write_text(
        "# Request for Quotations: Eligibility System Support\n\n"
        "## C.1 Scope of Work\n\nThe contractor shall operate the eligibility system.\n\n"
        "## L.3 Past Performance\n\n" + sentence + "\n",
        encoding="utf-8",
    )
    return load_document(path)


@pytest.mark.parametrize(
    ("sentence", "count", "most"),
    [
        ("Offerors shall provide two (2) past performance references.", 2, None),
        ("Offerors may submit up to five (5) past performance references.", 5, 5),
        ("Offerors shall submit four to six past performance references.", 4, 6),
        ("Describe your relevant experience on similar contracts.", DEFAULT_TOP_K, None),
    ],
)
def test_pp_references_ranks_the_count_the_rfp_asks_for(tmp_path, sentence, count, most):
    built = build_scope_query(
        _rfp(tmp_path, sentence), StubEncoder(), AsOf(dt.date(2026, 6, 1), "t")
    )
    assert built.reading.references_required == (None if count == DEFAULT_TOP_K else count)
    # the stored scope_query row keeps the ceiling the RFP accepts (structural defect 4)
    assert (built.row["references_required"], built.row["references_max"]) == (
        None if count == DEFAULT_TOP_K else count,
        most,
    )
    entries, vectors = _library()
    paths = SimpleNamespace(ranking_mode="default", overrides_dir=str(tmp_path / "overrides"))
    frame, meta = _references_one("rfq", built.frame, entries, None, vectors, paths)
    ranked = frame.filter(pl.col("rank").is_not_null()).sort("rank")
    assert ranked["id"].to_list() == IDS[:count]
    assert meta["ranking_config"] == RankingConfig(mode="default", top_k=count).fingerprint()
    # the preview is named for what it holds: as many rows as references offered, not "top3"
    preview = meta["references"].value.splitlines()
    assert "top3" not in meta
    assert [line.split("|")[1].strip() for line in preview[2:]] == [
        str(k) for k in range(1, count + 1)
    ]


def test_the_count_rule():
    assert references_to_offer(None) == 3 == DEFAULT_TOP_K
    assert references_to_offer(2) == 2
    assert references_to_offer(0) == 3
    assert RankingConfig().top_k == DEFAULT_TOP_K
