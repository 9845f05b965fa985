"""Protected terms (issue 14, defect 1): every query of a question's query set keeps the
asker's exact standards, versions, levels, acronyms and numbers; the validator rejects a
rewrite or paraphrase that changes or adds one; the thesaurus never swaps named standards."""

from __future__ import annotations

import pytest

from rfp_retrieval.documents.records import Question
from rfp_retrieval.rewrite.chain import rewrite_question
from rfp_retrieval.rewrite.context import QuestionContext
from rfp_retrieval.rewrite.offline import paraphrase
from rfp_retrieval.rewrite.records import RewriteOutput, RewriteRequest
from rfp_retrieval.rewrite.terms import index_tokens, keeps_term, protected_terms, words
from rfp_retrieval.rewrite.thesaurus import THESAURUS
from rfp_retrieval.rewrite.validate import validate_output


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Is the platform authorized at FedRAMP Moderate?", ["FedRAMP Moderate"]),
        ("Are all modules validated under FIPS 140-3?", ["FIPS 140-3"]),
        (
            "Map the baseline to NIST SP 800-53 Rev. 5 and Section 508.",
            ["NIST SP 800-53 Rev. 5", "Section 508"],
        ),
        ("Attach your SOC 2 Type II report.", ["SOC 2 Type II"]),
        ("Is it hosted at DoD Impact Level 5 (IL5)?", ["DoD Impact Level 5", "IL5"]),
        (
            "Restore within 4 hours at 99.9% uptime, 24x7, via Login.gov.",
            ["4", "99.9%", "24x7", "Login.gov"],
        ),
    ],
)
def test_protected_terms_keep_versions_levels_and_numbers(text, expected):
    assert protected_terms(text) == expected


def test_keeps_term_is_whole_term_not_prefix():
    assert keeps_term("validated to fips 140-3 level 1", "FIPS 140-3")
    assert not keeps_term("validated to FIPS 140-30", "FIPS 140-3")
    assert not keeps_term("validated to FIPS 140-2", "FIPS 140-3")


def _request(question: str) -> RewriteRequest:
    return RewriteRequest(question, QuestionContext(heading="Hosting"))


def _output(rewrite: str, paraphrases: list[str]) -> RewriteOutput:
    return RewriteOutput(rewrite=rewrite, paraphrases=paraphrases, producer="model")


def test_validator_rejects_a_paraphrase_that_changes_the_impact_level():
    request = _request("Is the cloud service provider authorized at FedRAMP Moderate?")
    good = "Is the cloud service provider authorized at FedRAMP Moderate (Hosting)?"
    output = _output(good, [good, "Is the CSP authorized at FedRAMP High?", good + " now"])
    assert validate_output(request, output) == [
        "paraphrase 2 dropped or changed protected term 'FedRAMP Moderate'",
        "paraphrase 2 adds protected term 'FedRAMP High' the question never named",
    ]


def test_validator_rejects_a_rewrite_that_changes_the_fips_version():
    request = _request("Are cryptographic modules validated under FIPS 140-3?")
    same = "Are cryptographic modules validated under FIPS 140-3 for hosting?"
    output = _output("Are cryptographic modules validated under FIPS 140-2?", [same] * 3)
    assert validate_output(request, output) == [
        "dropped distinctive term 'FIPS 140-3'",
        "rewrite adds protected term 'FIPS 140-2' the question never named",
    ]


def test_validator_rejects_an_added_standard_but_allows_a_thesaurus_acronym():
    request = _request("State your recovery time objective for the portal.")
    added = "State your recovery time objective and Section 508 conformance"
    fine = "State your RTO for the portal"
    output = _output(fine, [fine, fine + " hosting", added])
    assert validate_output(request, output) == [
        "paraphrase 3 adds protected term 'Section 508' the question never named"
    ]


def test_no_group_pairs_two_named_standards():
    flat = {p for group in THESAURUS for p in group}
    assert not flat & {"Section 508", "WCAG", "SAML", "phishing-resistant", "RMF", "OpenAPI"}


def test_accessibility_paraphrases_never_turn_section_508_into_wcag():
    out = paraphrase("Describe how the portal meets Section 508 accessibility standards", "")
    assert len(out) == 3
    assert all("Section 508" in p and "WCAG" not in p for p in out)


def test_sso_and_mfa_with_their_acronyms_keep_the_question_wording():
    question = "Describe single sign-on (SSO) and multi-factor authentication (MFA) for staff."
    out = paraphrase(question, "Privileged Access")
    assert len(out) == 3, "the context still offers a concept to swap"
    assert out[0].endswith("(administrative access)")
    for p in out:
        assert p.startswith(question[:-1].rstrip(".")), p
        assert "SAML" not in p and "phishing-resistant" not in p


def test_every_query_of_an_offline_query_set_keeps_the_protected_terms():
    q = Question(
        "q-1",
        "3.2",
        "How is it authorized at FedRAMP Moderate, and are its keys in FIPS 140-3 modules?",
        "s",
        ["3 Security", "3.2 Encryption and Key Management"],
    )
    result = rewrite_question(q, None)
    assert not result.skipped
    roles = [query.role for query in result.queries]
    assert roles[:2] == ["original", "rewrite"] and "paraphrase_1" in roles
    for query in result.queries:
        if query.role.startswith("part"):
            continue
        assert keeps_term(query.text, "FedRAMP Moderate"), query
        assert keeps_term(query.text, "FIPS 140-3"), query


def test_words_of_any_script_stay_whole():
    # an ASCII-only word pattern split "pública" into "p" + "blica" (and the BM25 tokens with it)
    assert words("Gestión de casos de salud pública (Müller, POA&M)") == [
        "Gestión",
        "de",
        "casos",
        "de",
        "salud",
        "pública",
        "Müller",
        "POA&M",
    ]
    assert index_tokens("Sistema de salud pública") == ["sistema", "de", "salud", "pública"]
