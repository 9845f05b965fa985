"""Malformed golden-set and answer-qrels files: each must be refused naming the file (and
line), never measured as recall 0.000 and never a traceback.

Defects found by breaking the product (notes/breakit.md). The fixes belong in
``rfp_retrieval/eval/past_performance.py`` (``load_golden``) and
``rfp_retrieval/eval/answers.py`` (``load_qrels``), so they are marked
``xfail(strict=True)`` for the lead to fix at merge.
"""

from __future__ import annotations

import json

import pytest

from rfp_retrieval.eval.answers import QrelsError, load_qrels
from rfp_retrieval.eval.past_performance import GoldenSetError, load_golden


def _scope(tmp_path, **changes) -> dict:
    rfp = tmp_path / "S01.md"
    rfp.write_text("# Statement of Work\n\nModernize the 311 call center.\n", encoding="utf-8")
    line = {
        "scope_id": "S01",
        "rfp_file": "S01.md",
        "as_of": "2026-06-08",
        "ideal": ["PP-078", "PP-117", "PP-112"],
    }
    line.update(changes)
    return line


def _golden(tmp_path, *lines: dict) -> str:
    path = tmp_path / "golden.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_a_good_line_loads(tmp_path):
    """Control: the ordinary file reads (and keeps reading after the fixes)."""
    (scope,) = load_golden(_golden(tmp_path, _scope(tmp_path)))
    assert (scope.scope_id, scope.ideal) == ("S01", ["PP-078", "PP-117", "PP-112"])
    assert scope.rfp_file == (tmp_path / "S01.md").resolve()


@pytest.mark.parametrize("text", ["", "\n \n\n"], ids=["zero-byte", "blank-lines"])
def test_an_empty_golden_file_is_refused(tmp_path, text):
    path = tmp_path / "golden.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(GoldenSetError, match=r"golden\.jsonl.*(empty|no golden)"):
        load_golden(path)


def test_a_utf16_golden_file_with_a_byte_order_mark_is_read(tmp_path):
    # What Windows PowerShell writes; eval/jsonl.py reads it (break-it round 3).
    path = tmp_path / "golden.jsonl"
    path.write_text(json.dumps(_scope(tmp_path)) + "\n", encoding="utf-16")
    assert [scope.scope_id for scope in load_golden(path)] == ["S01"]


def test_a_scope_id_given_twice_is_refused_naming_both_lines(tmp_path):
    path = _golden(tmp_path, _scope(tmp_path), _scope(tmp_path, ideal=["PP-001"]))
    with pytest.raises(GoldenSetError, match=r"golden\.jsonl:2.*S01.*line 1"):
        load_golden(path)


def test_an_empty_ideal_list_is_refused(tmp_path):
    with pytest.raises(GoldenSetError, match=r"golden\.jsonl:1.*ideal"):
        load_golden(_golden(tmp_path, _scope(tmp_path, ideal=[])))


def test_ideal_given_as_one_string_is_refused(tmp_path):
    with pytest.raises(GoldenSetError, match=r"golden\.jsonl:1.*ideal"):
        load_golden(_golden(tmp_path, _scope(tmp_path, ideal="PP-078")))


def test_a_missing_rfp_file_is_refused_at_load_naming_the_line(tmp_path):
    with pytest.raises(GoldenSetError, match=r"golden\.jsonl:1.*nope\.md"):
        load_golden(_golden(tmp_path, _scope(tmp_path, rfp_file="nope.md")))


def test_a_missing_key_is_named_in_words(tmp_path):
    line = _scope(tmp_path)
    del line["rfp_file"]
    with pytest.raises(GoldenSetError, match=r"golden\.jsonl:1.*missing rfp_file"):
        load_golden(_golden(tmp_path, line))


@pytest.mark.parametrize("text", ["null\n", "42\n"], ids=["null", "number"])
def test_a_qrels_line_that_is_not_an_object_names_the_line(tmp_path, text):
    path = tmp_path / "qrels.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(QrelsError, match=r"qrels\.jsonl:1"):
        load_qrels(path)


def test_an_empty_qrels_file_is_refused(tmp_path):
    path = tmp_path / "qrels.jsonl"
    path.write_text("", encoding="utf-8")
    with pytest.raises(QrelsError, match=r"qrels\.jsonl"):
        load_qrels(path)


def test_an_unreadable_rfp_file_is_named_before_anything_is_embedded(tmp_path):
    """A corrupt RFP of a golden line stops the measuring run naming every such scope and
    its file (break-it: a traceback from the PDF reader), before any scope is embedded."""
    from rfp_retrieval.eval.past_performance import prepare_scopes

    (tmp_path / "S02.pdf").write_bytes(b"%PDF-1.7\nthis is no pdf body at all\n")
    (tmp_path / "S03.docx").write_bytes(b"PK\x03\x04 not a zip archive")
    scopes = load_golden(
        _golden(
            tmp_path,
            _scope(tmp_path),
            _scope(tmp_path, scope_id="S02", rfp_file="S02.pdf"),
            _scope(tmp_path, scope_id="S03", rfp_file="S03.docx"),
        )
    )
    with pytest.raises(GoldenSetError) as raised:
        prepare_scopes(scopes, embedder=None)  # never reached: nothing is embedded
    message = str(raised.value)
    assert message.startswith("2 golden-set RFP file(s) cannot be read")
    assert "scope S02" in message and "S02.pdf" in message
    assert "scope S03" in message and "S03.docx" in message
    assert "scope S01" not in message
