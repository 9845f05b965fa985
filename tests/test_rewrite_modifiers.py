"""Paraphrase swaps keep the noun phrase's head (issue 15, r2write: "staffing plan" became
"labor categories plan"): a thesaurus phrase that modifies the next noun is swapped only for a
phrase that stays a modifier, never for a plural that would read as a head of its own; a
verb before its object is not swapped for a noun. Fresh text, not from a dev document."""

from __future__ import annotations

from rfp_retrieval.rewrite.offline import paraphrase


def test_a_modifier_never_becomes_a_plural_head():
    out = paraphrase("Submit a staffing plan for the first ninety days of the contract.", "")
    assert out == [
        "Submit a personnel plan for the first ninety days of the contract.",
        "Submit a team plan for the first ninety days of the contract.",
    ]


def test_a_plural_option_is_kept_where_the_phrase_is_a_whole_noun_phrase():
    out = paraphrase("Summarize how your firm approaches staffing.", "")
    assert "Summarize how your firm approaches labor categories." in out


def test_a_modifier_before_a_document_name_keeps_its_head():
    out = paraphrase("Explain how the service level table will be maintained.", "")
    assert out == ["Explain how the SLA table will be maintained."]
    # a plural modifier as written may become another plural
    plural = paraphrase("Explain how the service levels table will be maintained.", "")
    assert "Explain how the service level agreements table will be maintained." in plural


def test_a_phrase_before_a_participle_is_no_modifier():
    out = paraphrase("How often are access reviews completed?", "")
    assert "How often are entitlement reviews completed?" in out
    assert "How often are access recertification completed?" in out


def test_no_swap_repeats_the_head_it_modifies():
    out = paraphrase("Summarize your disaster recovery plan for the permit system.", "")
    assert out == ["Summarize your business continuity plan for the permit system."]


def test_a_verb_before_its_object_is_not_swapped_for_a_noun():
    out = paraphrase("Explain your approach to staffing the night shift.", "")
    assert all("staffing the night shift" in p for p in out)
    assert not any("personnel the" in p or "team the" in p for p in out)
