"""An ask an RFP repeats word for word is rewritten, embedded and searched once: every row
is kept, the work is shared (break-it: 40,000 identical sentences blocked the queue)."""

from __future__ import annotations

import numpy as np

from rfp_retrieval.documents.records import Question
from rfp_retrieval.retrieval.answers import AnswerIndex, retrieve_answers
from rfp_retrieval.rewrite.chain import rewrite_questions
from rfp_retrieval.rewrite.records import RewriteOutput, RewriteRequest

STAFFING = "Describe your approach."
PATH = ["3 Scope of Work", "3.4 Staffing"]
OTHER = ["3 Scope of Work", "3.5 Transition"]


def _asks() -> list[Question]:
    same = [Question(f"q-{i}", f"({i})", STAFFING, "3.4", PATH) for i in range(1, 4)]
    spaced = Question("q-4", "(4)", "Describe  your\napproach.", "3.4", PATH)
    elsewhere = Question("q-5", "(5)", STAFFING, "3.5", OTHER)
    return [*same, spaced, elsewhere]


class _CountingLLM:
    name = "fake-haiku"

    def __init__(self):
        self.requests: list[RewriteRequest] = []

    def rewrite(self, request: RewriteRequest) -> RewriteOutput:
        self.requests.append(request)
        heading = request.context.heading or "the work"
        return RewriteOutput(
            rewrite=f"Describe your approach to {heading}",
            paraphrases=["How will you do it", "What is your method", "Explain the approach"],
            producer="fake-haiku",
            input_tokens=300,
            output_tokens=80,
            cost_usd=0.0007,
            attempts=1,
        )


def test_an_ask_repeated_in_one_section_is_rewritten_once_and_every_row_kept():
    llm = _CountingLLM()
    rewritten = rewrite_questions(_asks(), None, llm)
    assert [r.question_id for r in rewritten] == ["q-1", "q-2", "q-3", "q-4", "q-5"]
    assert [r.label for r in rewritten] == ["(1)", "(2)", "(3)", "(4)", "(5)"]
    # one request for section 3.4 (whitespace does not make a new ask), one for 3.5
    assert len(llm.requests) == 2
    assert rewritten[3].original == "Describe  your\napproach."
    assert rewritten[1].rewrite == rewritten[0].rewrite
    assert rewritten[1].steps[-1] == "6 same ask as q-1: its rewrite shared"
    assert [r.cost_usd for r in rewritten] == [0.0007, 0.0, 0.0, 0.0, 0.0007]
    assert [r.attempts for r in rewritten] == [1, 0, 0, 0, 1]
    assert [r.input_tokens for r in rewritten] == [300, 0, 0, 0, 300]


class _CountingEmbedder:
    def __init__(self):
        self.texts: list[str] = []

    def encode(self, texts):
        self.texts.extend(texts)
        rows = [[1.0, float(len(t) % 7), float(t.count("a"))] for t in texts]
        vectors = np.asarray(rows, dtype=np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_identical_query_sets_are_embedded_and_searched_once_with_the_same_result():
    rewritten = rewrite_questions(_asks(), None, _CountingLLM())
    texts = ["We staff the help desk 24x7 with tiered support.", "Transition in 30 days."]
    embedder = _CountingEmbedder()
    index = AnswerIndex(["AB-1", "AB-2"], ["Staffing", "Transition"], texts, embedder.encode(texts))
    embedder.texts.clear()
    results = retrieve_answers(index, [r.queries for r in rewritten], embedder)
    distinct = {q.text for r in rewritten for q in r.queries}
    assert sorted(embedder.texts) == sorted(distinct)
    assert len(embedder.texts) < sum(len(r.queries) for r in rewritten)
    assert results[0] is results[1] is results[2] is results[3]
    assert results[4] is not results[0]  # section 3.5: its own rewrite, its own search
    assert len(results) == 5
