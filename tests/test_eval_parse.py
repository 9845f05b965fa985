"""``eval parse``: the matching rules of ``rfp_retrieval.eval.parse`` on hand-written truth."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from rfp_retrieval.cli import app
from rfp_retrieval.eval.parse import (
    ParseTruthError,
    TruthDoc,
    evaluate_parse,
    load_truth,
    match_sections,
    normal_number,
    score_document,
)

RFP = """# 1. Instructions

## 1.1 Format

Proposals must not exceed 5 pages.

## 1.2 Delivery

Describe your approach to delivery.
"""

TRUTH = {
    "doc": "tiny.md",
    "sections": [
        {"number": "1", "heading": "Instructions"},
        {"number": "1.1", "heading": "Format"},
        {"number": "1.2", "heading": "Delivery"},
        {"number": "1.3", "heading": "Pricing"},
    ],
    "questions": [
        {"text": "Proposals must not exceed 5 pages.", "kind": "instruction"},
        {"text": "Describe your approach to delivery.", "kind": "question"},
        {"text": "Price every line item.", "kind": "instruction", "borderline": True},
        {"text": "Offerors must be registered in SAM.", "kind": "requirement"},
    ],
    "past_performance": {"references_required": 3, "recency_years": None},
}


def test_normal_number_drops_words_brackets_and_trailing_dots():
    assert normal_number("Sec. 1.04") == "1.04"
    assert normal_number("(a)") == "a"
    assert normal_number("IV.") == "iv"
    assert normal_number("Section L.4.2") == "l.4.2"
    assert normal_number("  ") is None


def test_sections_match_by_number_and_heading_in_order():
    truth = [
        {"number": "a", "heading": "Format"},
        {"number": "a", "heading": "Format"},
        {"number": None, "heading": "Attachments"},
        {"number": "2", "heading": "Pricing"},
    ]
    parsed = [
        {"number": "a.", "heading": "*Format.*"},
        {"number": "(a)", "heading": "Formatting"},
        {"number": None, "heading": "Attachment"},  # 0.95 similar: unnumbered needs 0.85
        {"number": "2", "heading": "Cost"},  # heading too far apart
    ]
    assert match_sections(truth, parsed) == [(0, 0), (1, 1), (2, 2)]


def test_score_document_counts_borderline_and_kinds():
    doc = TruthDoc(
        "tiny.md", None, TRUTH["sections"], TRUTH["questions"], TRUTH["past_performance"]
    )
    sections = [
        {"number": "1.", "heading": "Instructions"},
        {"number": "1.1", "heading": "Format"},
        {"number": "1.2", "heading": "Delivery"},
        {"number": "9", "heading": "Extra"},
    ]
    asks = [
        {"text": "Proposals **must not** exceed 5 pages", "kind": "requirement"},
        {"text": "Describe your approach to delivery, staffing and risk.", "kind": "question"},
        {"text": "The contractor shall mow the lawn.", "kind": "requirement"},
    ]
    scores = score_document(doc, sections, asks, {"references_required": 3}).scores()
    assert scores["section"] == {
        "precision": 0.75,
        "recall": 0.75,
        "f1": 0.75,
        "truth": 4,
        "parsed": 4,
        "matched": 3,
    }
    # the run-on question is a partial match (0.65 of the longer, partial ratio 1.0)
    assert scores["asks"]["found"] == 2
    assert scores["asks"]["truth"] == 3  # the borderline miss is no miss
    assert scores["asks"]["recall"] == 0.6667
    assert scores["asks"]["precision"] == 0.6667
    assert scores["asks"]["recall_by_kind"] == {
        "instruction": 1.0,
        "question": 1.0,
        "requirement": 0.0,
    }
    assert scores["asks"]["precision_by_kind"] == {"question": 1.0, "requirement": 0.5}
    assert scores["pp_fields"] == 1.0  # recency None == None, value_min/max None == None


def test_eval_parse_end_to_end_and_cli(tmp_path):
    (tmp_path / "tiny.md").write_text(RFP, encoding="utf-8")
    truth_file = tmp_path / "truth.jsonl"
    truth_file.write_text(json.dumps(TRUTH) + "\n", encoding="utf-8")
    overall = evaluate_parse(load_truth(truth_file))["overall"]
    assert overall["section"]["matched"] == 3
    assert overall["section"]["f1"] == 0.8571  # P 3/3, R 3/4
    assert overall["asks"]["found"] == 2 and overall["asks"]["truth"] == 3
    assert overall["pp_fields"] == 0.75  # references_required is not stated in the text
    result = CliRunner().invoke(app, ["eval", "parse", "--truth", str(truth_file), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["documents"][0]["section"]["recall"] == 0.75
    # the table goes to stdout, so `eval parse > figures.txt` keeps it (new-user trial)
    table = CliRunner().invoke(app, ["eval", "parse", "--truth", str(truth_file)])
    assert table.exit_code == 0, table.output
    assert "overall" in table.stdout and "0.86 (1.00 / 0.75)" in table.stdout
    assert "ask recall by labelled kind:" in table.stdout and table.stderr == ""


def test_an_unreadable_document_scores_zero_and_names_its_error(tmp_path):
    (tmp_path / "tiny.md").write_text(RFP, encoding="utf-8")
    (tmp_path / "empty.pdf").write_bytes(b"")
    truth_file = tmp_path / "truth.jsonl"
    truth_file.write_text(
        json.dumps(TRUTH) + "\n" + json.dumps({**TRUTH, "doc": "empty.pdf"}) + "\n",
        encoding="utf-8",
    )
    result = evaluate_parse(load_truth(truth_file))
    good, bad = result["documents"]
    assert good["error"] is None and good["pp_fields"] == 0.75
    assert bad["doc"] == "empty.pdf"
    assert bad["error"] is not None and "empty.pdf" in bad["error"]
    assert bad["pp_fields"] == 0.0  # its empty reading's nulls do not match the truth's nulls
    assert (bad["section"]["precision"], bad["section"]["recall"], bad["section"]["f1"]) == (
        0.0,
        0.0,
        0.0,
    )
    assert (bad["asks"]["recall"], bad["asks"]["precision"]) == (0.0, 0.0)
    overall = result["overall"]
    assert overall["pp_fields"] == 0.375  # 3 of 8 fields: the readable document's 3 of 4
    assert overall["section"]["recall"] == 0.375  # 3 of 8 labelled sections
    text = CliRunner().invoke(
        app, ["eval", "parse", "--truth", str(truth_file)], env={"COLUMNS": "200"}
    )
    assert text.exit_code == 0, text.output
    assert f"empty.pdf (error): {bad['error']}" in " ".join(text.output.split())


def test_load_truth_names_the_missing_document(tmp_path):
    truth_file = tmp_path / "truth.jsonl"
    truth_file.write_text(json.dumps({**TRUTH, "doc": "gone.md"}) + "\n", encoding="utf-8")
    with pytest.raises(ParseTruthError, match=r"truth.jsonl:1: document 'gone.md' not found"):
        load_truth(truth_file)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", r"truth.jsonl: no truth line \(the file is empty\)"),
        (b"\n  \n", r"truth.jsonl: no truth line"),
        (b"\xff\xfe{}", r"truth.jsonl:1: bad truth line"),  # a UTF-16 BOM is read as UTF-16
        (b"[1, 2]", r"truth.jsonl:1: a truth line is a JSON object, got list"),
        (b'{"doc": 7, "sections": [], "questions": []}', r"truth.jsonl:1: 'doc' must be a file"),
        (b'{"doc": null, "sections": [], "questions": []}', r"'doc' must be a file name, got None"),
        (b'{"doc": "tiny.md", "sections": "1. A", "questions": []}', r"'sections' must be a list"),
        (b'{"doc": "tiny.md", "sections": [], "questions": ["Describe it."]}', r"'questions' must"),
        (
            b'{"doc": "tiny.md", "sections": [{"number": 1, "heading": "A"}], "questions": []}',
            r"truth.jsonl:1: sections\[1\].number must be text or null, got 1",
        ),
        (
            b'{"doc": "tiny.md", "sections": [], "questions": [], "past_performance": [3]}',
            r"'past_performance' must be an object or null",
        ),
        (
            b'{"doc": "tiny.md", "questions": []}',
            r"truth.jsonl:1: bad truth line \(missing sections",
        ),
        (
            b'{"doc": "tiny.md", "sections": [], "questions": [{"text": null}]}',
            r"truth.jsonl:1: questions\[1\].text must be the ask's text, got None",
        ),
        (
            b'{"doc": "tiny.md", "sections": [], "questions": [],'
            b' "past_performance": {"references_required": "three"}}',
            r"truth.jsonl:1: past_performance.references_required must be a whole number or null,"
            r" got 'three'",
        ),
        (
            b'{"doc": "tiny.md", "sections": [], "questions": [],'
            b' "past_performance": {"references_required": 3, "recency_yrs": 3}}',
            r"truth.jsonl:1: past_performance.recency_yrs is not a label field",
        ),
        (
            b'{"doc": "tiny.md", "sections": [], "questions": [],'
            b' "past_performance": {"value_min": "$5M"}}',
            r"past_performance.value_min must be a number or null, got '\$5M'",
        ),
    ],
)
def test_load_truth_refuses_a_malformed_file_naming_file_and_line(tmp_path, content, message):
    (tmp_path / "tiny.md").write_text(RFP, encoding="utf-8")
    truth_file = tmp_path / "truth.jsonl"
    truth_file.write_bytes(content)
    with pytest.raises(ParseTruthError, match=message):
        load_truth(truth_file)


def test_load_truth_reads_a_byte_order_mark_and_refuses_a_document_listed_twice(tmp_path):
    (tmp_path / "tiny.md").write_text(RFP, encoding="utf-8")
    truth_file = tmp_path / "truth.jsonl"
    line = json.dumps(TRUTH)
    truth_file.write_bytes(b"\xef\xbb\xbf" + line.encode() + b"\n")
    assert [d.doc for d in load_truth(truth_file)] == [TRUTH["doc"]]
    truth_file.write_text(f"{line}\n\n{line}\n", encoding="utf-8")
    with pytest.raises(
        ParseTruthError, match=r"truth.jsonl:3: document .* listed twice \(line 1\)"
    ):
        load_truth(truth_file)
    result = CliRunner().invoke(app, ["eval", "parse", "--truth", str(truth_file)])
    assert result.exit_code == 1 and "listed twice" in result.output
