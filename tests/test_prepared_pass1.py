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


def test_constraint_columns_are_kept_by_their_sql_and_give_the_sql_booleans(monkeypatch):
    import datetime as dt
    import random

    from rfp_retrieval.retrieval import filters as filter_rules
    from rfp_retrieval.retrieval import prepared as prepared_module
    from rfp_retrieval.retrieval.prepared import PreparedLibrary
    from rfp_retrieval.retrieval.records import ScopeFilters
    from tests.test_ranking_fast_path import _filters, _library

    library = PreparedLibrary(_library(500))
    rng = random.Random(8)
    asked = [_filters(rng) for _ in range(8)]
    first = [library.strict_ok(f) for f in asked]
    first_unknown = [library.unknown(f, names) for f, (names, _) in zip(asked, first, strict=True)]
    computed: list[str] = []
    for constraint in filter_rules.CONSTRAINTS:  # count what is computed from here on
        for method in ("mask", "unknown_mask"):
            original = getattr(constraint, method)

            def counting(columns, filters, _original=original, _name=constraint.name):
                computed.append(_name)
                return _original(columns, filters)

            monkeypatch.setattr(constraint, method, counting)
    for filters, (names, ok), unknown in zip(asked, first, first_unknown, strict=True):
        again_names, again = library.strict_ok(filters)
        assert again_names == names and np.array_equal(again, ok)
        assert again.flags.f_contiguous and again.flags.writeable
        assert np.array_equal(library.unknown(filters, names), unknown)
        sql_names, sql_ok = library.strict_ok(filters, sql_only=True)
        assert sql_names == names and np.array_equal(sql_ok, ok), filters
    assert computed == []  # every column of the second round was a kept one
    fresh = ScopeFilters(ended_after=dt.date(2019, 3, 1), require_prime=True)
    names, ok = library.strict_ok(fresh)
    assert names == ["recency", "role"] and computed == ["recency"]  # prime role is kept
    assert np.array_equal(ok, library.strict_ok(fresh, sql_only=True)[1])
    library.forget_constraint_columns()
    monkeypatch.setattr(prepared_module, "CONSTRAINT_COLUMNS_KEPT", 1)
    library.strict_ok(fresh)
    assert computed == ["recency", "recency", "role"] and len(library._columns) == 1
    library.close()
