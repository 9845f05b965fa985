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
        # a permission reads narrowly: plain "federal agencies" allows civilian agencies; an RFP
        # that accepts defense work names it, says "any", or names every level of government
        ("References must be for federal agencies.", ["federal-civilian"], []),
        (
            "References must be for state or federal government agencies.",
            ["state", "federal-civilian"],
            [],
        ),
        (
            "Any federal agency is an acceptable customer.",
            ["federal-civilian", "federal-defense"],
            [],
        ),
        (
            "References must be for the Department of Defense or other federal agencies.",
            ["federal-defense", "federal-civilian"],
            [],
        ),
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


@pytest.mark.parametrize(
    ("sentence", "prime"),
    [
        ("The Offeror must have been the prime contractor on each referenced contract.", True),
        ("The offeror shall have been the prime contractor on each reference.", True),
        ("Each reference must be a contract on which the Offeror was the prime.", True),
        # a preference, or prime or sub, is no requirement
        ("References where the offeror was the prime contractor are preferred.", False),
        ("The offeror must have been the prime contractor or a subcontractor.", False),
    ],
)
def test_prime_requirement_stated_of_the_offeror(tmp_path, sentence, prime):
    pp_text = f"Submit three (3) references of similar scope. {sentence}"
    assert scope_of(tmp_path, pp_text).require_prime is prime


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
        "Lakeshore Health System (LHS), Patient Access Department": ("commercial", "LHS", None),
        "Harris County Hospital District": ("local", None, "Harris County"),
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


# --------------------------------------------------------------------------------------------
# issue 18: constraint wording (exclusions, one-sided and approximate values, date-keyed
# windows, reference counts other than three, customer-type vocabulary)


@pytest.mark.parametrize(
    ("sentence", "types"),
    [
        (  # defect 1: the "only" half is kept, the exclusion agrees with it
            "Public sector references only; commercial references will not be considered.",
            ["federal-civilian", "federal-defense", "state", "local"],
        ),
        ("References must not be for federal agencies.", ["state", "local", "commercial"]),
        (
            "Contracts with private companies, nonprofit organizations or foreign governments "
            "will not be accepted as references.",
            ["federal-civilian", "federal-defense", "state", "local"],
        ),
        (
            "Work for state or local governments or for commercial clients does not qualify.",
            ["federal-civilian", "federal-defense"],
        ),
        (
            "References from customers other than federal civilian agencies will not be "
            "considered.",
            ["federal-civilian"],
        ),
        (
            "References may be for any government agency except the Department of Defense; "
            "work for commercial firms is not eligible.",
            ["federal-civilian", "state", "local"],
        ),
        (
            "Each reference must be for a state agency. Federal and private-sector references "
            "do not meet this requirement.",
            ["state"],
        ),
        ("Each reference must be for a tribal government or a state agency.", ["state"]),
        ("References must be for commercial clients only.", ["commercial"]),
        ("References must be from the private sector only.", ["commercial"]),
        ("References must be for state and local government agencies.", ["state", "local"]),
        (
            "Only work for state, county or municipal governments will be accepted.",
            ["state", "local"],
        ),
        (
            "References must be for civilian agencies of the federal government.",
            ["federal-civilian"],
        ),
        (
            "References must be for federal civilian agencies; Department of Defense work is "
            "not eligible.",
            ["federal-civilian"],
        ),
        (
            "References may come from federal agencies, state or local governments, or "
            "commercial enterprises.",
            [],  # every kind allowed: no filter
        ),
        (
            "References must be for federal agencies. Experience with commercial clients is not "
            "required.",
            ["federal-civilian"],
        ),
        (  # the leading reason names no rule; an exclusion of "federal agencies" is broad
            "Because federal personnel rules differ from municipal civil service rules, "
            "references for federal agencies or foreign governments will not be considered.",
            ["state", "local", "commercial"],
        ),
        (  # a list closed by an unqualified "or other organizations" admits every kind
            "References may come from health systems, government agencies (federal, state or "
            "local) or other organizations running large contact centers.",
            [],
        ),
    ],
)
def test_customer_rules_read_exclusions_and_vocabulary(tmp_path, sentence, types):
    r = scope_of(tmp_path, sentence)
    assert r.customer_types_required == types


@pytest.mark.parametrize(
    ("sentence", "types"),
    [  # a kind written as the adjective of "references" names a customer with no customer noun
        (
            "Commercial references will not be accepted.",
            ["federal-civilian", "federal-defense", "state", "local"],
        ),
        (
            "Submit three (3) references. Commercial references will not be considered.",
            ["federal-civilian", "federal-defense", "state", "local"],
        ),
        (
            "Commercial references will not be evaluated.",
            ["federal-civilian", "federal-defense", "state", "local"],
        ),
        ("Federal references will not be accepted.", ["state", "local", "commercial"]),
        (
            "State references will not be considered.",
            ["federal-civilian", "federal-defense", "local", "commercial"],
        ),
        (
            "Local government contracts will not be accepted.",
            ["federal-civilian", "federal-defense", "state", "commercial"],
        ),
        ("Federal contracts only.", ["federal-civilian", "federal-defense"]),
        # the library has no non-profit customer kind: excluding it filters nothing
        ("Non-profit references will not be accepted.", []),
    ],
)
def test_a_customer_kind_before_references_is_a_customer_rule(tmp_path, sentence, types):
    r = scope_of(tmp_path, sentence)
    assert r.customer_types_required == types


def test_an_exclusion_is_traced_to_its_sentence(tmp_path):
    sentence = "Public sector references only; commercial references will not be considered."
    r = scope_of(tmp_path, f"Submit three (3) references. {sentence}")
    (trace,) = [t for t in r.trace if t["filter"] == "customer_types"]
    assert trace["sentence"] == sentence
    assert trace["section"] == "Test RFP > 3. Past Performance"


def test_preferred_customers_rank_but_do_not_filter(tmp_path):
    r = scope_of(
        tmp_path,
        "Submit three (3) references. Work for Department of Defense components will be "
        "considered more relevant than comparable work for other agencies.",
    )
    assert r.customer_types_required == []


@pytest.mark.parametrize(
    ("sentence", "types", "industries"),
    [
        (
            "Each reference must be for a hospital or health system; references from other "
            "industries or from government clients will not be considered.",
            ["commercial"],
            ["healthcare"],
        ),
        (
            "References may be from banks, credit unions or other commercial companies.",
            ["commercial"],
            [],  # "or other ...": the industry is an example of a wider class
        ),
        (
            "References must be from commercial organizations, such as insurers, banks or "
            "retailers.",
            ["commercial"],
            [],  # examples, not a requirement
        ),
        (
            "Each reference must be for a state workforce agency that runs an unemployment "
            "insurance program.",
            ["state"],
            ["labor and workforce"],
        ),
    ],
)
def test_industries_are_required_only_as_the_kind_of_customer(
    tmp_path, sentence, types, industries
):
    r = scope_of(tmp_path, sentence)
    assert (r.customer_types_required, r.industries_required) == (types, industries)


@pytest.mark.parametrize(
    ("sentence", "low", "high", "approx"),
    [
        # defect 2
        ("Each reference must have a minimum value of $10 million.", 10_000_000, None, None),
        ("The value of each reference should not exceed $5 million.", None, 5_000_000, None),
        ("Each contract must be valued at $2.5 million or more.", 2_500_000, None, None),
        ("Referenced contracts must be in excess of $750,000.", 750_000, None, None),
        ("Each reference shall be valued at no less than $4 million.", 4_000_000, None, None),
        (
            "Each reference must be valued at least $1 million and at most $8 million.",
            1_000_000,
            8_000_000,
            None,
        ),
        (
            "The total value shall be not under $12 million and not over $30 million.",
            12_000_000,
            30_000_000,
            None,
        ),
        (
            "Each reference must have a total value from $2 million up to $9 million.",
            2_000_000,
            9_000_000,
            None,
        ),
        (
            "Each project must be worth not less than three million dollars ($3,000,000) and "
            "not more than nine million dollars ($9,000,000).",
            3_000_000,
            9_000_000,
            None,
        ),
        (
            "References above $50 million will not be considered.",
            None,
            50_000_000,
            None,
        ),
        (
            "References should be approximately $5M in total value.",
            int(5_000_000 * APPROX_BAND[0]),
            int(5_000_000 * APPROX_BAND[1]),
            5_000_000,
        ),
    ],
)
def test_value_wording(tmp_path, sentence, low, high, approx):
    r = scope_of(tmp_path, sentence)
    assert (r.value_min, r.value_max, r.value_approx) == (low, high, approx)


@pytest.mark.parametrize(
    ("sentence", "years", "ended_after", "started_after"),
    [
        (
            "Each reference must be for a system that went live within the past seven (7) years.",
            7,
            "2019-06-08",
            None,
        ),
        (
            "References must be for work completed within the past 3 calendar years.",
            3,
            "2023-06-08",
            None,
        ),
        (
            "Each reference must be ongoing or completed since March 1, 2021.",
            None,
            "2021-03-01",
            None,
        ),
        (
            "Each reference must be ongoing, or completed no more than twenty-four (24) months "
            "before the issue date.",
            2,
            "2024-06-08",
            None,
        ),
        (
            "Only performance at any point after December 31, 2022 counts.",
            None,
            "2023-01-01",
            None,
        ),
        (
            "Each reference must have been performed, at least in part, in Fiscal Year 2022 or "
            "later.",
            None,
            "2021-10-01",
            None,
        ),
        (
            "Only contracts signed on or after July 1, 2020 will be considered.",
            None,
            None,
            "2020-07-01",
        ),
    ],
)
def test_date_keyed_recency_windows(tmp_path, sentence, years, ended_after, started_after):
    r = scope_of(tmp_path, sentence)
    assert (r.recency_years, r.ended_after, r.started_after) == (years, ended_after, started_after)


def test_a_period_length_is_not_a_recency_window(tmp_path):
    r = scope_of(
        tmp_path,
        "Submit three (3) references. Each referenced contract must have a period of "
        "performance of no more than 24 months.",
    )
    assert (r.recency_years, r.ended_after) == (None, None)


@pytest.mark.parametrize(
    ("sentence", "count", "most"),
    [
        ("Offerors may submit up to five (5) past performance references.", 5, 5),
        ("Provide two (2) to three (3) references for similar work.", 2, 3),
        ("Offerors shall submit no fewer than two and no more than four references.", 2, 4),
        ("Submit between two and four references.", 2, 4),
        ("Describe at least 2 but no more than 3 projects of similar scope.", 2, 3),
        ("Each offeror must provide references for four (4) contracts.", 4, None),
        ("Submit three (3) references; each reference may not exceed eight (8) pages.", 3, None),
        ("The proposer shall name four (4) clients for whom it delivered the work.", 4, None),
        # a number word inside another word is no count ("w-eight-")
        (
            "Submit two (2) references. The most weight goes to references that show results.",
            2,
            None,
        ),
    ],
)
def test_reference_counts_other_than_three(tmp_path, sentence, count, most):
    r = scope_of(tmp_path, sentence)
    assert (r.references_required, r.references_max) == (count, most)


@pytest.mark.parametrize(
    ("sentence", "types"),
    [
        # the offerors addressed, not a customer kind (new-user trial: a DoD RFI read "commercial")
        (
            "Firms shall address their present and past performance contracts, and must "
            "provide at least three (3) references.",
            [],
        ),
        ("Interested companies must submit three references for similar work.", []),
        ("Responding firms must list three (3) references of similar scope.", []),
        # a customer kind named beside government types: still read
        (
            "References must be for federal agencies or private companies.",
            ["federal-civilian", "commercial"],
        ),
        ("References must be for commercial firms only.", ["commercial"]),
    ],
)
def test_the_offerors_addressed_are_not_a_commercial_customer_rule(tmp_path, sentence, types):
    assert scope_of(tmp_path, sentence).customer_types_required == types


@pytest.mark.parametrize(
    ("sentence", "annual"),
    [
        (
            "Each reference must have an annual value of $1 million or more.",
            {"min": 1_000_000, "max": None, "approx": None},
        ),
        (
            "References must be contracts worth at least $2 million per year.",
            {"min": 2_000_000, "max": None, "approx": None},
        ),
    ],
)
def test_an_annual_value_is_stated_but_not_a_total_value_filter(tmp_path, sentence, annual):
    r = scope_of(tmp_path, f"Submit three (3) references. {sentence}")
    assert (r.value_min, r.value_max, r.value_basis, r.value_annual) == (
        None,
        None,
        "annual",
        annual,
    )
    (trace,) = [t for t in r.trace if t["filter"] == "value"]
    assert trace["sentence"] == sentence
    assert trace["reading"]["unknown"] == "annual value: not compared with total contract values"


def test_a_year_in_a_value_sentence_is_not_an_annual_value(tmp_path):
    r = scope_of(
        tmp_path,
        "Submit three (3) references for contracts of at least $5 million completed within a "
        "year of this RFP.",
    )
    assert (r.value_min, r.value_basis, r.value_annual) == (5_000_000, "total", None)
