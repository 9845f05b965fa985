"""Paraphrases keep the sentence grammatical (a swap never changes a word's class)."""

from __future__ import annotations

from rfp_retrieval.rewrite.offline import _fits, _fix_article, paraphrase, same_word_class


def test_a_verb_after_a_modal_is_not_swapped_for_a_noun():
    out = paraphrase("Proposals should measure their level of effort.", "")
    assert all("measurement" not in p and "metrics their" not in p for p in out)
    assert out == []


def test_a_swap_keeps_the_word_class_and_does_not_repeat_the_next_word():
    out = paraphrase("Provide a list of projects of a similar scope and relevance.", "")
    assert out == [
        "Provide a list of projects of a similar scope and similarity.",
        "Provide a list of projects of a similar scope and comparable scope.",
        "Provide a list of projects of a similar scope and applicability.",
    ]
    assert same_word_class("relevance", "applicability")
    assert same_word_class("migration", "load")
    assert not same_word_class("measure", "measurement")
    assert not same_word_class("similar", "applicability")


def test_the_indefinite_article_follows_the_swapped_word():
    assert _fix_article("Provide an ", "review") == "Provide a "
    assert _fix_article("Provide a ", "audit") == "Provide an "
    assert _fix_article("Provide a ", "user survey") == "Provide a "
    assert _fix_article("Provide a ", "SOC 2 report") == "Provide a "


def test_a_noun_before_punctuation_or_a_preposition_takes_any_phrase_of_its_group():
    assert _fits("Phase-In", "knowledge acquisition", " (The incumbent will")
    assert _fits("relevance", "comparable scope", " and past work")
    assert not _fits("measure", "measurement", " their level")
    assert not _fits("similar", "applicability", " scope and")
    assert not _fits("similar", "comparable scope", " scope and")


def test_no_repeated_neighbour_and_no_adjective_turned_into_a_phrase():
    assert paraphrase("Describe how you measure user adoption.", "") == [
        "Describe how you measure user usage.",
        "Describe how you measure user uptake.",
    ]
    assert paraphrase("Describe relevant contracts of similar scope.", "") == []


def test_a_generic_noun_after_each_and_a_possessive_are_not_swapped():
    """trial 11 (M5): "describe its approach to each task" became "each caseload"."""
    out = paraphrase("The quoter shall describe its approach to each task in Section C.3.", "")
    assert out == ["quoter approach task Section C.3"]  # nothing to swap: the keyword form
    out = paraphrase("Describe the work's schedule and the work plan.", "")
    assert out[0] == "Describe the work's schedule and the workload plan."
    assert all(p.startswith("Describe the work's schedule") for p in out)


def test_a_referenced_heading_the_question_already_writes_is_not_named_again():
    """trial 11 (M5): "each task in Section C.3" became "each task in Tasks (Section C.3)"."""
    from rfp_retrieval.rewrite.context import QuestionContext, ReferencedSection
    from rfp_retrieval.rewrite.offline import name_references

    question = "The quoter shall describe its approach to each task in Section C.3."
    log: list[str] = []
    ctx = QuestionContext(references=[ReferencedSection("C.3", "Tasks", "")])
    assert name_references(question, ctx, log) == question
    assert log == ["reference 'C.3' not named: the question writes 'Tasks'"]
    ctx = QuestionContext(references=[ReferencedSection("C.3", "Security Operations", "")])
    assert name_references(question, ctx, []) == (
        "The quoter shall describe its approach to each task in Security Operations (Section C.3)."
    )


def test_its_after_the_sentences_own_subject_is_not_the_heading():
    """trial 11 (M5): "The quoter shall describe its approach" became "tasks's approach"."""
    from rfp_retrieval.rewrite.context import QuestionContext
    from rfp_retrieval.rewrite.offline import attach_topic

    question = "The quoter shall describe its approach to each task in Section C.3."
    log: list[str] = []
    assert attach_topic(question, QuestionContext(heading="Tasks"), log) == question
    assert log == ["'its' is the sentence's own subject's: not resolved"]
    # a bare "its" still takes the heading, with the plural possessive written as one
    assert (
        attach_topic("Describe its retention period.", QuestionContext(heading="Audit Logs"), [])
        == "Describe audit logs' retention period."
    )
