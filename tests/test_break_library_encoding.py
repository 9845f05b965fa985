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


def test_a_utf8_csv_with_one_windows_1252_byte_reads_as_utf8_and_marks_the_row(tmp_path):
    """Break-it: one stray Windows-1252 byte (a smart quote pasted from Word) in a UTF-8 CSV
    made the whole file read as Windows-1252: "Café Résumé — Program" became mojibake, with
    no word (cells.MIXED_ENCODING_RULE)."""
    import csv
    import io

    from rfp_retrieval.library.cells import read_text_file
    from rfp_retrieval.library.ingest import load_library
    from tests.small_project import small_library

    library = small_library(tmp_path / "library", rows=2)
    matrix = library / "past_performance_matrix.csv"
    with matrix.open(newline="", encoding="utf-8") as f:
        records = list(csv.reader(f))
    at = records[0].index("Contract Name")
    records[1][at] = "Café Résumé — Program"
    records[2][at] = "Smart quote STRAY s here"
    text = io.StringIO()
    csv.writer(text).writerows(records)
    # cp1252's right quote, as a pasted Word sentence brings it
    matrix.write_bytes(text.getvalue().encode("utf-8").replace(b"STRAY ", b"\x92"))
    loaded = load_library(library)
    titles = {e.title: [d for d in e.defects if d.startswith("stray")] for e in loaded.entries}
    assert titles == {
        "Café Résumé — Program": [],
        "Smart quote \u2019s here": ["stray-byte:Contract Name"],
    }
    assert "Café Résumé" in read_text_file(matrix)  # the same rule for whole-file reads
    assert "\ue000" not in read_text_file(matrix)
