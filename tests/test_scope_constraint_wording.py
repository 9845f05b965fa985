"""Constraint wording of Section L read the way a proposal veteran reads it (issue 18).

Exclusion wording ("under $1M will not be evaluated") states a floor, not a ceiling, and says
whether the bound amount itself counts; contradictory value statements are shown to the
writer with the rule applied; the common recency wordings ("from the last 3 years", "no older
than three years") are windows. Each RFP here is a small text written for the test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.report.filters import filter_sentence
from rfp_retrieval.scope import read_scope


def _read(tmp_path: Path, pp_text: str):
    path = tmp_path / "rfp.md"
    path.write_text(
        "# Request for Proposals: Permit Portal Modernization\n\nIssue date: 2026-09-01\n\n"
        "## 1. Scope\n\nThe contractor will modernize the permit portal.\n\n"
        "## 3.3 Past Performance\n\n3.3.1 Submit three (3) references for similar work.\n\n"
        f"3.3.2 {pp_text}\n",
        encoding="utf-8",
    )
    return read_scope(load_document(path))


def _value_item(reading) -> dict:
    (item,) = [t for t in reading.trace if t["filter"] == "value"]
    return item


@pytest.mark.parametrize(
    ("sentence", "floor", "inclusive", "said"),
    [
        (
            "References valued under $1M will not be evaluated.",
            1_000_000,
            True,
            "contract value at least $1.0M",
        ),
        (
            "Contracts with a value below $500,000 are not acceptable as references.",
            500_000,
            True,
            "contract value at least $500K",
        ),
        (
            "Reference contracts of $500K or less will not be considered.",
            500_000,
            False,
            "contract value more than $500K",
        ),
    ],
)
def test_exclusion_wording_reads_a_floor_and_says_whether_it_is_strict(
    tmp_path: Path, sentence: str, floor: int, inclusive: bool, said: str
) -> None:
    reading = _read(tmp_path, sentence)
    assert (reading.value_min, reading.value_max) == (floor, None)
    item = _value_item(reading)
    assert item["reading"]["min_inclusive"] is inclusive
    assert "3.3 Past Performance" in item["section"]
    assert filter_sentence(item) == said


def test_exclusion_of_large_contracts_is_a_ceiling(tmp_path: Path) -> None:
    reading = _read(
        tmp_path, "References for contracts valued at more than $50 million will not be considered."
    )
    assert (reading.value_min, reading.value_max) == (None, 50_000_000)
    assert _value_item(reading)["reading"]["max_inclusive"] is True


def test_a_negated_minimum_that_is_turned_away_stays_a_floor(tmp_path: Path) -> None:
    reading = _read(
        tmp_path,
        "References that do not meet a minimum value of $2 million will not be considered.",
    )
    assert (reading.value_min, reading.value_max) == (2_000_000, None)


def test_contradictory_value_sentences_apply_the_first_and_warn(tmp_path: Path) -> None:
    reading = _read(
        tmp_path,
        "Each reference must have a total value of at least $10 million.\n\n"
        "3.3.3 References must be for contracts of not more than $5 million.",
    )
    assert (reading.value_min, reading.value_max) == (10_000_000, None)
    item = _value_item(reading)
    assert "at least $10 million" in item["reading"]["conflict"]
    assert "not more than $5 million" in item["reading"]["conflict"]
    assert reading.value_conflict == item["reading"]["conflict"]
    assert "WARNING: the RFP's value statements contradict" in filter_sentence(item)


def test_a_later_sentence_stating_the_other_side_completes_the_band(tmp_path: Path) -> None:
    reading = _read(
        tmp_path,
        "Each reference must have a total value of at least $5 million.\n\n"
        "3.3.3 References valued above $100 million will not be considered.",
    )
    assert (reading.value_min, reading.value_max) == (5_000_000, 100_000_000)
    assert reading.value_conflict is None
    assert reading.value_text == "at least $5 million; above $100 million will not be considered"
    assert _value_item(reading)["reading"]["max_inclusive"] is True


def test_a_band_stated_in_reverse_order_is_read_low_to_high_with_a_warning(tmp_path: Path) -> None:
    reading = _read(tmp_path, "Each reference must have a contract value between $10M and $1M.")
    assert (reading.value_min, reading.value_max) == (1_000_000, 10_000_000)
    assert "reverse order" in _value_item(reading)["reading"]["conflict"]


def test_one_sentence_floor_above_its_ceiling_keeps_the_first_bound(tmp_path: Path) -> None:
    reading = _read(tmp_path, "Each reference must be valued at least $10M and not more than $5M.")
    assert (reading.value_min, reading.value_max) == (10_000_000, None)
    assert "floor above its ceiling" in _value_item(reading)["reading"]["conflict"]


@pytest.mark.parametrize(
    ("sentence", "ended_after"),
    [
        ("Provide references from the last 3 years.", "2023-09-01"),
        ("Reference projects must be no older than two (2) years.", "2024-09-01"),
        ("References must not be more than five years old.", "2021-09-01"),
        ("References covering the past 5 years are acceptable.", "2021-09-01"),
    ],
)
def test_common_recency_wordings_are_windows(
    tmp_path: Path, sentence: str, ended_after: str
) -> None:
    reading = _read(tmp_path, sentence)
    assert reading.ended_after == ended_after
    assert reading.recency_anchor == "issue date"


@pytest.mark.parametrize(
    "sentence",
    [
        "References must be from electric, gas or water utilities or other commercial "
        "enterprises; at least one must be a utility.",
        "References must be from utilities or other commercial enterprises. At least one (1) "
        "of the references must be for an electric utility.",
    ],
)
def test_a_quota_over_the_references_ranks_and_does_not_filter_every_reference(tmp_path, sentence):
    """New-user trial: "at least one must be a utility" became an industry filter on all
    three references, so only one entry passed and relaxation filled the rest with decade-old
    work. A quota says some references, not every one: the industry is preferred (ranking)."""
    reading = _read(tmp_path, sentence)
    assert reading.industries_required == []
    assert reading.industries_preferred == ["utilities"]
    assert reading.customer_types_required == ["commercial"]


@pytest.mark.parametrize(
    ("sentence", "types", "preferred"),
    [
        (
            "Provide three (3) references for permitting system implementations for county "
            "courts, sheriff's offices or other local government clients.",
            ["local"],
            ["courts and justice"],
        ),
        (
            "References must be for state Medicaid agencies, human services departments or "
            "other state government agencies.",
            ["state"],
            ["health and human services"],
        ),
        (
            "References must come from public hospitals, county health systems or other "
            "county agencies.",
            ["local"],
            ["healthcare"],
        ),
    ],
)
def test_an_industry_closed_by_other_customer_type_clients_is_an_example_not_a_filter(
    tmp_path, sentence, types, preferred
):
    """New-user trial H1: "municipal utilities, public utility districts or other local
    government clients" read utilities as a required industry, so one entry passed. The list's
    closing class is what the RFP insists on (the customer type); the industry named before it
    is an example of that class: it ranks as preferred and does not filter."""
    reading = _read(tmp_path, sentence)
    assert reading.customer_types_required == types
    assert reading.industries_required == []
    assert reading.industries_preferred == preferred


def test_an_industry_named_as_the_kind_of_customer_still_filters(tmp_path):
    """The counterpart: without a wider class closing the list the industry is required."""
    reading = _read(tmp_path, "References must be for state Medicaid agencies.")
    assert reading.customer_types_required == ["state"]
    assert reading.industries_required == ["health and human services"]
    assert reading.industries_preferred == []


def test_a_wider_class_in_mid_list_makes_no_industry_preferred(tmp_path):
    """ "Utilities, other commercial enterprises, or state and local government agencies":
    utilities is an example of commercial clients only, the government kinds after it are
    equal alternatives, so nothing is required and nothing is ranked first."""
    reading = _read(
        tmp_path,
        "References must be from hospitals, other commercial enterprises, or state and local "
        "government agencies.",
    )
    assert reading.customer_types_required == ["commercial", "state", "local"]
    assert reading.industries_required == []
    assert reading.industries_preferred == []


@pytest.mark.parametrize(
    ("sentence", "types", "required", "either"),
    [
        # the industry is one acceptable kind beside another: not required of every reference
        ("References must be for municipal utilities or county governments.", ["local"], [], []),
        ("References must be for county governments or municipal utilities.", ["local"], [], []),
        (
            "References must be for state human services agencies or county governments.",
            ["state", "local"],
            [],
            [],
        ),
        # the industry qualifies the kind: required
        (
            "References must be for state Medicaid or human services agencies.",
            ["state"],
            ["health and human services"],
            [],
        ),
        (
            "References must be for state or local human services agencies.",
            ["state", "local"],
            ["health and human services"],
            [],
        ),
        # an industry with no customer kind of its own beside a kind: type OR industry
        (
            "References must be from state agencies or electric utilities.",
            ["state"],
            [],
            ["utilities"],
        ),
        (
            "References must be from electric utilities or state agencies.",
            ["state"],
            [],
            ["utilities"],
        ),
    ],
)
def test_an_industry_named_as_one_alternative_kind_is_not_required(
    tmp_path, sentence, types, required, either
):
    """ "Municipal utilities or county governments": any county government qualifies, so a
    utility is one acceptable kind, not an industry every reference must be in (the filters
    AND the customer type and the industry)."""
    reading = _read(tmp_path, sentence)
    assert reading.customer_types_required == types
    assert reading.industries_required == required
    assert reading.industries_alternative == either


@pytest.mark.parametrize(
    ("sentence", "types", "preferred"),
    [
        (
            "References must be from commercial firms, such as banks or insurers.",
            ["commercial"],
            ["insurance", "finance"],
        ),
        (
            "References must be for state agencies, for example Medicaid or workforce agencies.",
            ["state"],
            ["health and human services", "labor and workforce"],
        ),
        # several kinds allowed: the examples illustrate the last one and rank nothing
        (
            "References may be from state agencies, federal agencies, or private firms, "
            "such as banks or insurers.",
            ["state", "federal-civilian", "commercial"],
            [],
        ),
    ],
)
def test_industries_after_such_as_are_examples_that_rank(tmp_path, sentence, types, preferred):
    """customers.EXAMPLES_RULE: examples of the allowed kind never filter, they rank."""
    reading = _read(tmp_path, sentence)
    assert reading.customer_types_required == types
    assert reading.industries_required == []
    assert reading.industries_preferred == preferred
