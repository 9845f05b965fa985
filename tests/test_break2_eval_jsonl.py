"""Break-it round 2: odd JSON in the labelled eval files (eval/jsonl.py and its loaders)."""

from __future__ import annotations

import pytest

from rfp_retrieval.eval.answers import QrelsError, load_qrels
from rfp_retrieval.eval.jsonl import read_objects
from rfp_retrieval.eval.past_performance import GoldenSetError, load_golden


def _write(tmp_path, text: str, name: str = "labels.jsonl"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    (tmp_path / "rfp.md").write_text("# RFP\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\u0085"])
def test_a_line_break_character_inside_a_json_string_stays_in_the_string(tmp_path, sep):
    # json.dumps(..., ensure_ascii=False) writes these unescaped: the line is valid JSONL
    path = _write(tmp_path, '\ufeff{"q": "a' + sep + 'b"}\r\n\r\n{"q": "c"}\r\n')
    assert read_objects(path, ValueError, "x") == [(1, {"q": "a" + sep + "b"}), (3, {"q": "c"})]


QREL = '{{"doc": {doc}, "question": {question}, "type": {type}, "relevant": {relevant}{extra}}}\n'


def _qrel(**over):
    fields = {"doc": '"rfp.md"', "question": '"Describe X."', "type": '"narrative"'}
    fields |= {"relevant": '{"b1": 2}', "extra": ""} | over
    return QREL.format(**fields)


@pytest.mark.parametrize(
    ("over", "named"),
    [
        ({"doc": "null"}, "'doc' must be non-empty text, got None"),
        ({"doc": "5"}, "'doc' must be non-empty text, got 5"),
        ({"question": "null"}, "'question' must be non-empty text, got None"),
        ({"question": '"  "'}, "'question' must be non-empty text, got '  '"),
        ({"type": "null"}, "'type' must be non-empty text, got None"),
        ({"relevant": '{"b1": true}'}, "grades must be 1 or 2, got {'b1': True}"),
        ({"relevant": '{"b1": NaN}'}, "grades must be 1 or 2, got {'b1': nan}"),
        ({"relevant": '{"b1": 1e400}'}, "grades must be 1 or 2, got {'b1': inf}"),
        ({"extra": ', "section_path": "A > B"'}, "'section_path' must be a list of headings"),
        ({"extra": ', "section_path": [null]'}, "'section_path' must be a list of headings"),
    ],
)
def test_a_qrels_line_with_null_or_odd_values_is_refused_naming_the_line(tmp_path, over, named):
    path = _write(tmp_path, _qrel() + _qrel(**over))
    with pytest.raises(QrelsError) as err:
        load_qrels(path)
    assert str(err.value).startswith(f"{path}:2: ")
    assert named in str(err.value)


def test_a_qrels_grade_written_as_2_0_still_reads_as_grade_2(tmp_path):
    path = _write(tmp_path, _qrel(relevant='{"b1": 2.0, "b2": 1}', extra=', "section_path": []'))
    (row,) = load_qrels(path)
    assert row.relevant == {"b1": 2, "b2": 1}
    assert row.section_path == []


GOLD = '{{"scope_id": {sid}, "rfp_file": "rfp.md", "as_of": "2026-06-08", "ideal": ["PP-001"]}}\n'


@pytest.mark.parametrize("sid", ["null", "NaN", "true", '""', "[1]"])
def test_a_golden_scope_id_that_is_not_text_is_refused(tmp_path, sid):
    path = _write(tmp_path, GOLD.format(sid='"S01"') + GOLD.format(sid=sid))
    with pytest.raises(GoldenSetError) as err:
        load_golden(path)
    assert str(err.value).startswith(f"{path}:2: bad golden-set line (scope_id must be text")


def test_a_numeric_golden_scope_id_reads_as_its_digits(tmp_path):
    path = _write(tmp_path, GOLD.format(sid="12345678901234567890123"))
    (scope,) = load_golden(path)
    assert scope.scope_id == "12345678901234567890123"
    assert scope.ideal == ["PP-001"]
