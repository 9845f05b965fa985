"""The bad-input corpus of issue 16, end to end through ``rfp-retrieval run`` and ``library``.

One small project holds what a real library and inbox bring: two inbox names with one
partition key (16.2), a library spreadsheet with a merged two-row header (16.3), periods
written as ISO ranges with and without times (16.4), European money (16.5), a paged
plain-text RFP (16.6) and an empty PDF. Each bad file fails alone with a message naming it;
every good RFP still gets its three references. The empty library (16.1) runs through
``run`` in tests/test_break_empty_library.py.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil

import pytest
from typer.testing import CliRunner

from rfp_retrieval.cli import app
from tests.small_project import MIAMI_RFP, project_config, small_answers, small_library
from tests.test_break_library_headers import _two_row_workbook
from tests.test_break_paged_text import _paged_rfp
from tests.test_library_ingest import HEADER, _row

pytestmark = pytest.mark.slow


def _project(tmp_path):
    library = small_library(tmp_path / "library", rows=24)
    with (library / "past_performance_matrix.csv").open("a", encoding="utf-8") as handle:
        for pp, period, value in [
            ("PP-901", "2019-01-01-2021-06-30", "$1.234.567"),
            ("PP-902", "2019-01-01 00:00:00-2021-06-30 00:00:00", "$12,5M"),
        ]:
            cells = _row(PP=pp, Period_of_Performance=period, Contract_Value=value)
            handle.write(",".join(json.dumps(cells[name]) for name in HEADER) + "\n")
    _two_row_workbook(
        library / "recent_awards.xlsx",
        [
            (_row(PP="PP-903"), dt.datetime(2022, 10, 1), "Present"),
            (_row(PP="PP-904"), "03/2018", dt.datetime(2021, 6, 30)),
        ],
    )
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    first, second = inbox / "RFP 1.md", inbox / "rfp_1.md"
    shutil.copy(MIAMI_RFP, first)
    shutil.copy(MIAMI_RFP, second)
    os.utime(first, ns=(1_000_000_000, 1_000_000_000))  # in the inbox first: keeps the key
    shutil.move(_paged_rfp(tmp_path), inbox / "acme-rfp-2026-01.txt")
    (inbox / "empty.pdf").write_bytes(b"")
    small_answers(tmp_path / "answers", topics=("api",))
    config = project_config(tmp_path)
    return config


def test_each_bad_input_fails_alone_and_every_good_rfp_gets_three_references(tmp_path, monkeypatch):
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    monkeypatch.delenv("RFP_RETRIEVAL_CONFIG", raising=False)
    config = _project(tmp_path)
    runner = CliRunner()

    library = json.loads(runner.invoke(app, ["library", "--config", str(config), "--json"]).stdout)
    by_id = {e["id"]: e["contract"] for e in library["entries"]}
    assert library["rejected"] == []
    assert len(by_id) == 28
    assert (by_id["PP-901"]["start_date"], by_id["PP-901"]["end_date"]) == (
        "2019-01-01",
        "2021-06-30",
    )
    assert by_id["PP-901"]["value"] == {"min": 1_234_567, "max": 1_234_567}
    assert (by_id["PP-902"]["end_date"], by_id["PP-902"]["value"]["max"]) == (
        "2021-06-30",
        12_500_000,
    )
    assert [(by_id[i]["start_date"], by_id[i]["end_date"]) for i in ("PP-903", "PP-904")] == [
        ("2022-10-01", "ongoing"),
        ("2018-03-01", "2021-06-30"),
    ]

    result = runner.invoke(app, ["run", "--config", str(config), "--json"])
    assert result.exit_code == 1, result.output  # empty.pdf failed; the others ran
    payload = json.loads(result.stdout)
    items = {os.path.basename(item["file"]): item for item in payload["rfps"]}
    assert sorted(items) == ["RFP 1.md", "acme-rfp-2026-01.txt", "empty.pdf"]
    for name in ("RFP 1.md", "acme-rfp-2026-01.txt"):
        assert items[name]["status"] == "ok", items[name]["error"]
        assert len(items[name]["references"]) == 3
    assert items["empty.pdf"]["status"] == "failed"
    assert str(tmp_path / "inbox" / "empty.pdf") in items["empty.pdf"]["error"]
    assert [(os.path.basename(s["file"]), s["reason"]) for s in payload["skipped"]] == [
        (
            "rfp_1.md",
            "its partition key 'rfp-1-md' is already taken by RFP 1.md (the names differ only "
            "in case, spaces or punctuation); rename one of the two files",
        )
    ]
