"""The whole chain for one question: skip, query set, log, validation and LLM fallback."""

from __future__ import annotations

import polars as pl

from rfp_retrieval.documents.records import Question
from rfp_retrieval.rewrite.chain import (
    ChainConfig,
    QueryWeights,
    RewriterError,
    original_only,
    rewrite_question,
    rewrite_questions,
)
from rfp_retrieval.rewrite.frames import NO_QUESTIONS, query_sets_from_frame, rewrites_frame
from rfp_retrieval.rewrite.records import RewriteOutput, RewriteRequest
from rfp_retrieval.rewrite.validate import validate_output

MIGRATION = Question(
    "q-7",
    "3.4.7",
    "Describe your approach.",
    "3.4",
    ["3 Scope of Work", "3.4 Data Migration"],
)
SPECIFIC = Question(
    "q-2",
    "Question 2.",
    "What is the maximum file size your API accepts on a POST to /v1/documents?",
    "4.1",
    ["4.1 Platform and API"],
)


class _FakeLLM:
    """A rewriter that returns a fixed output (or raises), recording the requests."""

    name = "fake-haiku"

    def __init__(self, output: RewriteOutput | None = None, error: str | None = None):
        self.output = output
        self.error = error
        self.requests: list[RewriteRequest] = []

    def rewrite(self, request: RewriteRequest) -> RewriteOutput:
        self.requests.append(request)
        if self.error:
            raise RewriterError(self.error)
        return self.output


def _llm_output(rewrite: str, paraphrases: list[str] | None = None) -> RewriteOutput:
    return RewriteOutput(
        rewrite=rewrite,
        paraphrases=paraphrases or ["p one", "p two", "p three"],
        producer="fake-haiku",
        input_tokens=300,
        output_tokens=80,
        cost_usd=0.0007,
    )


def test_specific_question_skips_the_rewrite_and_keeps_only_the_original():
    result = rewrite_question(SPECIFIC, None)
    assert result.skipped is True
    assert result.rewriter == "none"
    assert [(q.role, q.text) for q in result.queries] == [("original", SPECIFIC.text)]
    assert result.steps[0].startswith("1 specificity 1.00 (specific: skip the rewrite)")


def test_vague_question_gets_original_rewrite_three_paraphrases_with_weights():
    result = rewrite_question(MIGRATION, None)
    assert result.skipped is False
    assert result.rewrite == "Describe your approach to Data Migration"
    assert [(q.role, q.weight) for q in result.queries] == [
        ("original", 1.0),
        ("rewrite", 1.0),
        ("paraphrase_1", 0.5),
        ("paraphrase_2", 0.5),
        ("paraphrase_3", 0.5),
    ]
    assert result.queries[2].text == "Describe your approach to data conversion"
    assert result.steps == [
        "1 specificity 0.00 (rewrite); no domain noun phrase; short: 0 topical word(s)",
        "2 context: heading 'Data Migration'; skipped structural '3 Scope of Work'",
        "3 offline: bare request: attached the heading 'Data Migration'",
        "3 offline: 3 paraphrases from the thesaurus",
        "3 rewrite: Describe your approach to Data Migration",
        "4 paraphrase 1: Describe your approach to data conversion",
        "4 paraphrase 2: Describe your approach to legacy data cutover",
        "4 paraphrase 3: Describe your approach to data load",
        "5 query set: 5 queries (original + rewrite + 3 paraphrases + 0 parts)",
    ]


def test_compound_question_retrieves_parts_and_the_undivided_question():
    question = Question(
        "q-3",
        "L.4.2.2",
        "Describe your approach to migration and your data validation methodology.",
        None,
        ["L.4.2 Volume II — Technical Approach"],
    )
    result = rewrite_question(question, None, config=ChainConfig(weights=QueryWeights(part=0.25)))
    roles = [(q.role, q.text, q.weight) for q in result.queries]
    assert roles[0] == ("original", question.text, 1.0)
    assert roles[-2:] == [
        ("part_1", "Describe your approach to migration", 0.25),
        ("part_2", "Describe your data validation methodology.", 0.25),
    ]


def test_rewriting_off_is_the_verbatim_question_alone():
    result = original_only(MIGRATION)
    assert [(q.role, q.text, q.weight) for q in result.queries] == [
        ("original", "Describe your approach.", 1.0)
    ]


def test_valid_llm_output_is_used_with_its_tokens_and_cost():
    llm = _FakeLLM(_llm_output("Describe the approach to data migration from the legacy system"))
    result = rewrite_question(MIGRATION, None, llm)
    assert result.rewriter == "fake-haiku"
    assert result.rewrite == "Describe the approach to data migration from the legacy system"
    assert (result.input_tokens, result.output_tokens, result.cost_usd) == (300, 80, 0.0007)
    assert result.flags == []
    assert llm.requests[0].context.heading == "Data Migration"


def test_blank_numbered_or_answering_llm_output_falls_back_and_is_flagged():
    bad = _FakeLLM(_llm_output("1. Data migration approach\n2. Cutover", ["", "p", "q"]))
    result = rewrite_question(MIGRATION, None, bad)
    assert result.rewriter == "offline (fallback: fake-haiku output invalid)"
    assert result.flags == [
        "llm-output-invalid: numbered or multi-line rewrite; blank paraphrase 1"
    ]
    assert result.rewrite == "Describe your approach to Data Migration"
    answer = _FakeLLM(_llm_output("We provide a proven migration methodology."))
    assert "answers the question" in rewrite_question(MIGRATION, None, answer).flags[0]


def test_api_failure_falls_back_to_offline_and_is_flagged():
    result = rewrite_question(MIGRATION, None, _FakeLLM(error="gave up after 4 attempts"))
    assert result.rewriter == "offline (fallback: fake-haiku failed)"
    assert result.flags == ["rewriter-failed: gave up after 4 attempts"]
    assert result.queries[0].text == "Describe your approach."


def test_validation_requires_distinctive_terms_and_three_paraphrases():
    request = RewriteRequest("Is the POA&M updated monthly?", MIGRATION_CONTEXT)
    problems = validate_output(request, RewriteOutput("Is the plan of action updated?", [], ["a"]))
    assert problems == [
        "1 paraphrases, 3 required",
        "dropped distinctive term 'POA&M'",
        "paraphrase 1 dropped or changed protected term 'POA&M'",
    ]


MIGRATION_CONTEXT = rewrite_question(MIGRATION, None).context


def test_rewrite_questions_keeps_asks_only_and_the_frame_round_trips():
    requirement = Question(
        "q-1", "3.4.1", "The Contractor shall migrate all cases.", None, [], kind="requirement"
    )
    rewritten = rewrite_questions([requirement, MIGRATION, SPECIFIC], None)
    assert [r.question_id for r in rewritten] == ["q-7", "q-2"]
    frame = rewrites_frame("franklin", rewritten)
    assert frame.select("question_id", "skipped", "query_count").rows() == [
        ("q-7", False, 5),
        ("q-2", True, 1),
    ]
    sets = query_sets_from_frame(frame)
    assert [q.role for q in sets[0][1]] == [
        "original",
        "rewrite",
        "paraphrase_1",
        "paraphrase_2",
        "paraphrase_3",
    ]


def test_an_rfp_without_questions_gets_one_placeholder_row():
    frame = rewrites_frame("empty", [])
    assert frame.select("kind", "query_count").rows() == [(NO_QUESTIONS, 0)]
    assert query_sets_from_frame(frame) == []
    assert frame.schema["steps"] == pl.List(pl.String)


def test_a_question_that_points_outside_itself_weighs_its_original_less():
    pointing = Question(
        "q-9", "9.", "How often is it performed, and by whom?", "4.2", ["4.2 Penetration Testing"]
    )
    r = rewrite_question(pointing, None)
    assert r.queries[0].role == "original" and r.queries[0].weight == 0.5
    assert r.rewrite.startswith("How often is penetration testing performed")
    # a question that names its own topic keeps the full weight, and the weight is a setting
    assert rewrite_question(MIGRATION, None).queries[0].weight == 1.0
    plain = ChainConfig(weights=QueryWeights(pointing_original=1.0))
    assert rewrite_question(pointing, None, config=plain).queries[0].weight == 1.0
