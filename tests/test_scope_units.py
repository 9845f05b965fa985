"""The statement of work read as outline units; section cosines re-centred on the library."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.retrieval.kernels import section_centring
from rfp_retrieval.retrieval.scope_query import scope_sections, scope_texts
from rfp_retrieval.scope import read_scope, scope_units, work_prose
from tests.conftest import REPO, SHARED_DATA

FRANKLIN = REPO / "sample" / "inbox" / "franklin-dhhs-iecms-modernization-rfp.md"
GOLDEN = SHARED_DATA / "pp_golden_dev"


def _golden(name: str) -> Path:
    path = GOLDEN / name
    if not path.is_file():
        pytest.skip(f"{path} is missing: the golden set is read in place from ../shared/data")
    return path


def test_franklin_units_are_the_work_sections_without_offeror_instructions():
    # The title says "Request for Proposals": the units are judged on their path below the
    # title, so the statement of work is not dropped as "proposal" administration.
    doc = load_document(FRANKLIN)
    units = scope_units(doc)
    assert [heading for heading, _ in units] == [
        "Solution Architecture and Hosting",
        "Case Management",
        "Security and Privacy",
        "Data Migration",
        "Testing",
        "Training and Organizational Change",
        "Operations and Maintenance",
    ]
    text = dict(units)
    # numbered requirement paragraphs (3.x.y) are merged into their section, each once
    migration = text["Data Migration"]
    assert migration.startswith("Data Migration. The Contractor shall migrate all active, pending")
    assert migration.count("closed-within-retention cases") == 1
    # "Offerors shall respond to every numbered response item..." is about the bid
    assert not any("response item" in t or "Offerors shall" in t for t in text.values())
    # Background, schedule, Section 4 (instructions) and 5 (evaluation) are not units
    skipped = ("Schedule", "Programs Supported", "Past Performance")
    assert not any(h.startswith(skipped) for h in text)
    assert scope_sections(doc) == units


def test_franklin_ranking_texts_lead_with_the_program_not_the_boilerplate():
    doc = load_document(FRANKLIN)
    reading = read_scope(doc)
    texts = scope_texts(reading, doc.title, doc.summary)
    assert texts["technical"].startswith("Solution Architecture and Hosting. The Contractor shall")
    assert "response item" not in texts["narrative"] + texts["technical"]
    # whole = narrative (title, purpose, units) + outcome: the units are not repeated
    assert texts["whole"].startswith(doc.title)
    assert texts["whole"].count("The IECMS shall maintain a single, person-centric record") <= 1


def test_work_prose_keeps_the_work_and_drops_instructions_to_offerors():
    body = (
        "Offerors shall respond to every numbered item. The Contractor shall migrate 2.6 "
        "million lines of COBOL. Describe your approach in your proposal. Vendors must "
        "submit the pricing workbook. Report monthly against the service levels in Attachment J-3."
    )
    assert work_prose(body) == (
        "The Contractor shall migrate 2.6 million lines of COBOL. Report monthly against the "
        "service levels in Attachment J-3."
    )


def test_a_title_containing_information_keeps_its_sections():
    # "Information" once matched the "format" exclusion: S09 lost every section.
    doc = load_document(_golden("S09.md"))
    assert [h for h, _ in scope_units(doc)] == [
        "Omnichannel Contact Handling",
        "Workforce Management and Quality Assurance",
        "Knowledge Management and Self-Service",
        "Customer Experience Measurement",
    ]


def test_references_sections_and_short_children_are_handled():
    # S29: "3. Offeror Experience and References" states requirements, not work.
    units = [h for h, _ in scope_units(load_document(_golden("S29.md")))]
    assert units == [
        "Eligibility Rules Modernization",
        "Renewals and Ex Parte Automation",
        "CMS Certification",
        "Interfaces and Applicant Experience",
    ]
    # S03: "2.4 Sustainment" (one short sentence) joins its parent's unit instead of vanishing
    text = dict(scope_units(load_document(_golden("S03.md"))))
    assert text["Performance Work Statement Summary"] == (
        "Performance Work Statement Summary. Sustainment. Provide Tier 3 support, performance "
        "tuning, release management and 99.9 percent monthly availability during core "
        "business hours."
    )


def test_section_centring_equalises_the_library_mean_cosine_of_each_section():
    rng = np.random.default_rng(5)
    library = rng.normal(size=(50, 6))
    library /= np.linalg.norm(library, axis=1, keepdims=True)
    sections = rng.normal(size=(3, 6))
    sections /= np.linalg.norm(sections, axis=1, keepdims=True)
    shift = section_centring(library.mean(axis=0), sections)
    centred = library @ sections.T + shift
    means = centred.mean(axis=0)
    assert shift.dtype == np.float32 and shift.shape == (3,)
    assert np.allclose(means, means.mean(), atol=1e-6)  # no section is generic any more
    assert np.isclose(means.mean(), (library @ sections.T).mean(), atol=1e-6)  # same scale
    # one section (or no library) means nothing to re-centre
    assert section_centring(library.mean(axis=0), sections[:1]).tolist() == [0.0]
    assert section_centring(None, sections).tolist() == [0.0, 0.0, 0.0]


def _units(tmp_path: Path, text: str, name: str = "rfp.md") -> list[tuple[str, str]]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return scope_units(load_document(path))


WORK = (
    "The contractor shall operate a 24x7 service desk for 45,000 state employees, migrate "
    "300 applications from the state data center to commercial cloud and retire the legacy "
    "mainframe by the end of the second contract year."
)


def test_a_statement_of_work_written_as_vendor_shall_is_kept(tmp_path):
    text = (
        f"# UI Modernization\n\n## Scope of Work\n\n{WORK.replace('The contractor', 'The Vendor')}"
    )
    text += " The Offeror shall describe its approach in its proposal.\n"
    assert _units(tmp_path, text) == [
        ("Scope of Work", "Scope of Work. " + WORK.replace("The contractor", "The Vendor"))
    ]


def test_work_headings_that_contain_an_administrative_word_are_work(tmp_path):
    sections = ["System Administration", "Program Evaluation Support", "Invoice Processing"]
    text = "# IT Operations\n\n## 2. Statement of Work\n\n" + "".join(
        f"### 2.{i} Task {i} - {h}\n\n{WORK}\n\n" for i, h in enumerate(sections, start=1)
    )
    text += (
        f"## 3. Evaluation\n\n{WORK}\n\n## 4. Pricing\n\n{WORK}\n\n## 5. Cost Volume\n\n{WORK}\n"
    )
    assert [h for h, _ in _units(tmp_path, text)] == [
        "Task 1 - System Administration",
        "Task 2 - Program Evaluation Support",
        "Task 3 - Invoice Processing",
    ]


def test_the_title_is_found_below_a_cover_line_and_a_scope_under_introduction_counts(tmp_path):
    cover = "**STATE OF OREGON**\n\n# Request for Proposals - Cloud Migration\n\n"
    cover += f"## Scope of Work\n\n{WORK}\n"
    assert [h for h, _ in _units(tmp_path, cover)] == ["Scope of Work"]
    intro = f"# Data Warehouse\n\n## 1. Introduction\n\n### 1.1 Scope of Work\n\n{WORK}\n"
    assert [h for h, _ in _units(tmp_path, intro)] == ["Scope of Work"]


def test_a_task_table_and_a_document_without_headings_still_give_units(tmp_path):
    table = (
        "# Network Operations\n\n## Statement of Work\n\n| Task | Description |\n|---|---|\n"
        "| Network Operations Center | Operate a 24x7 NOC monitoring 3,200 network devices "
        "across 900 state sites |\n| Help Desk | Provide Tier 1 and Tier 2 support for 45,000 "
        "state employees |\n"
    )
    ((heading, text),) = _units(tmp_path, table)
    assert heading == "Statement of Work"
    assert "Network Operations Center; Operate a 24x7 NOC monitoring 3,200 network" in text
    flat = f"{WORK} Offerors shall submit their proposals by June 1. {WORK}"
    ((heading, text),) = _units(tmp_path, flat, "flat.txt")
    assert text == f"{WORK} {WORK}"


def test_the_unit_cap_keeps_24_even_when_units_repeat(tmp_path):
    text = "# Hosting\n\n" + "".join(f"## Requirements\n\n{WORK}\n\n" for _ in range(30))
    path = tmp_path / "rfp.md"
    path.write_text(text, encoding="utf-8")
    assert len(scope_sections(load_document(path))) == 24


def test_a_title_over_heading_1_and_heading_2_keeps_two_levels(tmp_path):
    # A Word Title style over Heading 1 / Heading 2 sections arrives as "#", "#", "##".
    text = (
        f"# Help Desk Modernization\n\n# Scope of Work\n\n## Service Desk Operations\n\n{WORK}\n\n"
        "# Instructions to Offerors\n\n## Labor Rates\n\nOffer fully burdened hourly rates for "
        "each labor category over the base and option years, with escalation and travel shown "
        "separately on the pricing workbook.\n"
    )
    path = tmp_path / "rfp.md"
    path.write_text(text, encoding="utf-8")
    doc = load_document(path)
    assert [(s.heading, s.level) for s in doc.sections] == [
        ("Help Desk Modernization", 0),
        ("Scope of Work", 1),
        ("Service Desk Operations", 2),
        ("Instructions to Offerors", 1),
        ("Labor Rates", 2),
    ]
    assert [h for h, _ in scope_units(doc)] == ["Service Desk Operations"]
