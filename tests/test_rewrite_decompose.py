"""Decomposition defects of issue 14: a specific compound question is split (defect 2),
names joined by "and" stay whole (defect 3), split parts keep their verb and the offline
rewriter keeps the question's punctuation and word order (defect 4)."""

from __future__ import annotations

from rfp_retrieval.documents.records import Question
from rfp_retrieval.rewrite.chain import rewrite_question
from rfp_retrieval.rewrite.decompose import decompose
from rfp_retrieval.rewrite.offline import paraphrase


def _question(text: str, heading: str = "3.4 Transition") -> Question:
    return Question("q-1", "3.4.1", text, "s", ["3 Technical", heading])


def test_specific_compound_question_is_split_into_its_two_asks():
    q = _question("Describe your approach to data migration and your data validation methodology.")
    result = rewrite_question(q, None)
    assert result.skipped and result.specificity >= 0.5
    assert [(x.role, x.text) for x in result.queries] == [
        ("original", q.text),
        ("part_1", "Describe your approach to data migration"),
        ("part_2", "Describe your data validation methodology."),
    ]


def test_specific_noun_phrase_coordination_is_not_split():
    result = rewrite_question(_question("Identify the support tiers and hours of coverage."), None)
    assert result.skipped
    assert [x.role for x in result.queries] == ["original"]


def test_capitalised_names_joined_by_and_stay_whole():
    assert decompose("Describe your Independent Verification and Validation approach.").parts == []
    assert decompose("Describe your federal Terms and Conditions compliance.").parts == []
    assert decompose(
        "Describe your experience with Independent Verification and Validation and with "
        "Applied Research and Development programs."
    ).parts == [
        "Describe your experience with Independent Verification and Validation",
        "Describe your experience with Applied Research and Development programs",
    ]


def test_a_name_is_one_noun_phrase_when_the_question_lists_two():
    assert decompose(
        "Describe your approach to federal Terms and Conditions compliance and subcontract "
        "flow-downs."
    ).parts == [
        "Describe your approach to federal Terms and Conditions compliance",
        "Describe your approach to subcontract flow-downs",
    ]


def test_fixed_thesaurus_phrase_with_and_stays_whole():
    assert decompose(
        "Describe your operations and maintenance approach and staffing levels."
    ).parts == [
        "Describe your operations and maintenance approach",
        "Describe your staffing levels",
    ]


def test_a_split_part_borrows_the_instruction_verb():
    parts = decompose(
        "Describe how you will operate and maintain the portal and how users will get help "
        "when something goes wrong."
    ).parts
    assert parts == [
        "Describe how you will operate and maintain the portal",
        "Describe how users will get help when something goes wrong.",
    ]


def test_paraphrases_keep_brackets_commas_and_word_order():
    core = "Describe, for each module, your regression testing (automated and manual) approach"
    out = paraphrase(core, "")
    assert out == [
        "Describe, for each module, your automated tests (automated and manual) approach",
        "Describe, for each module, your test automation (automated and manual) approach",
        "Describe, for each module, your repeatable test suites (automated and manual) approach",
    ]
