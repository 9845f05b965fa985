"""``eval past-performance`` reuses the library's facet vectors while the library and the
model are unchanged (issue 15: every call re-embedded the library, minutes)."""

from __future__ import annotations

import numpy as np
import polars as pl

from rfp_retrieval.eval.past_performance import embed_library, embed_library_counts
from rfp_retrieval.library.frames import entries_frame
from rfp_retrieval.library.ingest import load_library
from tests.conftest import REPO


class _CountingEmbedder:
    """Deterministic 4-d unit vectors; counts the texts it was asked to encode."""

    def __init__(self, model_id: str = "model-a") -> None:
        self.model_id = model_id
        self.encoded: list[str] = []

    def encode(self, texts: list[str]) -> np.ndarray:
        self.encoded += texts
        rows = [[len(t) % 7 + 1.0, len(t) % 5 + 1.0, 1.0, 2.0] for t in texts]
        out = np.asarray(rows, dtype=np.float32)
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def _entries() -> pl.DataFrame:
    frame = entries_frame(load_library(REPO / "sample" / "library").entries)
    return frame.sort("id").head(3)


def test_an_unchanged_library_is_not_embedded_again(tmp_path):
    entries, cache = _entries(), tmp_path / "var" / "eval.parquet"
    first = _CountingEmbedder()
    vectors_1, counts_1 = embed_library_counts(entries, first, cache)
    assert counts_1["reused"] == 0 and counts_1["embedded"] == len(first.encoded) > 0
    again = _CountingEmbedder()
    vectors_2, counts_2 = embed_library_counts(entries, again, cache)
    assert (again.encoded, counts_2["embedded"], counts_2["reused"]) == (
        [],
        0,
        counts_1["embedded"],
    )
    assert vectors_2.ids == vectors_1.ids
    for facet, matrix in vectors_1.matrices.items():
        np.testing.assert_array_equal(vectors_2.matrices[facet], matrix)


def test_an_edited_entry_and_another_model_are_embedded(tmp_path):
    entries, cache = _entries(), tmp_path / "eval.parquet"
    embed_library(entries, _CountingEmbedder(), cache)
    first_id = entries["id"][0]
    edited = entries.with_columns(
        pl.when(pl.col("id") == first_id)
        .then(pl.col("title") + " and a data warehouse")
        .otherwise(pl.col("title"))
        .alias("title")
    )
    after_edit = _CountingEmbedder()
    _, counts = embed_library_counts(edited, after_edit, cache)
    assert counts["embedded"] >= 1 and any("data warehouse" in t for t in after_edit.encoded)
    assert counts["reused"] > 0
    other = _CountingEmbedder("model-b")
    _, counts_b = embed_library_counts(edited, other, cache)
    assert counts_b["reused"] == 0 and counts_b["embedded"] == len(other.encoded)


def test_a_damaged_cache_file_is_rebuilt(tmp_path):
    entries, cache = _entries(), tmp_path / "eval.parquet"
    cache.write_bytes(b"not parquet")
    _, counts = embed_library_counts(entries, _CountingEmbedder(), cache)
    assert counts["reused"] == 0
    assert pl.read_parquet(cache).height == counts["embedded"]
