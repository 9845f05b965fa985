"""ScopeQuery readings of the synthetic RFPs and of real RFPs' past-performance instructions.

Each expected value was read by hand from the document (quoted in the comments).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.scope import read_scope

DATA = Path(__file__).parents[1] / ".." / "shared" / "data"


def reading_of(relative: str, as_of: dt.date | None = None):
    path = DATA / relative
    if not path.is_file():
        pytest.skip(f"{path} is missing: RFPs are read in place from ../shared/data")
    return read_scope(load_document(path), as_of=as_of)


def test_dla_synthetic_recency_counts_back_from_the_proposal_due_date():
    r = reading_of("rfps_synthetic/dla-scals-modernization-rfp-SP4709-26-R-0042.md")
    # "Recency: efforts performed within three (3) years before the proposal due date."
    # Proposals Due: June 12, 2026.  "at least $15 million; efforts below $15 million ... Not
    # Relevant."  "up to three (3) Past Performance Questionnaires"
    assert (r.rfp_date, r.recency_years, r.recency_anchor, r.ended_after) == (
        "2026-04-20",
        3,
        "proposal due date",
        "2023-06-12",
    )
    assert (r.value_min, r.value_max, r.references_required) == (15_000_000, None, 3)
    assert (r.issuer_acronym, r.parent_agency, r.issuer_type) == ("DLA", "DoD", "federal-defense")
    assert r.customer_types_required == []


def test_franklin_synthetic_state_rfp():
    r = reading_of("rfps_synthetic/franklin-dhhs-iecms-modernization-rfp.md")
    # "ongoing or have been completed within five (5) years before the proposal due date"
    # (Proposal Due Date: August 14, 2026); "total contract value between $10 million and
    # $75 million"; "Offerors shall submit three (3) references"
    assert (r.recency_years, r.ended_after) == (5, "2021-08-14")
    assert (r.value_min, r.value_max, r.value_basis) == (10_000_000, 75_000_000, "total")
    assert r.references_required == 3
    assert (r.issuer_type, r.issuer_acronym, r.parent_agency) == (
        "state",
        "DHHS",
        "State of Franklin",
    )


def test_acf_synthetic_value_band_and_recency():
    r = reading_of("rfps_synthetic/hhs-acf-grants-platform-rfp-75ACF126R00031.md")
    # "within three (3) years before the proposal due date" (April 27, 2026); "at least
    # $8 million and no more than $40 million"; "no more than three (3) past performance
    # references"
    assert (r.rfp_date, r.ended_after) == ("2026-03-09", "2023-04-27")
    assert (r.value_min, r.value_max) == (8_000_000, 40_000_000)
    assert r.references_required == 3
    assert (r.issuer_acronym, r.parent_agency) == ("ACF", "HHS")
    assert "grants-management" in r.emphasized_domains


def test_treasury_synthetic_annual_value_and_quotation_due_date():
    r = reading_of("rfps_synthetic/treasury-fiscal-service-dcdis-rfq-2032H5-26-Q-00117.md")
    # "services delivered within three (3) years before the quotation due date" (September 4,
    # 2026); "contracts with an annual value between $2 million and $15 million"; "up to two
    # (2) past performance summaries"
    assert (r.ended_after, r.recency_anchor) == ("2023-09-04", "proposal due date")
    # an annual value is not a total: stated, not compared with the library's total values
    assert (r.value_min, r.value_max, r.value_basis) == (None, None, "annual")
    assert r.value_annual == {"min": 2_000_000, "max": 15_000_000, "approx": None}
    assert r.references_required == 2
    # "state governments or regulated commercial customers ... will be considered relevant"
    # ranks references; it is not a customer-type filter
    assert r.customer_types_required == []
    assert (r.issuer_acronym, r.parent_agency) == ("BFS", "Treasury")


def test_disa_ebm_pdf_past_performance_volume():
    r = reading_of("rfps/disa-ebm-draft-rfp-hc1013-05-r-2001.pdf")
    # "no more than 5 past performance references ... efforts performed within the last two
    # years, or ongoing, either commercial and/or government" (ISSUE DATE: 10 NOV 04)
    assert (r.references_required, r.recency_years, r.ended_after) == (5, 2, "2002-11-10")
    assert r.customer_types_required == []  # every kind allowed: no customer filter
    assert (r.issuer_acronym, r.issuer_type) == ("DISA", "federal-defense")
    # "past performance as a prime contractor" is how it is evaluated, not a requirement
    assert r.require_prime is False


def test_usfs_epermit_similar_experience_within_three_calendar_years():
    r = reading_of("rfps/18f-usfs-epermit-api-rfq.md")
    # "Projects ... must have been completed within the past three (3) calendar years"
    assert (r.rfp_date, r.recency_years, r.ended_after) == ("2016-12-21", 3, "2013-12-21")
    assert (r.issuer_acronym, r.parent_agency) == ("FS", "USDA")


def test_alaska_minimum_qualifications_last_five_years_not_key_personnel():
    r = reading_of("rfps/alaska-dhss-aries-support-rfp-210000029.md")
    # Sec. 1.04: "three (3) years' experience in the last five (5) years"
    assert (r.rfp_date, r.recency_years, r.ended_after) == ("2021-02-19", 5, "2016-02-19")
    assert "Sec. 1.04 Minimum Qualifications" in next(
        t["section"] for t in r.trace if t["filter"] == "recency"
    )
    assert (r.issuer_type, r.parent_agency) == ("state", "State of Alaska")

    ies = reading_of("rfps/alaska-doh-ies-milestone2-rfp-2025-1600-0188.md")
    # only key-personnel sentences state a window in this RFP ("The Product Manager should
    # have ... in the last five (5) years"); references live in a separate form
    assert ies.recency_years is None and ies.ended_after is None


def test_alaska_automated_renewals_two_examples_within_three_years():
    r = reading_of("rfps/alaska-dhss-aries-automated-renewals-rfp.md")
    assert (r.references_required, r.recency_years) == (2, 3)


def test_undated_rfp_counts_recency_from_as_of():
    r = reading_of("rfps/18f-dol-whd-14c-first-order-rfq.md", as_of=dt.date(2016, 7, 15))
    # no issue date is written; "built within the past three (3) years"
    assert r.rfp_date is None
    assert (r.recency_anchor, r.ended_after) == ("as_of", "2013-07-15")
