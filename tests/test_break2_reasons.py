"""Break-it round 2: why-cite reasons on odd library entries (report/reasons.py)."""

from __future__ import annotations

from rfp_retrieval.report.reasons import shared_phrases, why_cite

SCOPE = {
    "section_headings": ["Call Center Modernization"],
    "text_whole": "call center modernization for the state",
    "text_outcome": "",
    "emphasized_domains": ["crm"],
}
RELEVANCE = [{"sentence": "Show call center modernization.", "section": "RFP > L > L.3"}]


def test_an_entry_without_a_title_still_gets_its_reasons_from_the_description():
    entry = {
        "title": None,
        "technical_description": "Call center modernization",
        "domains": ["crm"],
    }
    assert why_cite(entry, SCOPE, RELEVANCE) == [
        'Meets the RFP\'s relevance criterion "Show call center modernization." (L > L.3): '
        "call center modernization.",
        'Matches the RFP\'s scope section "Call Center Modernization": call center modernization.',
        "Covers the domains the RFP emphasises: crm.",
    ]


def test_an_entry_of_only_numbers_gives_no_phrase_only_its_metric():
    entry = {"title": "2019 2020", "technical_description": "123 456", "outcome_metrics": ["99.9%"]}
    assert why_cite(entry, SCOPE, RELEVANCE) == ['Outcome to quote: "99.9%".']


def test_accented_words_are_quoted_whole_in_a_shared_phrase():
    shared = shared_phrases("Gestión de casos de salud pública", "Sistema de salud pública")
    assert "salud pública" in shared
    assert not [p for p in shared if "p blica" in p or "gesti" in p]


def test_a_compound_criterion_is_not_met_by_its_last_two_words_used_as_a_modifier():
    """trial 11 (M7): "industrial control system security" was "met" by an entry's "system
    security plan" (a plan, not the security of control systems)."""
    criterion = (
        "Each reference shall be similar in scope to Section C (security operations, "
        "incident response or industrial control system security)."
    )
    entry = "We maintained the system security plan and supported the security assessment."
    assert shared_phrases(criterion, entry) == []
    # the same head noun in the entry still meets it, and a modifier-only use in the RFP
    # ("service request CRM" for "CRM for service requests") still counts
    assert shared_phrases(criterion, "Hardened control system security.") == [
        "control system security"
    ]
    assert shared_phrases("CRM for service requests.", "a service request CRM") == [
        "service requests"
    ]
