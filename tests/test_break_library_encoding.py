"""A library spreadsheet saved as UTF-16 (Excel "Unicode Text", some CSV exports) is read."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from rfp_retrieval.library.ingest import load_library

SAMPLE = Path(__file__).resolve().parents[1] / "sample" / "library" / "past_performance_matrix.csv"


def _rows(count: int) -> list[list[str]]:
    with SAMPLE.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))[: count + 1]


def _csv_text(rows: list[list[str]], delimiter: str = ",") -> str:
    import io

    out = io.StringIO()
    csv.writer(out, delimiter=delimiter).writerows(rows)
    return out.getvalue()


@pytest.mark.parametrize(
    ("encoding", "delimiter"),
    [("utf-16", ","), ("utf-16", "\t"), ("utf-16-le", ","), ("utf-16-be", ","), ("utf-8-sig", ",")],
)
def test_utf16_library_csv_loads_every_row(tmp_path, encoding, delimiter):
    rows = _rows(5)
    (tmp_path / "lib.csv").write_bytes(_csv_text(rows, delimiter).encode(encoding))
    loaded = load_library(tmp_path)
    assert [r.reason for r in loaded.rejected] == []
    assert [e.id for e in loaded.entries] == [r[0] for r in rows[1:]]
    assert loaded.entries[0].title == rows[1][1]
