"""Pass 1's arrays at scale (issue 17): the lazy candidate ids and the column-major masks."""

from __future__ import annotations

import numpy as np
import pytest

from rfp_retrieval.retrieval.prepared import RankIds, take_rows


def test_rank_ids_read_the_ids_at_their_ranks_like_a_list():
    ids = np.asarray(["PP-001", "PP-002", "PP-003", "PP-004", "PP-005"], dtype=object)
    picked = RankIds(ids, np.asarray([0, 2, 4], dtype=np.int64))
    assert len(picked) == 3
    assert picked[1] == "PP-003" and picked[-1] == "PP-005"
    assert picked[1:] == ["PP-003", "PP-005"]
    assert list(picked) == ["PP-001", "PP-003", "PP-005"]
    assert picked == ["PP-001", "PP-003", "PP-005"] and ["PP-001", "PP-003", "PP-005"] == picked
    assert picked == ("PP-001", "PP-003", "PP-005")
    assert picked != ["PP-001", "PP-003"] and picked != ["PP-001", "PP-002", "PP-005"]
    assert "PP-003" in picked and "PP-002" not in picked
    assert RankIds(ids, np.zeros(0, dtype=np.int64)) == []
    with pytest.raises(IndexError):
        picked[3]
    with pytest.raises(TypeError):
        hash(picked)


def test_take_rows_of_a_column_major_matrix_equals_row_indexing():
    rng = np.random.default_rng(3)
    matrix = np.asfortranarray(rng.random((1000, 5)) < 0.4)
    rows = np.sort(rng.choice(1000, 317, replace=False))
    taken = take_rows(matrix, rows)
    assert taken.flags.c_contiguous and taken.shape == (317, 5)
    assert np.array_equal(taken, matrix[rows])
    assert take_rows(np.zeros((4, 0), dtype=bool, order="F"), rows[:2]).shape == (2, 0)
