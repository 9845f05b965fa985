"""Query variants a writer can read (new-user trial, session 16): a job title keeps its words,
a thesaurus group holds one word class, a word listed in two groups means its own concept, and
how proposals are submitted is never a question's context. Small hand-written inputs."""

from __future__ import annotations

from pathlib import Path

import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions
from rfp_retrieval.rewrite.chain import rewrite_questions
from rfp_retrieval.rewrite.context import says_how_to_answer
from rfp_retrieval.rewrite.offline import paraphrase
from rfp_retrieval.rewrite.thesaurus import THESAURUS, find_concepts


def test_a_job_title_keeps_its_words_while_the_plan_is_reworded():
    variants = paraphrase(
        "Proposers shall provide a staffing plan that names the engagement manager and the "
        "payroll lead.",
        "",
    )
    assert variants == [
        "Proposers shall provide a personnel plan that names the engagement manager and the "
        "payroll lead.",
        "Proposers shall provide a team plan that names the engagement manager and the payroll "
        "lead.",
    ]


def test_a_noun_is_swapped_for_nouns_only():
    written = "Describe how administrators configure forms without vendor involvement."
    assert paraphrase(written, "") == [
        "Describe how administrators configure forms without vendor engagement.",
        "Describe how administrators configure forms without vendor collaboration.",
        "Describe how administrators configure forms without vendor participation.",
    ]
    (group,) = [g for g in THESAURUS if "involvement" in g]
    assert "participate" not in group and "collaborate" not in group


def test_a_word_listed_in_two_groups_means_the_concept_it_names_first():
    text = "Describe your reporting."
    ((_, _, group, phrase),) = find_concepts(text)
    assert THESAURUS[group][0] == "reporting" and phrase == 0
    # no swap at all where the reporting group's options cannot modify "requirements"
    written = "How will the system support payroll tax and PERA reporting requirements?"
    assert paraphrase(written, "") == []


@pytest.mark.parametrize(
    ("sentence", "no_context"),
    [
        ("Late proposals will not be accepted.", True),
        ("Proposals shall be submitted through the City's Supplier Portal.", True),
        ("Proposers shall organize their response in the order of this section.", True),
        ("The Technical Proposal shall not exceed 30 pages, excluding resumes.", True),
        ("Responses must not exceed thirty (30) pages.", True),
        ("Offerors shall answer every question in the table below.", True),
        ("The City runs payroll for 8,000 employees.", False),
        # a service level is about the work, not the proposal's length
        ("The system shall not exceed 2 seconds response time.", False),
    ],
)
def test_how_proposals_are_submitted_and_how_long_they_are_is_no_context(sentence, no_context):
    assert says_how_to_answer(sentence) is no_context


def test_a_numbered_ask_under_a_format_heading_carries_no_submission_logistics(tmp_path: Path):
    path = tmp_path / "rfp.md"
    path.write_text(
        "# City RFP for Payroll\n\n## 4. Proposal Format and Content\n\n"
        "4.1 Proposals shall be submitted through the City's Supplier Portal. Late proposals "
        "will not be accepted.\n\n"
        "4.2 The technical response shall not exceed 40 pages. Proposers shall organize their "
        "response in the order of this section.\n\n"
        "4.3 Proposers shall describe their implementation approach, including the number of "
        "phases and the go-live strategy for payroll.\n",
        encoding="utf-8",
    )
    doc = load_document(path)
    questions = find_questions(doc)
    (ask,) = [q for q in questions if q.text.startswith("Proposers shall describe")]
    (rewritten,) = rewrite_questions([ask], doc, kinds=(ask.kind,))
    for query in rewritten.queries:
        assert "Portal" not in query.text and "Late" not in query.text, query.text

