"""The question finder on the dev answer-qrels: every labelled question is found exactly.

``answers_qrels_dev.jsonl`` labels 106 questions over the four synthetic RFPs and the vendor
security questionnaire with their label, verbatim text and section path. A question the
parser cannot find counts as a retrieval miss (DESIGN.md), so the found-rate must be 106/106.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions
from rfp_retrieval.documents.records import Question

DATA = Path(__file__).parents[1] / ".." / "shared" / "data"
QRELS = DATA / "answers_qrels_dev.jsonl"

_found: dict[str, list[Question]] = {}


def _qrels() -> list[dict]:
    if not QRELS.is_file():
        return []
    return [json.loads(line) for line in QRELS.read_text(encoding="utf-8").splitlines() if line]


def _questions(doc: str) -> list[Question]:
    if doc not in _found:
        _found[doc] = find_questions(load_document(DATA / doc))
    return _found[doc]


@pytest.fixture(scope="module")
def qrels() -> list[dict]:
    rows = _qrels()
    if not rows:
        pytest.skip(f"{QRELS} is missing: the qrels are read in place from ../shared/data")
    return rows


def test_every_dev_qrels_question_is_found_with_its_label_text_and_section_path(qrels):
    misses = []
    for row in qrels:
        hits = [
            q
            for q in _questions(row["doc"])
            if q.label == row["label"]
            and q.text == row["question"]
            and q.section_path == row["section_path"]
        ]
        if len(hits) != 1:
            misses.append((row["qid"], row["label"], row["question"][:60]))
    assert misses == []
    assert len(qrels) == 106


def test_qrels_questions_have_the_kind_their_type_implies(qrels):
    by_type: dict[str, set[str]] = {}
    for row in qrels:
        q = next(
            q
            for q in _questions(row["doc"])
            if q.label == row["label"] and q.text == row["question"]
        )
        by_type.setdefault(row["type"], set()).add(q.kind)
    assert by_type == {
        "specific": {"question"},
        "contextual": {"question"},
        "compound": {"question"},
        "cross-reference": {"question"},
        "table": {"table-row"},
    }


def test_cross_reference_questions_link_to_the_sections_they_name(qrels):
    refs = {
        (row["doc"].split("/")[-1][:12], row["label"]): q.references
        for row in qrels
        if row["type"] == "cross-reference"
        for q in _questions(row["doc"])
        if q.label == row["label"] and q.text == row["question"]
    }
    assert refs == {
        ("franklin-dhh", "3.5.5"): ["2.4"],  # "peak volumes described in Section 2.4"
        ("franklin-dhh", "3.7.4"): ["2.3"],  # "the interfaces listed in Section 2.3"
        ("hhs-acf-gran", "L.4.2.1"): ["C.3.1"],  # "the requirements of C.3.1"
        ("hhs-acf-gran", "L.4.2.3"): ["C.3.3"],  # "each system identified in C.3.3"
        ("hhs-acf-gran", "L.4.3.4"): ["C.3.6"],
        ("dla-scals-mo", "IV.A.2"): ["II.A"],  # "described in Section II.A"
        ("treasury-fis", "Question 7."): ["2"],  # "described in Section 2."
    }
