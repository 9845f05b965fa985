"""Issue 16.9: a ranking never compares vectors of two embedding models.

The library was re-embedded with "model-a" while one RFP's scope_query re-embedding failed and
its stored row still holds "model-b" vectors of the same dimension (2 here): the cosines would
be computed silently. Vectors are hand-made (no model involved); the frames have the stored
tables' columns (``pp_facet_embeddings``: id, facet, model, vector; ``scope_query``: model,
rfp_partition, vec_*).
"""

import datetime as dt

import numpy as np
import polars as pl
import pytest

from rfp_retrieval.retrieval.config import RankingConfig
from rfp_retrieval.retrieval.past_performance import rank_references
from rfp_retrieval.retrieval.records import EntryVectors, MixedModelsError, ScopeFilters
from rfp_retrieval.retrieval.scope_query import QUERY_FACETS, scope_query_from_row
from tests.test_ranking import SIMS, _entries

FACETS = ("narrative", "technical", "outcome", "whole")


def _embeddings(models: dict[str, str]) -> pl.DataFrame:
    """A ``pp_facet_embeddings`` frame: entry ``id`` embedded by ``models[id]`` (dim 2)."""
    rows = [
        {"id": pp_id, "facet": f, "model": models[pp_id], "vector": [s, float(np.sqrt(1 - s * s))]}
        for pp_id, s in SIMS.items()
        for f in FACETS
    ]
    return pl.DataFrame(rows)


def _scope_row(model: str) -> dict:
    """A stored ``scope_query`` row of partition ``rfp-7-md`` whose vectors ``model`` made."""
    row = {f"vec_{f}": [1.0, 0.0] for f in QUERY_FACETS}
    return {
        **row,
        "rfp_partition": "rfp-7-md",
        "model": model,
        "as_of": dt.date(2026, 6, 8),
        "customer_types": ["federal-civilian"],
        "value_min": 10_000_000,
        "value_max": 30_000_000,
        "ended_after": dt.date(2021, 6, 8),
    }


def test_library_and_scope_query_of_two_equal_dimension_models_are_refused():
    vectors = EntryVectors.from_frame(_embeddings(dict.fromkeys(SIMS, "model-a")))
    query = scope_query_from_row(_scope_row("model-b"))
    assert (vectors.models, query.model, query.rfp_partition) == (
        ("model-a",),
        "model-b",
        "rfp-7-md",
    )
    with pytest.raises(MixedModelsError) as refused:
        rank_references(_entries(), vectors, query, RankingConfig(mode="facet"))
    assert str(refused.value) == (
        "partition 'rfp-7-md': the library vectors (pp_facet_embeddings) were made with model "
        "'model-a' but this RFP's scope_query vectors with model 'model-b'; a ranking never "
        "compares two models' vectors. Re-materialize scope_query for partition 'rfp-7-md' "
        "(with the model the library uses), or re-run the library job if the library is the "
        "one left on the old model."
    )


def test_a_library_whose_rows_mix_two_models_is_refused():
    models = {**dict.fromkeys(SIMS, "model-a"), "PP-3": "model-b"}
    vectors = EntryVectors.from_frame(_embeddings(models))
    query = scope_query_from_row(_scope_row("model-a"))
    with pytest.raises(MixedModelsError, match=r"mix the models model-a, model-b; re-run the"):
        rank_references(_entries(), vectors, query, RankingConfig(mode="facet"))


def test_one_model_everywhere_ranks_as_vectors_without_recorded_models():
    vectors = EntryVectors.from_frame(_embeddings(dict.fromkeys(SIMS, "model-a")))
    query = scope_query_from_row(_scope_row("model-a"))
    assert query.filters == ScopeFilters(
        customer_types=("federal-civilian",),
        value_min=10_000_000,
        value_max=30_000_000,
        ended_after=dt.date(2021, 6, 8),
    )
    config = RankingConfig(mode="facet")
    result = rank_references(_entries(), vectors, query, config)
    unrecorded = rank_references(
        _entries(),
        EntryVectors(ids=vectors.ids, matrices=vectors.matrices),
        scope_query_from_row({**_scope_row("model-a"), "model": None}),
        config,
    )
    # PP-4 has the best cosine but came in only by widening the value band: the compliant
    # entries come first (issue 18, defect 3; as tests/test_ranking.py's facet test)
    assert [r.id for r in result.references] == ["PP-2", "PP-1", "PP-4"]
    assert [(r.id, r.score) for r in result.references] == [
        (r.id, r.score) for r in unrecorded.references
    ]
