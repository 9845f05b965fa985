"""How past-performance phrases become ScopeQuery filters (hand-written RFP snippets)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.quantities.money import money_mentions
from rfp_retrieval.scope import read_scope
from rfp_retrieval.scope.section_lm.records import APPROX_BAND


def scope_of(
    tmp_path: Path,
    pp_text: str,
    *,
    issue: str | None = "June 8, 2026",
    issuer: str = "U.S. Department of Agriculture (USDA), Food and Nutrition Service (FNS)",
    background: str = "The agency runs a case system.",
    as_of: dt.date | None = None,
):
    header = f"**Issuing Agency:** {issuer}\n"
    if issue:
        header += f"**Issue Date:** {issue}\n"
    text = (
        f"# Test RFP\n\n{header}\n## 1. Background\n\n{background}\n\n"
        f"## 2. Scope of Work\n\nMigrate the system to the cloud.\n\n"
        f"## 3. Past Performance\n\n{pp_text}\n"
    )
    path = tmp_path / "rfp.md"
    path.write_text(text, encoding="utf-8")
    return read_scope(load_document(path), as_of=as_of)


@pytest.mark.parametrize(
    ("sentence", "years", "ended_after"),
    [
        ("References must be for work performed within the last five (5) years.", 5, "2021-06-08"),
        (
            "Each contract must be completed or ongoing within 36 months of the RFP release date.",
            3,
            "2023-06-08",
        ),
        (
            "Each contract must be ongoing or completed within the past twenty-four (24) months.",
            2,
            "2024-06-08",
        ),
        ("Only work performed since FY2021 will be considered.", None, "2020-10-01"),
        (
            "References must cover work performed at any time since January 1, 2022.",
            None,
            "2022-01-01",
        ),
        ("References must reflect efforts performed within the past 18 months.", 1.5, "2024-12-08"),
    ],
)
def test_recency_phrases(tmp_path, sentence, years, ended_after):
    r = scope_of(tmp_path, sentence)
    assert (r.recency_years, r.ended_after, r.started_after) == (years, ended_after, None)
    assert r.trace[[t["filter"] for t in r.trace].index("recency")]["sentence"] == sentence


def test_contracts_awarded_within_a_window_set_started_after(tmp_path):
    r = scope_of(tmp_path, "References must be for contracts awarded within the last three years.")
    assert (r.started_after, r.ended_after) == ("2023-06-08", None)


@pytest.mark.parametrize(
    ("sentence", "low", "high", "approx"),
    [
        (
            "Each reference must have a total contract value of $10-30M.",
            10_000_000,
            30_000_000,
            None,
        ),
        ("Each reference must have a total value of $8M to $25M.", 8_000_000, 25_000_000, None),
        (
            "Each reference must be valued between ten and thirty million dollars.",
            10_000_000,
            30_000_000,
            None,
        ),
        ("Each reference must have a value of at least $5 million.", 5_000_000, None, None),
        (
            "References must have at least $15 million in total contract value.",
            15_000_000,
            None,
            None,
        ),
        (
            "References with a total contract value below $2 million will not be considered "
            "relevant.",
            2_000_000,
            None,
            None,
        ),
        (
            "Each reference must have a total contract value of $50-80M.",
            50_000_000,
            80_000_000,
            None,
        ),
        (
            "References must be comparable in size (approximately $25M).",
            int(25_000_000 * APPROX_BAND[0]),
            int(25_000_000 * APPROX_BAND[1]),
            25_000_000,
        ),
        (
            "Each reference must have a contract value of no more than $12.5 million.",
            None,
            12_500_000,
            None,
        ),
    ],
)
def test_value_phrases(tmp_path, sentence, low, high, approx):
    r = scope_of(tmp_path, sentence)
    assert (r.value_min, r.value_max, r.value_approx) == (low, high, approx)


def test_dollar_figures_that_are_not_contract_values_are_ignored(tmp_path):
    r = scope_of(
        tmp_path,
        "Submit three (3) references. References should be similar in scope; no minimum dollar "
        "value is set. Proposals priced above $4 million will not be considered.",
        background="FNS awards about $9 billion in grants each year. The NAICS size standard "
        "is $34 million.",
    )
    assert (r.value_min, r.value_max, r.value_text) == (None, None, None)
    assert any(t["reading"] == "no value constraint" for t in r.trace)


@pytest.mark.parametrize(
    ("sentence", "types", "industries"),
    [
        ("References must be for federal civilian agencies.", ["federal-civilian"], []),
        ("References must be for federal agencies.", ["federal-civilian", "federal-defense"], []),
        (
            "References must be for federal, state or local government customers.",
            ["federal-civilian", "federal-defense", "state", "local"],
            [],
        ),
        (
            "References shall be for Department of Defense (DoD) components only.",
            ["federal-defense"],
            [],
        ),
        (
            "References shall be for Department of Defense or other federal agencies.",
            ["federal-defense", "federal-civilian"],
            [],
        ),
        (
            "Each reference must be for a state Medicaid agency or a state health and human "
            "services agency.",
            ["state"],
            ["health and human services"],
        ),
        ("References must be municipal or county governments.", ["local"], []),
        (
            "References may be from any industry or sector; each reference must be for a client "
            "in any sector.",
            [],
            [],
        ),
    ],
)
def test_customer_type_phrases(tmp_path, sentence, types, industries):
    r = scope_of(tmp_path, sentence)
    assert (r.customer_types_required, r.industries_required) == (types, industries)


def test_excluded_customers_are_not_read_as_required(tmp_path):
    r = scope_of(
        tmp_path,
        "Only contracts performed for federal civilian agencies will be accepted. Commercial, "
        "state and Department of Defense contracts will not be considered relevant.",
    )
    assert r.customer_types_required == ["federal-civilian"]


def test_prime_requirement(tmp_path):
    assert (
        scope_of(
            tmp_path, "Submit three (3) references for work performed as a prime contractor."
        ).require_prime
        is True
    )
    assert (
        scope_of(
            tmp_path,
            "Submit three (3) references for work on which the offeror "
            "served as prime contractor or as a major subcontractor.",
        ).require_prime
        is False
    )


def test_no_issue_date_uses_as_of_then_the_wall_clock(tmp_path):
    sentence = "References must be for work performed within the last five (5) years."
    r = scope_of(tmp_path, sentence, issue=None, as_of=dt.date(2026, 11, 30))
    assert (r.rfp_date, r.recency_anchor, r.ended_after) == (None, "as_of", "2021-11-30")
    today = scope_of(tmp_path, sentence, issue=None)
    assert today.recency_anchor == "today"
    assert today.ended_after == dt.date.today().replace(year=dt.date.today().year - 5).isoformat()


def test_issuer_types_from_the_issuing_line(tmp_path):
    cases = {
        "Ohio Department of Medicaid (ODM)": ("state", "ODM", "State of Ohio"),
        "Miami-Dade County, Information Technology Department (ITD)": (
            "local",
            "ITD",
            "Miami-Dade County",
        ),
        "Cascade Freight Logistics, Inc., Information Technology": ("commercial", None, None),
        "George Mason University, Purchasing Department": ("state", None, None),
        "Department of the Navy, Naval Supply Systems Command (NAVSUP)": (
            "federal-defense",
            "NAVSUP",
            "Navy",
        ),
    }
    for issuer, expected in cases.items():
        r = scope_of(tmp_path, "Submit three (3) references.", issuer=issuer)
        assert (r.issuer_type, r.issuer_acronym, r.parent_agency) == expected, issuer


def test_money_mentions_read_amounts_and_shorthand_ranges():
    text = "Values of $10-30M, $1.4 million, $7,200,000.00, thirty million dollars, 12 FTE."
    assert [(m.value, m.upper) for m in money_mentions(text)] == [
        (10_000_000, 30_000_000),
        (1_400_000, None),
        (7_200_000, None),
        (30_000_000, None),
    ]


def test_words_that_do_not_name_a_customer_kind_are_not_customer_types(tmp_path):
    r = scope_of(
        tmp_path,
        "Provide a list of three (3) references that may be contacted by the State. The "
        "contractor must demonstrate similar experience that gives the government evaluation "
        "team a full view of the work.",
    )
    assert (r.references_required, r.customer_types_required) == (3, [])


def test_schedule_windows_are_not_recency(tmp_path):
    r = scope_of(
        tmp_path,
        "Submit three (3) references.",
        background="Full operating capability is required within 24 months after contract "
        "award. The incumbent contract was completed in 2019.",
    )
    assert (r.recency_years, r.ended_after) == (None, None)
