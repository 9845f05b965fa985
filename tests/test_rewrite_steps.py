"""The rewrite chain's steps one by one: specificity, decomposition, context, paraphrase."""

from __future__ import annotations

import pytest

from rfp_retrieval.documents.records import Question
from rfp_retrieval.rewrite.context import (
    ContextConfig,
    QuestionContext,
    ReferencedSection,
    clean_heading,
    document_subject,
    inherit_context,
    is_structural,
    keyword_summary,
)
from rfp_retrieval.rewrite.decompose import decompose
from rfp_retrieval.rewrite.offline import OfflineRewriter, attach_topic, paraphrase
from rfp_retrieval.rewrite.records import RewriteRequest
from rfp_retrieval.rewrite.specificity import check_specificity, cross_references
from rfp_retrieval.rewrite.terms import distinctive_terms
from rfp_retrieval.rewrite.thesaurus import THESAURUS, find_concepts

# --- specificity (seed 2: short, abstract verbs, no domain noun phrase -> rewrite) ---------


def test_seed_example_of_a_specific_question_skips_the_rewrite():
    verdict = check_specificity(
        "What is the maximum file size your API accepts on a POST to /v1/documents?"
    )
    assert verdict.specific is True
    assert verdict.score == 1.0
    assert verdict.distinctive == ["API", "POST", "/v1/documents"]


def test_bare_describe_your_approach_is_rewritten():
    verdict = check_specificity("Describe your approach.")
    assert (verdict.specific, verdict.score) == (False, 0.0)
    assert verdict.reasons == ["no domain noun phrase", "short: 0 topical word(s)"]


def test_unresolved_pronoun_forces_a_rewrite_even_with_domain_words():
    verdict = check_specificity("How often are they rotated?")
    assert verdict.specific is False
    assert verdict.anaphors == ["they"]


def test_cross_reference_forces_a_rewrite():
    verdict = check_specificity(
        "Describe how the service scales to the peak volumes described in Section 2."
    )
    assert verdict.score == 1.0
    assert verdict.specific is False
    assert verdict.cross_references == ["Section 2"]


def test_cross_references_ignore_statutes_like_section_508():
    assert cross_references("conformance with Section 508 of the Act") == []
    assert cross_references("the requirements of C.3.1 and Section II.A.") == [
        "C.3.1",
        "Section II.A",
    ]


def test_distinctive_terms_keep_standards_and_paths_verbatim():
    text = "Meet DFARS 252.204-7012, CMMC Level 2, IRS Publication 1075 and the POA&M for SOC 2."
    assert distinctive_terms(text) == [
        "DFARS 252.204-7012",
        "CMMC",
        "Level 2",
        "IRS",
        "Publication 1075",
        "POA&M",
        "SOC 2",
    ]


# --- decomposition ---------------------------------------------------------------------------


def test_seed_compound_question_splits_into_its_two_asks():
    parts = decompose("Describe your approach to migration and your data validation methodology.")
    assert parts.parts == [
        "Describe your approach to migration",
        "Describe your data validation methodology.",
    ]


def test_security_and_compliance_posture_stays_whole():
    result = decompose("Discuss your security and compliance posture.")
    assert result.parts == []
    assert result.log == [
        "kept 'security and compliance posture' whole: a shared modifier or verb, answered jointly"
    ]


def test_repeated_preposition_shares_the_head():
    assert decompose("Describe your approach to encryption at rest and in transit.").parts == [
        "Describe your approach to encryption at rest",
        "Describe your approach to encryption in transit",
    ]


def test_if_so_follow_up_is_its_own_part_and_which_alone_is_not():
    assert decompose(
        "Is data encrypted at rest? If so, describe the algorithm and key management."
    ).parts == [
        "Is data encrypted at rest?",
        "Describe the algorithm and key management.",
    ]
    assert decompose("Are you certified to an international standard? If so, which?").parts == []


def test_verb_coordination_is_not_split():
    assert decompose("Describe how converted data will be validated and reconciled.").parts == []
    assert decompose("Can customers supply and control their own keys?").parts == []


# --- context -------------------------------------------------------------------------------


def test_clean_heading_drops_numbering_and_volume_labels():
    assert clean_heading("3.4 Data Migration") == "Data Migration"
    assert clean_heading("L.4.2 Volume II — Technical Approach") == "Technical Approach"
    assert clean_heading("IV.B Cybersecurity") == "Cybersecurity"
    assert clean_heading("A New Approach") == "A New Approach"


def test_structural_headings_are_recognised():
    assert is_structural("Technical Approach") is True
    assert is_structural("Instructions, Conditions, and Notices to Offerors") is True
    assert is_structural("Data Migration") is False


def test_document_subject_is_the_title_after_the_solicitation_number():
    title = (
        "State of Franklin Department of Health and Human Services — Request for Proposals "
        "DHHS-RFP-2026-0417: Integrated Eligibility and Case Management System (IECMS) "
        "Modernization"
    )
    assert (
        document_subject(title) == "Integrated Eligibility and Case Management System Modernization"
    )


def test_keyword_summary_puts_thesaurus_concepts_first_and_skips_other_questions():
    text = (
        "3.4.3 The Contractor shall execute no fewer than three (3) full trial migrations before "
        "production migration. Question 9. Is data encrypted at rest?"
    )
    assert keyword_summary(text, 4, exclude="Describe your approach. Data Migration") == (
        "execute, full, trial migrations"
    )
    assert keyword_summary(text, 0) == ""


def test_franklin_3_4_7_inherits_heading_and_earlier_paragraphs(shared_data):
    from rfp_retrieval.documents.extract import load_document
    from rfp_retrieval.documents.questions import find_questions

    doc = load_document(shared_data / "rfps_synthetic" / "franklin-dhhs-iecms-modernization-rfp.md")
    question = next(q for q in find_questions(doc) if q.label == "3.4.7")
    ctx = inherit_context(question, doc, ContextConfig())
    assert ctx.heading == "Data Migration"
    assert ctx.outline == []
    assert ctx.skipped == ["3 Scope of Work and Technical Requirements"]
    assert "trial migrations" in ctx.paragraphs
    assert ctx.subject == "Integrated Eligibility and Case Management System Modernization"
    cross = next(q for q in find_questions(doc) if q.label == "3.5.5")
    ref = inherit_context(cross, doc).references[0]
    assert (ref.key, ref.heading) == ("2.4", "Users and Volumes")


def test_window_setting_limits_outline_levels():
    question = Question(
        "q-1",
        "1.2.3.4",
        "Describe your approach.",
        None,
        ["1 Modernization", "1.2 Hosting", "1.2.3 Backup"],
    )
    assert inherit_context(question, None, ContextConfig(outline_levels=0)).outline == []
    assert inherit_context(question, None, ContextConfig(outline_levels=1)).outline == ["Hosting"]
    assert inherit_context(question, None, ContextConfig(outline_levels=2)).outline == [
        "Hosting",
        "Modernization",
    ]


def test_table_row_topic_is_the_heading():
    row = Question(
        "q-9",
        "KM-02",
        "How often are they rotated?",
        None,
        ["Key Management"],
        kind="table-row",
        topic="Key Management",
    )
    ctx = inherit_context(row, None)
    assert (ctx.topic, ctx.heading, ctx.outline) == ("Key Management", "Key Management", [])


# --- offline rewriter ------------------------------------------------------------------------


def test_pronoun_takes_the_table_topic():
    ctx = QuestionContext(heading="Key Management", topic="Key Management")
    assert (
        attach_topic("How often are they rotated?", ctx, [])
        == "How often are key management rotated?"
    )


def test_bare_request_takes_the_heading():
    ctx = QuestionContext(heading="Data Migration")
    log: list[str] = []
    assert (
        attach_topic("Describe your approach.", ctx, log)
        == "Describe your approach to Data Migration"
    )
    assert log == ["bare request: attached the heading 'Data Migration'"]


def test_cross_reference_is_named_by_the_referenced_heading():
    request = RewriteRequest(
        "Describe your approach to the requirements of C.3.6.",
        QuestionContext(
            heading="Management Approach",
            references=[ReferencedSection("C.3.6", "Transition-Out", "successor, non-proprietary")],
        ),
    )
    out = OfflineRewriter().rewrite(request)
    assert out.rewrite == (
        "Describe your approach to the requirements of Transition-Out (C.3.6). "
        "(successor, non-proprietary)"
    )


def test_three_paraphrases_change_the_vocabulary():
    out = paraphrase("Describe your approach to data migration and disaster recovery", "")
    assert out == [
        "Describe your approach to data conversion and continuity of operations",
        "Describe your approach to legacy data cutover and business continuity",
        "Describe your approach to data load and contingency planning",
    ]


def test_offline_rewriter_is_deterministic():
    request = RewriteRequest(
        "Describe your fallback plan.", QuestionContext(heading="Data Migration")
    )
    first, second = OfflineRewriter().rewrite(request), OfflineRewriter().rewrite(request)
    assert (first.rewrite, first.paraphrases) == (second.rewrite, second.paraphrases)
    assert first.rewrite == "Describe your fallback plan — Data Migration"
    assert len(first.paraphrases) == 3


@pytest.mark.parametrize("group", THESAURUS)
def test_every_thesaurus_group_has_four_distinct_phrases(group):
    assert len(group) == 4
    assert len({p.lower() for p in group}) == 4


def test_concepts_match_on_stems_longest_first():
    found = find_concepts("We migrate data and run a data migration")
    assert [(s, e, THESAURUS[g][p]) for s, e, g, p in found] == [
        (1, 2, "migration"),
        (6, 8, "data migration"),
    ]
