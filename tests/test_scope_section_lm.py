"""Section L/M past-performance requirements as structured data, each with its section.

The synthetic RFPs state their windows and values in Section L/M wording ("within three (3)
years before the proposal due date", "between $10 million and $75 million"); every one is
read here, dated against the RFP's own due date. The golden scopes' windows and values are
held exactly by ``test_scope_golden.py``; here each must also name the section stating it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.scope import read_scope
from rfp_retrieval.scope.section_lm import find_pp_requirements

DATA = Path(__file__).parents[1] / ".." / "shared" / "data"
SYNTHETIC = DATA / "rfps_synthetic"
GOLDEN = DATA / "pp_golden_dev"


def _load(path: Path):
    if not path.is_file():
        pytest.skip(f"{path} is missing: documents are read in place from ../shared/data")
    return load_document(path)


# file -> (references, recency text, months, ended_after, value text, min, max, basis, section)
SYNTHETIC_PP = {
    "franklin-dhhs-iecms-modernization-rfp.md": (
        3,
        "completed within five (5) years",
        60,
        "2021-08-14",  # five years before the proposal due date, August 14, 2026
        "$10 million and $75 million",
        10_000_000,
        75_000_000,
        "total",
        "5.4 Past Performance",
    ),
    "hhs-acf-grants-platform-rfp-75ACF126R00031.md": (
        3,
        "within three (3) years",
        36,
        "2023-04-27",
        "at least $8 million and no more than $40 million",
        8_000_000,
        40_000_000,
        "total",
        "M.5 Factor 3 — Past Performance",
    ),
    "dla-scals-modernization-rfp-SP4709-26-R-0042.md": (
        3,
        "performed within three (3) years",
        36,
        "2023-06-12",
        "below $15 million will be considered Not Relevant",
        15_000_000,
        None,
        "total",
        "VII.D Factor 3 — Past Performance",
    ),
    "treasury-fiscal-service-dcdis-rfq-2032H5-26-Q-00117.md": (
        2,
        "delivered within three (3) years",
        36,
        "2023-09-04",
        "$2 million and $15 million",
        2_000_000,
        15_000_000,
        "annual",  # "contracts with an annual value between ..."
        "6.3 Past Performance",
    ),
}


@pytest.mark.parametrize("name", list(SYNTHETIC_PP))
def test_synthetic_rfp_recency_window_and_value_range_are_read(name: str) -> None:
    doc = _load(SYNTHETIC / name)
    refs, text, months, ended, value_text, lo, hi, basis, section = SYNTHETIC_PP[name]
    reading = read_scope(doc)
    assert (
        reading.references_required,
        reading.recency_text,
        reading.recency_months,
        reading.recency_anchor,
        reading.ended_after,
        reading.started_after,
    ) == (refs, text, months, "proposal due date", ended, None)
    annual = reading.value_annual or {}
    stated_lo, stated_hi = (
        (annual.get("min"), annual.get("max"))
        if basis == "annual"
        else (reading.value_min, reading.value_max)
    )
    assert (reading.value_text, stated_lo, stated_hi, reading.value_basis) == (
        value_text,
        lo,
        hi,
        basis,
    )
    if basis == "annual":  # an annual bound is not a filter on total contract values
        assert (reading.value_min, reading.value_max) == (None, None)
    req = find_pp_requirements(doc)
    assert req.recency.due_date_anchor is True
    assert req.recency.stated.section.split(" > ")[-1] == section
    assert req.value.stated.section.split(" > ")[-1] == section


def test_franklin_user_population_is_a_preferred_size_constraint():
    req = find_pp_requirements(_load(SYNTHETIC / "franklin-dhhs-iecms-modernization-rfp.md"))
    assert [(s.measure, s.min, s.max, s.preferred, s.stated.text) for s in req.sizes] == [
        ("users", 2000.0, None, True, "user population of at least 2,000"),
    ]  # "giving greatest weight to ... (c) a user population of at least 2,000 staff"
    assert [r.section.split(" > ")[-1] for r in req.relevance] == ["5.4 Past Performance"]
    assert req.relevance[0].sentence.startswith("Relevance: the Department will assess relevance")
    assert req.references_stated.section.split(" > ")[-1] == "4.3 Past Performance References"


def test_acf_reference_count_comes_from_section_l_and_relevance_from_section_m():
    req = find_pp_requirements(_load(SYNTHETIC / "hhs-acf-grants-platform-rfp-75ACF126R00031.md"))
    assert req.references_stated.text == "submit no more than three (3) past performance"
    assert req.references_stated.section.split(" > ")[-1] == "L.4.4 Volume IV — Past Performance"
    assert [r.section.split(" > ")[-1] for r in req.relevance] == [
        "L.4.4.1 For each reference, describe the relevance of the work to this requirement.",
        "M.5 Factor 3 — Past Performance",
    ]


def test_opm_golden_scope_workforce_size_is_read_with_its_section():
    req = find_pp_requirements(_load(GOLDEN / "S04.md"))
    assert [(s.measure, s.min, s.max, s.preferred) for s in req.sizes] == [
        ("employees", 50_000.0, None, False),  # "a workforce of at least 50,000 employees"
    ]
    assert req.sizes[0].stated.section.endswith("L.3.5 Relevance")
    assert (req.recency.since.isoformat(), req.recency.stated.text) == (
        "2020-10-01",
        "on or after October 1, 2020",  # the stated date, read before "since FY2021"
    )


def _golden() -> list[dict]:
    truth = GOLDEN / "scopes_truth.jsonl"
    if not truth.is_file():
        return []
    return [json.loads(line) for line in truth.read_text(encoding="utf-8").splitlines() if line]


@pytest.mark.parametrize("truth", _golden(), ids=[t["scope_id"] for t in _golden()])
def test_every_golden_window_and_value_names_the_section_that_states_it(truth: dict) -> None:
    req = find_pp_requirements(_load(GOLDEN / truth["rfp_file"]))
    assert req.recency is not None and req.recency.stated.section != "(front matter)"
    # the labeller's phrase is in the sentence the window was read from
    assert truth["recency_text"].lower() in req.recency.stated.sentence.lower()
    if truth["value_text"]:
        assert req.value is not None
        assert truth["value_text"].lower() in req.value.stated.sentence.lower()
        assert req.value.stated.section_key is not None
    assert req.references_required == truth["references_required"]


NEW_RFI = """# Request for Information: Customer Experience Platform Renewal

Issued by: Example Mutual Insurance Company
Issue date: 2026-09-01

## Client references

Tell us about three engagements you have delivered for private-sector clients, insurance or
financial services preferred; public-sector work is not of interest for this RFI. The
engagements should have been active at some time since 1 January 2022, and each should be
worth at least USD 1.5 million in fees.
"""


def test_a_stated_industry_preference_is_read_as_preferred_not_required(tmp_path: Path) -> None:
    path = tmp_path / "cx_rfi.md"
    path.write_text(NEW_RFI, encoding="utf-8")
    reading = read_scope(_load(path))
    assert reading.customer_types_required == ["commercial"]
    assert reading.industries_required == []
    assert reading.industries_preferred == ["insurance", "finance"]
    (item,) = [t for t in reading.trace if t["filter"] == "industries_preferred"]
    assert item["section"].endswith("Client references")
    assert item["reading"] == ["insurance", "finance"]
    assert item["sentence"].startswith("Tell us about three engagements")
    # a required industry is not repeated as preferred; a negated preference names none
    path.write_text(
        NEW_RFI.replace(
            "private-sector clients, insurance or\nfinancial services preferred",
            "banks only; insurers are not preferred",
        ),
        encoding="utf-8",
    )
    reading = read_scope(_load(path))
    assert reading.industries_required == ["finance"]
    assert reading.industries_preferred == []


def test_at_least_one_prime_is_a_rule_on_the_set_not_a_filter(tmp_path: Path) -> None:
    path = tmp_path / "ui_rfp.md"
    path.write_text(
        "# Request for Proposals: UI Modernization\n\nIssue date: 2026-09-01\n\n"
        "## 3.3 Past Performance\n\n3.3.1 Submit three (3) examples of similar work.\n\n"
        "3.3.4 At least one of the three examples must be an engagement in which the Offeror "
        "held the prime contract.\n",
        encoding="utf-8",
    )
    reading = read_scope(_load(path))
    assert reading.require_prime is False
    (item,) = [t for t in reading.trace if t["filter"] == "prime_in_set"]
    assert item["reading"] == (
        "At least one of the three examples must be an engagement in which the Offeror held "
        "the prime"
    )
    assert "3.3 Past Performance" in item["section"]
    from rfp_retrieval.report.filters import filter_sentence

    assert filter_sentence(item).startswith("the set of references needs prime work (At least")
