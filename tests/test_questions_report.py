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


def test_labels_that_restart_per_section_take_their_section_number():
    rewritten = pl.DataFrame(
        {
            "question_id": ["q-001", "q-002", "q-003"],
            "label": ["Q1", "Q1", "Q2"],
            "original": ["Is it?", "Is that?", "Are they?"],
            "section_path": [["3 Access Control"], ["4 Encryption"], ["4 Encryption"]],
            "queries": ["[]", "[]", "[]"],
        }
    )
    labels = [v["label"] for v in question_views(rewritten, None)]
    assert labels == ["3 Q1", "4 Q1", "Q2"]


def test_reference_instructions_are_past_performance_asks():
    from rfp_retrieval.retrieval.answers import is_past_performance_ask

    assert is_past_performance_ask(
        "For each reference give the contract number, the customer contact and the period."
    )
    assert is_past_performance_ask("References must include a point of contact and phone.")
    assert is_past_performance_ask("Provide client references with current contact details.")
    assert not is_past_performance_ask("Each reference architecture diagram shall be legible.")
    assert not is_past_performance_ask("The standards are incorporated by reference.")


def test_a_references_ask_is_past_performance_even_when_passages_clear_the_floor():
    import numpy as np

    from rfp_retrieval.retrieval.answers import PAST_PERFORMANCE, AnswerIndex, RetrievalConfig
    from rfp_retrieval.rewrite.records import Query

    vectors = np.eye(2, dtype=np.float32)
    index = AnswerIndex(["AB-1", "AB-2"], ["One", "Two"], ["alpha text", "beta text"], vectors)
    close = np.array([[0.95, 0.0]], dtype=np.float32)
    ask = "Offerors shall provide three (3) references for projects of similar size."
    result = index.search([Query("original", ask, 1.0)], close, RetrievalConfig(floor=0.45))
    assert (result.status, result.confidence) == (PAST_PERFORMANCE, 0.95)
    assert [p.block_id for p in result.passages] == ["AB-1", "AB-2"]


def test_the_brief_points_a_references_ask_to_the_references_not_to_passages():
    from rfp_retrieval.report.brief import brief_html, brief_markdown

    answers = pl.DataFrame(
        {
            "question_id": ["q-001", "q-002"],
            "label": ["5.1", "5.2"],
            "question": [
                "For each reference give the contract number.",
                "Describe how you encrypt data at rest.",
            ],
            "status": ["past performance", "ok"],
            "rank": [1, 1],
            "block_id": ["AB-149", "AB-020"],
            "title": ["Past Performance: State Eligibility", "Encryption at rest"],
            "score": [0.3, 0.4],
        }
    )
    views = question_views(None, answers)
    assert [(v["past_performance"], [p["block_id"] for p in v["passages"]]) for v in views] == [
        (True, []),
        (False, ["AB-020"]),
    ]
    scope = {"rfp_partition": "rfp-1", "title": "Case Management"}
    text = brief_markdown(scope, [], set(), views)
    assert "AB-149" not in text and "Passage 1: AB-020" in text
    assert "- **Answer from the references:** a past-performance ask" in text
    page = brief_html(scope, [], set(), views)
    assert '<h2 id="references">The references</h2>' in page
    assert page.count('<p class="answer-from-references">') == 1 and "AB-149" not in page


def test_phrasings_that_disagree_on_the_top_passage_need_an_sme():
    # six phrasings, each ranking a different passage first (cosine 0.8 > 0.45): no two agree
    # on what answers the question, so the library most likely lacks the answer
    import numpy as np

    from rfp_retrieval.retrieval.answers import NEEDS_SME, AnswerIndex, RetrievalConfig
    from rfp_retrieval.rewrite.records import Query

    ids = [f"AB-{i}" for i in range(1, 7)]
    index = AnswerIndex(ids, ids, [f"w{i}" for i in range(6)], np.eye(6))
    queries = [
        Query("original" if q == 0 else f"paraphrase_{q}", f"weekend shift staffing {q}", 1.0)
        for q in range(6)
    ]
    cosines = [0.8, 0.6, 0.5, 0.4, 0.3, 0.2]
    vectors = np.zeros((6, 6), dtype=np.float32)
    for q in range(6):
        for j in range(6):
            vectors[q, (q + j) % 6] = cosines[j]
    result = index.search(queries, vectors, RetrievalConfig())
    assert (result.signals["cosine_top3"], result.signals["support"]) == (0.8, 0.7365)
    assert result.status == NEEDS_SME
    agreeing = np.tile(vectors[0], (6, 1))
    assert index.search(queries, agreeing, RetrievalConfig()).status == "ok"
    config = RetrievalConfig()
    varied = {"cosine_unvaried": 1.0}
    assert config.needs_sme({"cosine_top3": 0.6, "support": 0.73} | varied)
    assert not config.needs_sme({"cosine_top3": 0.6, "support": 0.74} | varied)
    assert config.needs_sme({"cosine_top3": 0.44, "support": 1.0} | varied)
    assert not config.needs_sme({"cosine_top3": 0.47, "support": 1.0} | varied)


def test_a_question_that_could_not_be_rephrased_needs_closer_passages():
    # asked with its heading only (no paraphrase), support is 1.0 whatever the passages say:
    # the cosine alone must clear the stricter floor (0.48) to count as answered
    import numpy as np

    from rfp_retrieval.retrieval.answers import (
        NEEDS_SME,
        AnswerIndex,
        RetrievalConfig,
        is_unvaried,
    )
    from rfp_retrieval.rewrite.records import Query

    ids = ["AB-1", "AB-2", "AB-3", "AB-4"]
    texts = ["kennel cleaning rota", "boarding intake forms", "grooming prices", "vet on call"]
    index = AnswerIndex(ids, ids, texts, np.eye(4, dtype=np.float32))
    ask = "How are kennels disinfected between boarders?"
    unvaried = [
        Query("original", ask, 1.0),
        Query("rewrite", ask + " — Animal Care", 1.0),
    ]
    varied = unvaried + [Query("paraphrase_1", "kennel disinfection between stays", 0.5)]
    assert is_unvaried(unvaried) and not is_unvaried(varied)
    assert is_unvaried([Query("original", ask, 1.0), Query("part_1", "kennels", 0.5)])
    vector = np.array([0.47, 0.30, 0.20, 0.10], dtype=np.float32)
    rule = RetrievalConfig(floor=0.45, sme_third_signal="cosine_unvaried", sme_third_floor=0.48)
    alone = index.search(unvaried, np.tile(vector, (2, 1)), rule)
    assert alone.signals["cosine_top3"] == alone.signals["cosine_unvaried"] == 0.47
    assert alone.signals["support"] == 1.0
    assert alone.status == NEEDS_SME
    rephrased = index.search(varied, np.tile(vector, (3, 1)), rule)
    assert rephrased.signals["cosine_unvaried"] == 1.0
    assert rephrased.status == "ok"
    close = np.array([0.49, 0.30, 0.20, 0.10], dtype=np.float32)
    assert index.search(unvaried, np.tile(close, (2, 1)), rule).status == "ok"
    assert (
        index.search(
            unvaried, np.tile(vector, (2, 1)), RetrievalConfig(floor=0.45, sme_third_signal=None)
        ).status
        == "ok"
    )
