"""The questions part of the brief (issue 15): full section labels, meaningful variants."""

from __future__ import annotations

import json

import polars as pl

from rfp_retrieval.report.questions import full_label, meaningful_queries, question_views


def test_item_markers_take_the_number_of_their_section():
    assert full_label("(ii)", ["RFP", "III. Technical", "III.B Staffing Plan"]) == "III.B (ii)"
    assert full_label("(1)", ["L.5.3.2 Trading Partner Interfaces"]) == "L.5.3.2 (1)"
    assert full_label("a.", ["Section 4 — Questions"]) == "4 a."
    assert full_label("3.1.4", ["3.1 Solution Architecture"]) == "3.1.4"
    assert full_label("CCM-01", ["L.5.4 Cybersecurity Compliance Matrix"]) == "CCM-01"
    assert full_label(None, ["C.3.2 Hosting"]) == "C.3.2"
    assert full_label("(b)", ["Background"]) == "(b)"


def test_only_meaningful_query_variants_are_shown():
    queries = [
        "Describe your approach.",
        "Describe your approach to data migration",
        "describe your approach  to data migration",
        "approach data migration",
        "Describe your approach to data migration.",
        "Describe your approach to data conversion",
    ]
    assert meaningful_queries(queries) == [
        "Describe your approach.",
        "Describe your approach to data migration",
        "Describe your approach to data conversion",
    ]


def test_views_carry_full_labels_and_the_whole_query_set():
    texts = ["How will users get help?", "How will users get help?", "users help"]
    rewritten = pl.DataFrame(
        {
            "question_id": ["q-001"],
            "label": ["(2)"],
            "original": ["How will users get help?"],
            "section_path": [["Section L", "L.5.3.7 Operations and Sustainment"]],
            "queries": [json.dumps([{"role": "r", "text": t} for t in texts])],
        }
    )
    view = question_views(rewritten, None)[0]
    assert (view["label"], view["item_label"]) == ("L.5.3.7 (2)", "(2)")
    assert view["queries"] == ["How will users get help?"]
    assert view["all_queries"] == texts


def test_asks_for_past_performance_references_are_not_sme_questions():
    from rfp_retrieval.retrieval.answers import is_past_performance_ask

    assert is_past_performance_ask("Offerors shall provide three (3) references.")
    assert is_past_performance_ask("Describe your past performance on similar contracts.")
    assert is_past_performance_ask("Provide two customer references for comparable efforts.")
    assert not is_past_performance_ask("Describe your reference architecture for hosting.")
    assert not is_past_performance_ask("How are cross-references between records kept?")


def test_a_references_ask_under_the_floor_gets_the_past_performance_status():
    import numpy as np

    from rfp_retrieval.retrieval.answers import (
        NEEDS_SME,
        PAST_PERFORMANCE,
        AnswerIndex,
        RetrievalConfig,
    )
    from rfp_retrieval.rewrite.records import Query

    vectors = np.eye(2, dtype=np.float32)
    index = AnswerIndex(["AB-1", "AB-2"], ["One", "Two"], ["alpha text", "beta text"], vectors)
    far = np.array([[0.6, 0.0]], dtype=np.float32)
    config = RetrievalConfig(floor=0.9)
    refs = index.search([Query("original", "Provide three (3) references.", 1.0)], far, config)
    other = index.search([Query("original", "Describe the lobby carpet.", 1.0)], far, config)
    assert (refs.status, other.status) == (PAST_PERFORMANCE, NEEDS_SME)
    assert refs.confidence == 0.6
