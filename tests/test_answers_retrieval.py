"""Hybrid answer retrieval, the metrics, and the dev-set targets with and without rewriting."""

from __future__ import annotations

import json

import numpy as np
import pytest

from rfp_retrieval.answers.ingest import load_answer_library
from rfp_retrieval.documents.records import Question
from rfp_retrieval.eval.answers import (
    QrelsError,
    QrelsQuestion,
    build_index,
    evaluate_answers,
    load_qrels,
    match_question,
    prepare_questions,
    ranking_metrics,
)
from rfp_retrieval.retrieval.answers import (
    NEEDS_SME,
    SME_SIGNALS,
    AnswerIndex,
    RetrievalConfig,
    answers_frame,
    retrieve_answers,
)
from rfp_retrieval.rewrite.chain import original_only, rewrite_question
from rfp_retrieval.rewrite.records import Query
from tests.conftest import REPO

# --- metrics and qrels (no model) ----------------------------------------------------------


def test_ranking_metrics_follow_their_definitions():
    relevant = {"AB-1": 2, "AB-2": 1}
    m = ranking_metrics(["AB-9", "AB-2", "AB-8", "AB-7", "AB-6", "AB-1"], relevant)
    assert m["recall_at_5"] == 0.5
    assert m["hit_rate_at_5"] == 1.0
    assert m["mrr_at_10"] == 0.5
    dcg = 1 / np.log2(3) + 3 / np.log2(7)
    idcg = 3 / np.log2(2) + 1 / np.log2(3)
    assert m["ndcg_at_10"] == pytest.approx(dcg / idcg)
    assert ranking_metrics([], relevant) == {
        "recall_at_5": 0.0,
        "hit_rate_at_5": 0.0,
        "mrr_at_10": 0.0,
        "ndcg_at_10": 0.0,
    }


def test_load_qrels_names_the_file_and_line(tmp_path):
    path = tmp_path / "qrels.jsonl"
    path.write_text(
        json.dumps({"doc": "a.md", "question": "Q?", "type": "specific", "relevant": {"AB-1": 2}})
        + "\n"
        + json.dumps({"doc": "a.md", "question": "Q?", "type": "specific", "relevant": {"AB-1": 3}})
        + "\n",
        encoding="utf-8",
    )
    with pytest.raises(QrelsError, match=f"{path}:2: grades must be 1 or 2"):
        load_qrels(path)
    path.write_text('{"doc": "a.md"}\n', encoding="utf-8")
    with pytest.raises(QrelsError, match=f"{path}:1: missing question, type, relevant"):
        load_qrels(path)


def test_match_question_prefers_the_same_label_and_tolerates_markup():
    qrel = QrelsQuestion(
        "x",
        REPO,
        "3.4.8",
        "Describe how converted data will be validated.",
        [],
        "specific",
        {"AB-8": 2},
    )
    found = [
        Question(
            "q-1", "9.9", "**Describe how converted data will be validated.** Also more.", None, []
        ),
        Question("q-2", "3.4.8", "3.4.8 Describe how converted data will be validated", None, []),
    ]
    assert match_question(qrel, found).id == "q-2"
    assert match_question(qrel, found[:0]) is None


# --- the index (bundled model, sample library) --------------------------------------------


@pytest.fixture(scope="module")
def library():
    return load_answer_library(REPO / "sample" / "answers")


@pytest.fixture(scope="module")
def index(library, embedder) -> AnswerIndex:
    """The sample answer library embedded once for this module."""
    return build_index(library.blocks, embedder)


pytestmark = pytest.mark.slow


def test_index_holds_every_usable_block(index):
    assert len(index) == 164
    assert index.vectors.shape == (164, 384)
    assert np.allclose(np.linalg.norm(index.vectors, axis=1), 1.0, atol=1e-4)


def test_bm25_scores_stemmed_words(index):
    scores = index.bm25_scores("migrating converted records")
    assert index.ids[int(np.argmax(scores))] == "AB-002"
    assert not index.bm25_scores("zzzz qqqq").any()


def test_rewrite_lifts_the_bare_question_to_the_migration_blocks(index, embedder):
    question = Question(
        "q-7", "3.4.7", "Describe your approach.", None, ["3 Scope of Work", "3.4 Data Migration"]
    )
    on, off = retrieve_answers(
        index,
        [rewrite_question(question, None).queries, original_only(question).queries],
        embedder,
    )
    assert on.passages[0].block_id == "AB-001"
    assert set(on.passages[0].query_ranks) == {
        "original",
        "rewrite",
        "paraphrase_1",
        "paraphrase_2",
        "paraphrase_3",
    }
    assert on.passages[0].query_ranks["rewrite"] == 2
    assert "AB-001" not in [p.block_id for p in off.passages[:5]]


def test_blocks_found_by_several_queries_outrank_a_single_hit(index, embedder):
    queries = [
        Query("original", "Describe your incident response capability.", 1.0),
        Query("paraphrase_1", "incident handling lifecycle", 0.5),
        Query("paraphrase_2", "breach response", 0.5),
    ]
    (result,) = retrieve_answers(index, [queries], embedder)
    top = result.passages[0]
    assert top.block_id == "AB-065"
    assert top.query_ranks == {"original": 1, "paraphrase_1": 1, "paraphrase_2": 2}
    assert [p.rank for p in result.passages] == list(range(1, 11))
    assert result.status == "ok"
    assert result.agreement == 1.0


def test_retrieval_floor_flags_needs_sme(index, embedder):
    queries = [Query("original", "What colour is the lobby carpet at headquarters?", 1.0)]
    (strict,) = retrieve_answers(index, [queries], embedder, RetrievalConfig(floor=0.9))
    assert strict.status == NEEDS_SME
    assert strict.confidence < 0.9
    frame = answers_frame("p", [({"question_id": "q-1", "label": "Q1", "original": "?"}, strict)])
    assert frame.height == 5
    assert frame["status"].unique().to_list() == [NEEDS_SME]
    assert json.loads(frame["query_ranks"][0]) == {"original": 1}


# --- the dev set (documents parsed by the product) ----------------------------------------


@pytest.fixture(scope="module")
def dev_runs(shared_data, index, embedder):
    prepared = prepare_questions(load_qrels(shared_data / "answers_qrels_dev.jsonl"))
    return evaluate_answers(prepared, index, embedder)


def test_dev_parser_finds_every_labelled_question(dev_runs):
    assert dev_runs["on"]["found"] == 106
    assert dev_runs["off"]["found"] == 106


def test_dev_targets_with_the_offline_rewriter(dev_runs):
    on, off = dev_runs["on"], dev_runs["off"]
    assert on["hit_rate_at_5"] >= 0.95
    assert on["mrr_at_10"] >= 0.88
    contextual = on["by_type"]["contextual"]["mrr_at_10"]
    assert contextual >= 0.85
    assert contextual - off["by_type"]["contextual"]["mrr_at_10"] >= 0.15
    assert on["by_type"]["table"]["mrr_at_10"] >= 0.85


def test_dev_no_type_is_worse_with_rewriting(dev_runs):
    on, off = dev_runs["on"]["by_type"], dev_runs["off"]["by_type"]
    for kind in off:
        for metric in ("recall_at_5", "mrr_at_10"):
            assert on[kind][metric] >= off[kind][metric] - 0.02, (kind, metric)


def test_dev_json_shape_has_per_question_rows(dev_runs):
    row = dev_runs["on"]["per_question"][0]
    assert {"qid", "found", "retrieved", "relevant"} <= set(row)
    assert row["qid"] == "franklin-iecms-01"
    assert len(row["retrieved"]) == 10


FLAGGED_ANSWERABLE = [
    "acf-gmpmo-01",
    "acf-gmpmo-06",
    "acf-gmpmo-07",
    "acf-gmpmo-11",
    "acf-gmpmo-12",
    "vsq-csv-05",
    "vsq-csv-09",
    "vsq-csv-13",
    "vsq-csv-16",
    "vsq-csv-30",
]
"""Questions of the first dev qrels file answered in the top 3 that the rule still flags
(cosine_top3 < 0.45 alone flagged acf-gmpmo-06, -11, vsq-csv-09, -16, -30)."""


def test_dev_needs_sme_rarely_flags_a_question_answered_in_the_top_3(dev_runs):
    # the rule (benchmarks/cv_sme.py, with negatives) accepts a few flags on questions a
    # writer can answer from the three passages shown (issue 15) to catch the questions the
    # library cannot answer
    rows = dev_runs["on"]["per_question"]
    answerable = [r for r in rows if set(r["retrieved"][:3]) & set(r["relevant"])]
    assert len(answerable) >= 100
    flagged = [r["qid"] for r in answerable if r["status"] == NEEDS_SME]
    assert flagged == FLAGGED_ANSWERABLE
    statuses = {r["qid"]: r["status"] for r in rows}
    assert statuses["acf-gmpmo-14"] == "past performance"  # "For each reference, describe ..."
    config = RetrievalConfig()
    assert (config.sme_signal, config.floor) == ("cosine_top3", 0.46)
    assert (config.sme_second_signal, config.sme_second_floor) == ("support", 0.74)


def test_needs_sme_fires_on_questions_the_library_cannot_answer(index, embedder):
    asks = [
        "Are you currently involved in any pending litigation?",
        "What colour is the lobby carpet at headquarters?",
        "Describe your incident response capability.",
    ]
    results = retrieve_answers(index, [[Query("original", a, 1.0)] for a in asks], embedder)
    assert [r.status for r in results] == [NEEDS_SME, NEEDS_SME, "ok"]
    assert results[0].confidence < 0.45 <= results[2].confidence
    assert set(results[0].signals) == set(SME_SIGNALS)
    assert results[0].signals["cosine_top3"] == results[0].confidence
