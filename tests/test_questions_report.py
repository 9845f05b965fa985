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
