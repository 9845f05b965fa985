"""The federal agency table: resolution of issuer and customer names, department roll-up."""

from __future__ import annotations

import pytest

from rfp_retrieval.agencies import (
    FEDERAL_AGENCIES,
    agency_by_acronym,
    issuer_type,
    non_federal_parent,
    resolve_agency,
    same_department,
)


@pytest.mark.parametrize(
    ("name", "acronym", "expected"),
    [
        (
            "U.S. Department of Agriculture (USDA), Food and Nutrition Service (FNS), Office of "
            "Information Technology",
            None,
            ("FNS", "USDA", "USDA", "federal-civilian"),
        ),
        (
            "Department of Education, Office of the Chief Information Officer",
            "ED OCIO",
            ("ED", None, "ED", "federal-civilian"),
        ),
        (
            "Department of the Army PEO EIS, General Fund Enterprise Business System",
            "PEO EIS",
            ("PEO EIS", "Army", "DoD", "federal-defense"),
        ),
        ("Office of Personnel Management", "OPM", ("OPM", None, "OPM", "federal-civilian")),
        (
            "U.S. Department of Education, Federal Student Aid (FSA), Customer Experience Office",
            None,
            ("FSA", "ED", "ED", "federal-civilian"),
        ),
        ("USDA Farm Service Agency", "USDA FSA", ("FSA", "USDA", "USDA", "federal-civilian")),
        (
            "Department of Veterans Affairs, Veterans Health Administration",
            "VA VHA",
            ("VHA", "VA", "VA", "federal-civilian"),
        ),
        (
            "Defense Information Systems Agency (DISA), Cyber Security and Analytics Directorate",
            None,
            ("DISA", "DoD", "DoD", "federal-defense"),
        ),
        (
            "U.S. Department of Commerce, National Oceanic and Atmospheric Administration (NOAA), "
            "National Environmental Satellite, Data, and Information Service (NESDIS)",
            None,
            ("NOAA", "DOC", "DOC", "federal-civilian"),
        ),
        (None, "FNS", ("FNS", "USDA", "USDA", "federal-civilian")),
        (
            "U.S. Marine Corps, Marine Corps Systems Command",
            "MARCORSYSCOM",
            ("USMC", "Navy", "DoD", "federal-defense"),
        ),
    ],
)
def test_resolve_agency_returns_the_most_specific_organisation(name, acronym, expected):
    agency = resolve_agency(name, acronym)
    assert agency is not None
    assert (agency.acronym, agency.parent, agency.department, agency.type) == expected


@pytest.mark.parametrize(
    ("name", "acronym"),
    [
        (None, "FSA"),  # Farm Service Agency or Federal Student Aid: the name must say which
        ("Georgia Department of Human Services (DHS), Division of Child Support Services", None),
        ("State of Franklin, Department of Health and Human Services (DHHS)", None),
        ("Miami-Dade County, Information Technology Department (ITD)", None),
        ("Cascade Freight Logistics, Inc.", None),
        ("Government of Canada, Shared Services Canada", "SSC"),
        (None, None),
    ],
)
def test_non_federal_and_ambiguous_names_do_not_resolve(name, acronym):
    assert resolve_agency(name, acronym) is None


def test_same_department_rolls_components_up():
    assert same_department("FNS", "USDA")
    assert same_department("VHA", "VBA")
    assert same_department(resolve_agency("Naval Supply Systems Command"), "DISA")  # both DoD
    assert not same_department("VHA", "FNS")
    assert not same_department("Ohio Department of Medicaid", "ODM")


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Ohio Department of Medicaid (ODM)", "state"),
        ("State of Alaska, Department of Health", "state"),
        ("George Mason University", "state"),
        ("Fairfax County, Virginia", "local"),
        ("New York City Human Resources Administration", "local"),
        # the issuer comes before its address: a "Harbor City" street address is not a city
        (
            "State of Franklin, Department of Health and Human Services (DHHS), 200 Capitol "
            "Mall, Suite 410, Harbor City, FR 37659",
            "state",
        ),
        ("Miami-Dade County, State of Florida", "local"),
        ("Open Source Technology Improvement Fund, Inc", "commercial"),
        ("NATO Communications and Information Agency", "international"),
        (
            "Department of the Army, U.S. Army Network Enterprise Technology Command",
            "federal-defense",
        ),
        ("Washington Headquarters Services/Acquisition Directorate", "federal-defense"),
        ("United States Tax Court", "federal-civilian"),
        ("Protocol Labs", "commercial"),
        ("Kubernetes Security Audit Working Group", None),
    ],
)
def test_issuer_type(text, kind):
    assert issuer_type(text) == kind


def test_non_federal_parent_names_the_government():
    assert non_federal_parent("Georgia Department of Human Services (DHS)") == "State of Georgia"
    assert non_federal_parent("STATE OF ALASKA Department of Health") == "State of Alaska"
    assert non_federal_parent("Miami-Dade County, Information Technology Department") == (
        "Miami-Dade County"
    )
    assert non_federal_parent("Cascade Freight Logistics, Inc.") is None


def test_table_is_consistent():
    acronyms = {a.acronym for a in FEDERAL_AGENCIES}
    for agency in FEDERAL_AGENCIES:
        assert agency.parent is None or agency.parent in acronyms, agency
        assert agency.department in acronyms
        assert agency.type in ("federal-civilian", "federal-defense")
    assert agency_by_acronym("FSA") is None
    assert agency_by_acronym("FSA", department="ED").name == "Federal Student Aid"
