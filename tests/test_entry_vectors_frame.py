"""``EntryVectors.from_frame``: the stored ``pp_facet_embeddings`` rows into float32 matrices
without a Python float per value (issue 17, a million entries on one worker)."""

import numpy as np
import polars as pl
import pytest

from rfp_retrieval.retrieval import records
from rfp_retrieval.retrieval.records import EntryVectors


def _frame(dtype: pl.DataType) -> pl.DataFrame:
    """Rows out of id order, PP-3 without an outcome vector, values that float32 rounds."""
    rows = [
        ("PP-3", "whole", [0.1, 0.2, 0.3]),
        ("PP-1", "outcome", [1.0, 2.0, 3.0]),
        ("PP-10", "whole", [1 / 3, 2 / 3, 1e-40]),
        ("PP-1", "whole", [-1.5, 0.0, 0.25]),
        ("PP-10", "outcome", [7.0, 8.0, 9.0]),
    ]
    return pl.DataFrame(
        {
            "id": [r[0] for r in rows],
            "facet": [r[1] for r in rows],
            "model": ["m"] * len(rows),
            "vector": pl.Series([r[2] for r in rows], dtype=pl.List(dtype)),
        }
    )


@pytest.mark.parametrize("dtype", [pl.Float64(), pl.Float32()])
def test_matrices_hold_each_row_at_its_id_zeros_where_the_facet_is_missing(monkeypatch, dtype):
    monkeypatch.setattr(records, "_FROM_FRAME_ROWS", 2)  # several blocks per facet
    vectors = EntryVectors.from_frame(_frame(dtype))
    assert vectors.ids == ["PP-1", "PP-10", "PP-3"]
    assert vectors.models == ("m",)
    assert sorted(vectors.matrices) == ["outcome", "whole"]
    whole = np.array([[-1.5, 0.0, 0.25], [1 / 3, 2 / 3, 1e-40], [0.1, 0.2, 0.3]], np.float32)
    outcome = np.array([[1, 2, 3], [7, 8, 9], [0, 0, 0]], np.float32)
    assert vectors.matrices["whole"].dtype == np.float32
    np.testing.assert_array_equal(vectors.matrices["whole"], whole)
    np.testing.assert_array_equal(vectors.matrices["outcome"], outcome)


def test_vectors_of_different_lengths_are_refused_naming_the_facet():
    frame = pl.DataFrame(
        {"id": ["PP-1", "PP-2"], "facet": ["whole", "whole"], "vector": [[1.0, 0.0], [1.0]]}
    )
    with pytest.raises(ValueError, match="'whole' vectors are null or of different lengths"):
        EntryVectors.from_frame(frame)
