"""Controlled vocabularies: customer types, vehicle types, roles and tag slugs."""

from __future__ import annotations

import pytest

from rfp_retrieval.library.vocab import (
    DOMAIN_TAGS,
    domain_tags,
    is_known_domain,
    normalize_customer_type,
    normalize_role,
    normalize_vehicle_name,
    normalize_vehicle_type,
    stack_tags,
    tag_slug,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Federal - Civilian", ("federal-civilian", [])),
        ("Federal - Defense", ("federal-defense", [])),
        ("State", ("state", [])),
        ("International", ("international", [])),
        ("federal-defense", ("federal-defense", [])),
        ("Fed Civ", ("federal-civilian", ["nonstandard-customer-type"])),
        ("federal civilian agency", ("federal-civilian", ["nonstandard-customer-type"])),
        ("Martian", (None, ["unknown-customer-type"])),
        ("", (None, [])),
    ],
)
def test_customer_type_nonstandard_spelling_is_normalized_and_flagged(
    text: str, expected: tuple[str | None, list[str]]
) -> None:
    assert normalize_customer_type(text) == expected


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("Task Order", "idiq-task-order"),
        ("TO (IDIQ)", "idiq-task-order"),
        ("IDIQ Task Order", "idiq-task-order"),
        ("GWAC Task Order", "gwac-task-order"),
        ("GWAC TO", "gwac-task-order"),
        ("GSA Schedule Order", "gsa-schedule"),
        ("FSS Order", "gsa-schedule"),
        ("GSA Schedule", "gsa-schedule"),
        ("BPA Call", "bpa-call"),
        ("BPA Call Order", "bpa-call"),
        ("Standalone", "standalone"),
        ("Stand-alone Contract", "standalone"),
        ("Direct Contract", "standalone"),
        ("Other", "other"),
        ("Other - State Cooperative/MSA", "other"),
        ("idiq-task-order", "idiq-task-order"),
    ],
)
def test_contract_type_maps_to_vehicle_type(text: str, slug: str) -> None:
    assert normalize_vehicle_type(text) == (slug, [])


def test_unknown_contract_type_is_flagged() -> None:
    assert normalize_vehicle_type("Handshake") == (None, ["unknown-vehicle-type"])


@pytest.mark.parametrize(
    ("text", "name"), [("N/A", None), ("n/a", None), ("", None), (" GSA MAS ", "GSA MAS")]
)
def test_vehicle_name_not_applicable_is_none(text: str, name: str | None) -> None:
    assert normalize_vehicle_name(text) == name


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Prime", ("prime", [])),
        ("Sub", ("sub", [])),
        ("Subcontractor", ("sub", [])),
        ("JV", (None, ["unknown-role"])),
    ],
)
def test_role_is_prime_or_sub(text: str, expected: tuple[str | None, list[str]]) -> None:
    assert normalize_role(text) == expected


@pytest.mark.parametrize(
    ("text", "tags"),
    [
        ("ArcGIS, Oracle DB", ["esri-arcgis", "oracle-db"]),
        ("Esri ArcGIS; Elasticsearch; Elastic", ["esri-arcgis", "elastic"]),
        ("z/OS COBOL; COBOL (mainframe); Mainframe COBOL", ["mainframe-cobol"]),
        (
            "BMC Remedy; WebSphere; Postgres; Oracle",
            ["remedy", "ibm-websphere", "postgresql", "oracle-db"],
        ),
        ("Genesys Cloud; AWS GovCloud (US); M/MUMPS", ["genesys", "aws-govcloud", "mumps"]),
        (
            "Microsoft Azure; Amazon Web Services; Salesforce Gov Cloud",
            ["azure", "aws", "salesforce"],
        ),
        (
            ".NET; Node.js; Login.gov; Ruby on Rails",
            [".net", "node.js", "login.gov", "ruby-on-rails"],
        ),
        (
            "AWS GovCloud / Python / Django / React / PostgreSQL",
            ["aws-govcloud", "python", "django", "react", "postgresql"],
        ),
    ],
)
def test_technologies_map_to_stable_stack_tags(text: str, tags: list[str]) -> None:
    assert stack_tags(text) == tags


@pytest.mark.parametrize(
    ("text", "tags"),
    [
        ("App Modernization; Cyber", ["legacy-modernization", "cybersecurity"]),
        ("Geospatial/GIS; GIS", ["geospatial"]),
        ("Disaster Recovery / COOP", ["disaster-recovery"]),
        ("Human Capital / HR; Eligibility & Enrollment", ["hr-systems", "benefits-eligibility"]),
        ("Web/Digital; Identity & Access Management", ["digital-services", "identity-access"]),
        (
            "Data & Analytics; Call Center; IT Ops",
            ["data-analytics", "contact-center", "infrastructure-operations"],
        ),
        ("Infrastructure & Operations", ["infrastructure-operations"]),
    ],
)
def test_domains_map_to_known_domain_tags(text: str, tags: list[str]) -> None:
    assert domain_tags(text) == tags
    assert all(is_known_domain(tag) for tag in tags)


def test_yaml_lists_of_slugs_map_to_themselves() -> None:
    assert stack_tags(["aws-govcloud", "hl7-fhir", "cloud.gov"]) == [
        "aws-govcloud",
        "hl7-fhir",
        "cloud.gov",
    ]
    assert domain_tags(["identity-access", "devsecops"]) == ["identity-access", "devsecops"]


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Windows Server", "windows-server"),
        (".NET", ".net"),
        ("Spring Boot", "spring-boot"),
        ("C++", "c++"),
    ],
)
def test_default_slug_rule_lowercases_hyphenates_and_keeps_dots(name: str, slug: str) -> None:
    assert tag_slug(name) == slug


def test_domain_tags_have_display_names() -> None:
    assert DOMAIN_TAGS["identity-access"] == "Identity & Access Management"
    assert len(DOMAIN_TAGS) == 21
