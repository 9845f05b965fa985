"""A write-up's contract value written as quoted text ("$21,600,000") is read as US dollars;
one that is no amount is that write-up's rejected row, never a crash of the library job
(break-it: a quoted amount raised AttributeError and stopped every RFP)."""

from __future__ import annotations

from rfp_retrieval.library.ingest import load_library
from tests.conftest import SHARED_DATA

WRITEUP = SHARED_DATA / "library" / "writeups" / "PP-151.md"


def _library(tmp_path, value_min: str):
    text = WRITEUP.read_text(encoding="utf-8")
    assert "value_min: 21600000\n" in text
    (tmp_path / "PP-151.md").write_text(
        text.replace("value_min: 21600000\n", f"value_min: {value_min}\n"), encoding="utf-8"
    )
    return load_library(tmp_path)


def test_a_quoted_dollar_amount_in_front_matter_is_read(tmp_path, shared_data):
    load = _library(tmp_path, '"$21,600,000"')
    (entry,) = load.entries
    assert (entry.id, entry.contract.value.min, entry.contract.value.max) == (
        "PP-151",
        21_600_000,
        34_000_000,
    )
    assert not load.rejected


def test_a_text_that_is_no_amount_rejects_the_write_up_with_its_reason(tmp_path, shared_data):
    load = _library(tmp_path, '"TBD"')
    assert not load.entries
    (row,) = load.rejected
    assert row.file == "PP-151.md"
    assert "value_min" in row.reason
