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
