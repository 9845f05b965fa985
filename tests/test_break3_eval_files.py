"""Break-it pass 3, labelled eval files as people make them: UTF-16 from Windows PowerShell,
a pretty-printed JSON array instead of JSON Lines, a golden set whose ids the library does
not hold (a typo or lower case: every such id was a silent miss)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from rfp_retrieval.cli.app import app
from rfp_retrieval.cli.evaluate import golden_ids_not_in_library
from rfp_retrieval.eval.jsonl import read_objects
from rfp_retrieval.eval.past_performance import GoldenScope, GoldenSetError, load_golden
from tests.conftest import REPO


def test_a_utf16_file_with_its_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "labels.jsonl"
    path.write_bytes('{"q": "Résumé"}\r\n{"q": "b"}\r\n'.encode("utf-16"))
    assert read_objects(path, ValueError, "x") == [(1, {"q": "Résumé"}), (2, {"q": "b"})]


def test_a_pretty_printed_json_array_says_to_write_json_lines(tmp_path):
    path = tmp_path / "golden.jsonl"
    path.write_text(json.dumps([{"scope_id": "S1"}, {"scope_id": "S2"}], indent=2))
    with pytest.raises(GoldenSetError) as caught:
        load_golden(path)
    assert str(caught.value) == (
        f"{path}: the file is one JSON array of 2 item(s), not JSON Lines; write one "
        "golden-set object per line (e.g. jq -c '.[]' golden.jsonl)"
    )


def test_a_one_line_array_is_still_a_line_that_is_not_an_object(tmp_path):
    path = tmp_path / "golden.jsonl"
    path.write_text('[{"scope_id": "S1"}]\n')
    with pytest.raises(ValueError, match=r"golden.jsonl:1: a x line is a JSON object, got list"):
        read_objects(path, ValueError, "x")


def _scope(scope_id, ideal, alt=(), near=()):
    return GoldenScope(scope_id, REPO / "README.md", None, list(ideal), list(alt), list(near))


def test_golden_ids_the_library_lacks_are_named_with_a_near_spelling():
    known = {"PP-078", "PP-112", "PP-117"}
    scopes = [
        _scope("S01", ["pp-078", "PP-112"], alt=["PP-999"]),
        _scope("S03", ["PP-117"], near=["PP 112", "PP-117"]),
    ]
    assert golden_ids_not_in_library(scopes, known) == [
        "S01: pp-078 (did you mean PP-078?)",
        "S01: PP-999",
        "S03: PP 112 (did you mean PP-112?)",
    ]
    assert golden_ids_not_in_library([_scope("S04", ["PP-078"])], known) == []


def test_eval_refuses_a_golden_set_with_unknown_ids_before_embedding(tmp_path):
    row = json.loads((REPO / "sample" / "golden" / "golden.jsonl").read_text().splitlines()[0])
    (tmp_path / row["rfp_file"]).write_bytes(
        (REPO / "sample" / "golden" / row["rfp_file"]).read_bytes()
    )
    row["ideal"] = [row["ideal"][0].lower(), "PP-9999"]
    golden = tmp_path / "golden.jsonl"
    golden.write_text(json.dumps(row) + "\n", encoding="utf-8")
    library = REPO / "sample" / "library"
    result = CliRunner().invoke(
        app, ["eval", "past-performance", "--golden", str(golden), "--library", str(library)]
    )
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "the golden set names entry ids the library" in text
    lowered = row["ideal"][0]
    assert f"{row['scope_id']}: {lowered} (did you mean {lowered.upper()}?)" in text
    assert f"{row['scope_id']}: PP-9999" in text
    assert "embedding" not in text
