"""Past-performance rules stated the other way round or with "should" (new-user trial, session
16: each sentence below read no filter, or a wrong one). Hand-written snippets, not taken from
a dev document; the 55 dev scopes and the shared RFPs read the same before and after."""

from __future__ import annotations

import pytest

from tests.test_scope_phrases import scope_of


@pytest.mark.parametrize(
    ("sentence", "years", "ended_after"),
    [
        ("Offerors shall provide three references. Projects older than five years will not be "
         "considered.", 5, "2021-06-08"),
        ("Work completed more than three years before the proposal due date will not be "
         "considered.", 3, "2023-06-08"),  # no due date stated: the issue date anchors it
        ("Projects that ended more than three (3) years ago will not be considered.", 3,
         "2023-06-08"),
        ("References for projects completed before January 1, 2022 will not be accepted.", None,
         "2022-01-01"),
        ("Contracts completed prior to March 1, 2021 are not acceptable.", None, "2021-03-01"),
    ],
)  # fmt: skip
def test_a_window_stated_as_an_exclusion_is_the_recency_window(
    tmp_path, sentence, years, ended_after
):
    scope = scope_of(tmp_path, sentence)
    assert (scope.recency_years, scope.ended_after) == (years, ended_after)


def test_an_exclusion_that_names_no_age_reads_no_window(tmp_path):
    # "more than 5 years of experience" is a size of the team, not the age of the work
    scope = scope_of(
        tmp_path,
        "Offerors shall provide three references. Firms with more than 5 years of experience "
        "in the field will not be considered less favorably.",
    )
    assert (scope.recency_years, scope.ended_after) == (None, None)


@pytest.mark.parametrize(
    "sentence",
    [
        "Offerors shall not submit references for work performed as a subcontractor. Offerors "
        "shall provide three references.",
        "Offerors should provide three references for work performed as the prime contractor.",
    ],
)
def test_prime_only_stated_as_a_prohibition_or_with_should(tmp_path, sentence):
    scope = scope_of(tmp_path, sentence)
    assert (scope.require_prime, scope.references_required) == (True, 3)


def test_should_states_the_references_asked_for_in_a_capability_statement(tmp_path):
    scope = scope_of(
        tmp_path,
        "Respondents should describe up to three (3) relevant projects performed as the prime "
        "contractor within the last three (3) years for federal government customers.",
    )
    assert scope.references_required == 3
    assert scope.require_prime is True
    assert (scope.recency_years, scope.ended_after) == (3, "2023-06-08")
    assert scope.customer_types_required == ["federal-civilian", "federal-defense"]


def test_a_customer_left_out_with_other_than_is_no_industry_required(tmp_path):
    scope = scope_of(
        tmp_path,
        "Offerors shall provide three (3) references; references must be for work performed "
        "for government agencies other than the State Department of Transportation.",
    )
    assert scope.industries_required == []
    government = ["federal-civilian", "federal-defense", "state", "local"]
    assert scope.customer_types_required == government


def test_a_quota_over_the_references_is_a_rule_on_the_set_and_a_qualification_is_not(tmp_path):
    scope = scope_of(
        tmp_path,
        "The Offeror shall have implemented at least two (2) systems for a city or county "
        "government. Offerors shall provide three (3) references. At least one reference must "
        "be a county government.",
    )
    (item,) = [t for t in scope.trace if t["filter"] == "customer_types_in_set"]
    assert item["reading"] == ["local"]
    assert item["sentence"] == "At least one reference must be a county government."
    assert scope.customer_types_required == []  # a rule on the set never filters each pick
