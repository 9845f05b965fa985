"""The hub step (issue 15, trial): one answer passage (a SOC 2 block) stood in the top 3 of
most questions of an RFP, questions it says nothing about. ``demote_hubs`` moves such a
passage below the top 3 of a question that names a topic of its own and shares no word with
it. Fresh text (a water authority's SOC and ICS support RFQ), not from a dev document."""

from __future__ import annotations

import numpy as np

from rfp_retrieval.retrieval.answers import (
    AnswerIndex,
    AnswerResult,
    Passage,
    RetrievalConfig,
    demote_hubs,
)
from rfp_retrieval.rewrite.records import Query

BLOCKS = {
    "AB-SOC2": "SOC 2 Type II examination: an independent auditor tests our trust criteria.",
    "AB-SHIFT": "Shift staffing of the security operations center, with handover notes.",
    "AB-SIEM": "Detection tools: SIEM correlation of events from field controllers.",
    "AB-FW": "An inventory of field devices and their firmware versions, kept monthly.",
    "AB-KPI": "Monthly metrics we report: alerts triaged, time to escalate, false positives.",
    "AB-SEG": "Network segmentation between control and business networks.",
}
QUESTIONS = [
    "Describe your staffing.",  # the hub shares no word: demoted
    "Describe your approach.",  # names no topic of its own: left alone
    "Explain how your SOC 2 report will be shared with the Authority.",  # shares 'SOC 2'
    "Describe the inventory of field devices.",  # no shared word: demoted
    "How will you segment the control network?",
    "Describe the monthly metrics you will report.",
]
TOP = [
    ["AB-SOC2", "AB-SHIFT", "AB-SIEM", "AB-FW", "AB-KPI"],
    ["AB-SOC2", "AB-SHIFT", "AB-SEG", "AB-FW", "AB-KPI"],
    ["AB-SOC2", "AB-KPI", "AB-SIEM", "AB-FW", "AB-SEG"],
    ["AB-FW", "AB-SOC2", "AB-SEG", "AB-KPI", "AB-SIEM"],
    ["AB-SEG", "AB-SIEM", "AB-FW", "AB-SOC2", "AB-KPI"],
    ["AB-KPI", "AB-FW", "AB-SHIFT", "AB-SEG", "AB-SOC2"],
]
"""Each question's passages: AB-SOC2 in the top 3 of 4 of the 6 questions, every other
block of at most 3."""


def _index() -> AnswerIndex:
    ids = list(BLOCKS)
    vectors = np.eye(len(ids), dtype=np.float32)
    return AnswerIndex(ids, ids, [BLOCKS[i] for i in ids], vectors)


def _result(ids: list[str]) -> AnswerResult:
    passages = [Passage(b, b, r, 1.0 / r, 0.5, 1.0) for r, b in enumerate(ids, start=1)]
    return AnswerResult(passages, 0.5, 1.0, "ok")


def _query_sets() -> list[list[Query]]:
    return [[Query("original", q, 1.0)] for q in QUESTIONS]


def test_a_hub_moves_below_the_top_three_of_questions_it_shares_no_word_with():
    results = [_result(ids) for ids in TOP]
    out = demote_hubs(_index(), _query_sets(), results)
    order = [[p.block_id for p in r.passages] for r in out]
    assert order[0] == ["AB-SHIFT", "AB-SIEM", "AB-FW", "AB-SOC2", "AB-KPI"]
    assert order[3] == ["AB-FW", "AB-SEG", "AB-KPI", "AB-SOC2", "AB-SIEM"]
    assert [p.rank for p in out[0].passages] == [1, 2, 3, 4, 5]
    assert [p.hub for p in out[0].passages] == [False, False, False, True, False]
    # no topic of its own, a shared word, or the hub not in the top 3: unchanged
    for i in (1, 2, 4, 5):
        assert out[i] is results[i]
    assert out[0].status == "ok" and out[0].confidence == 0.5  # the search's evidence


def test_no_hub_below_four_questions_or_a_third_of_them_and_none_when_turned_off():
    few = [_result(ids) for ids in TOP]
    few[3] = _result(["AB-FW", "AB-SEG", "AB-KPI", "AB-SOC2", "AB-SIEM"])
    # AB-SOC2 in the top 3 of 3 of 6 questions: under the 4-question minimum
    assert demote_hubs(_index(), _query_sets(), few) == few
    results = [_result(ids) for ids in TOP]
    off = RetrievalConfig(hub_share=None)
    assert demote_hubs(_index(), _query_sets(), results, off) == results
    # 4 of 13 questions is under a third
    extra = [[Query("original", f"Describe firmware item {n}.", 1.0)] for n in range(7)]
    padded = results + [_result([f"AB-X{n}a", f"AB-X{n}b", f"AB-X{n}c"]) for n in range(7)]
    assert demote_hubs(_index(), _query_sets() + extra, padded) == padded


def test_a_repeated_ask_sharing_one_result_counts_once():
    shared = _result(TOP[0])
    results = [shared, shared, shared, shared, _result(TOP[4]), _result(TOP[5])]
    sets = [_query_sets()[0]] * 4 + _query_sets()[4:]
    # one distinct question set holds the hub in its top 3: 1 of 3, no hub
    assert demote_hubs(_index(), sets, results) == results
