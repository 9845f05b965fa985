"""What a question's pronouns and parts refer to (issue 14: compound and contextual questions).

A split part is read on its own, so it names what its pronoun meant; a pronoun after a thing
the question names refers to that thing, not to the sentences above; the sentences above a
question keep the one nearest to it whole; follow-up asks are not context; a paraphrase never
turns a verb into a phrase.
"""

from __future__ import annotations

from rfp_retrieval.documents.records import Question
from rfp_retrieval.rewrite.chain import rewrite_question
from rfp_retrieval.rewrite.context import keyword_summary, nearest_sentences, points_back
from rfp_retrieval.rewrite.decompose import decompose
from rfp_retrieval.rewrite.offline import paraphrase
from rfp_retrieval.rewrite.thesaurus import THESAURUS, find_concepts


def test_a_later_part_names_what_its_pronoun_meant():
    assert decompose(
        "List the subcontractors that will support the contract and describe how you manage them."
    ).parts == [
        "List the subcontractors that will support the contract",
        "Describe how you manage the subcontractors.",
    ]
    assert decompose(
        "Describe how often backups are taken and how long they are retained."
    ).parts == ["Describe how often backups are taken", "Describe how long backups are retained."]


def test_a_specific_compound_question_retrieves_parts_that_stand_alone():
    q = Question(
        "q-1",
        "Q8",
        "Identify the subprocessors that would handle customer personal data and describe how "
        "you assess them.",
        "s",
        ["4 Security", "4.2 Narrative Questions"],
    )
    result = rewrite_question(q, None)
    assert result.skipped
    assert [(x.role, x.text) for x in result.queries] == [
        ("original", q.text),
        ("part_1", "Identify the subprocessors that would handle customer personal data"),
        ("part_2", "Describe how you assess the subprocessors."),
    ]


def test_a_noun_phrase_part_takes_the_instruction_verb_and_the_subject_not_its_verb():
    assert decompose(
        "Describe what the warranty period covers and the criteria for ending it."
    ).parts == [
        "Describe what the warranty period covers",
        "Describe the criteria for ending the warranty period",
    ]


def test_a_pronoun_meaning_a_demonstrative_phrase_is_left_to_the_context():
    # "this period" is itself what the sentences above describe: the part keeps its pronoun
    assert decompose(
        "Describe what this period includes and the criteria for ending it."
    ).parts == [
        "Describe what this period includes",
        "Describe the criteria for ending it",
    ]


def test_a_pronoun_after_a_named_thing_does_not_point_back():
    assert points_back("Describe your approach and the staff resources it will require.") is False
    assert points_back("Describe how often backups are taken and how long they are kept.") is False
    assert points_back("What happens if one of them leaves?") is True
    assert points_back("How is it backed up?") is True
    assert points_back("Describe what this period includes and the criteria for ending it.") is True


def test_the_cap_on_the_sentences_above_keeps_the_nearest_one_whole():
    text = (
        "The first sentence names the warranty obligations for every release. The second "
        "sentence says the team stays engaged for several weeks after each launch."
    )
    assert nearest_sentences(text) == text
    assert nearest_sentences(text, max_words=20) == (
        "The first sentence names the warranty … The second sentence says the team stays "
        "engaged for several weeks after each launch."
    )
    assert nearest_sentences(text, max_words=5) == "… several weeks after each launch."


def test_a_follow_up_ask_is_not_paragraph_context():
    assert keyword_summary("If so, describe the algorithm and key management.", 6) == ""
    assert keyword_summary("Otherwise, explain the key management approach.", 6) == ""
    assert keyword_summary("Keys are held in a hardware security module.", 6) != ""


def test_a_verb_in_ed_is_never_swapped_for_a_phrase():
    # "retained" is matched through its stem only: no phrase of its group is in its form, so
    # it is never swapped ("How long are backups keep" was a nonsense variant, issue 15);
    # "hold on to" and "continuity of staff" are never put in its place
    out = paraphrase("How long are backups retained", "")
    assert out == [
        "How long are snapshots retained",
        "How long are replicas retained",
    ]
    assert not [p for p in out if "hold on to" in p or "continuity of staff" in p]


def test_the_vendor_is_not_a_subprocessor():
    # in an RFP "the vendor" is the offeror; a subprocessor is the vendor's own supplier
    assert find_concepts("The vendor must show it each year.") == []
    group = next(g for g in THESAURUS if g[0] == "subprocessors")
    assert not [p for p in group if "vendor" in p]
