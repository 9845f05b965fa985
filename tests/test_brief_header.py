"""The top of the brief (issue 15): a title that names the solicitation, the issuer, OCR'd
and empty pages, and an override file that was not applied, with a rejected library row
named as rejected."""

from __future__ import annotations

import json

import polars as pl
import pytest

from rfp_retrieval.report.brief import brief_html, brief_markdown
from rfp_retrieval.retrieval.overrides import (
    OverrideError,
    load_overrides,
    override_problem,
    rejected_id_reasons,
)

SCOPE = {
    "rfp_partition": "nebraska-cms",
    "title": "STATE OF NEBRASKA",
    "issuer": "State of Nebraska, Department of Health and Human Services",
    "issuer_type": "state",
}
HEADINGS = [
    "STATE OF NEBRASKA",
    "Request for Proposal 1234 — Case Management System",
    "3. Technical Approach",
]


def test_a_cover_line_title_gives_way_to_the_solicitation_and_the_issuer_is_shown():
    text = brief_markdown(SCOPE, [], set(), document={"headings": HEADINGS})
    assert text.splitlines()[:4] == [
        "# Response brief: Request for Proposal 1234 — Case Management System",
        "",
        "Issued by State of Nebraska, Department of Health and Human Services (state)",
        "",
    ]
    page = brief_html(SCOPE, [], set(), document={"headings": HEADINGS})
    assert "<h1>Response brief: Request for Proposal 1234 — Case Management System</h1>" in page
    assert '<p class="issuer">Issued by State of Nebraska, Department of Health and' in page


def test_a_title_that_names_the_solicitation_is_kept_and_a_missing_issuer_said():
    scope = {"rfp_partition": "p", "title": "RFQ 26-07 Help Desk Services"}
    lines = brief_markdown(scope, [], set(), document={"headings": HEADINGS}).splitlines()
    assert lines[:3] == ["# Response brief: RFQ 26-07 Help Desk Services", "", "Issuer not stated"]
    county = {"rfp_partition": "p", "title": "County of Marin"}
    assert brief_markdown(county, [], set(), document={"headings": ["County of Marin"]}).startswith(
        "# Response brief: County of Marin\n"
    )


def test_a_cover_line_title_takes_the_solicitation_line_and_project_name_of_the_cover():
    from rfp_retrieval.report.brief import brief_title, cover_lines

    text = (
        "PINELLAS COUNTY, FLORIDA\nPurchasing Division\n\n"
        "REQUEST FOR QUALIFICATIONS No. 27-0193-311\n"
        "311 Citizen Request Management and Contact Centre Software\n"
        "Release Date: October 30, 2026\n\n1. INTRODUCTION\n"
    )
    scope = {"rfp_partition": "p", "title": "PINELLAS COUNTY, FLORIDA", "issuer": "Pinellas County"}
    assert brief_title(scope, ["INTRODUCTION"], cover_lines(text)) == (
        "REQUEST FOR QUALIFICATIONS No. 27-0193-311 — 311 Citizen Request Management and "
        "Contact Centre Software"
    )
    # a field or a date below the solicitation's line is no project name
    dated = text.replace("311 Citizen Request Management and Contact Centre Software\n", "")
    solicitation = "REQUEST FOR QUALIFICATIONS No. 27-0193-311"
    assert brief_title(scope, [], cover_lines(dated)) == solicitation
    # Markdown heading marks go; a title that is no cover line stays as read
    md = "# STATE OF NEBRASKA\n\n**RFP 1234**\n\nCase Management System\n"
    assert cover_lines(md) == ["STATE OF NEBRASKA", "RFP 1234", "Case Management System"]
    assert brief_title(SCOPE, [], cover_lines(md)) == "RFP 1234 — Case Management System"
    kept = {"rfp_partition": "p", "title": "Help Desk Services", "issuer": "Pinellas County"}
    assert brief_title(kept, [], cover_lines(text)) == "Help Desk Services"


def test_ocr_and_empty_pages_and_a_failed_override_are_warned_about():
    document = {"headings": [], "ocr_pages": {3: 87.46, 5: 61.0}, "pages_without_text": [7]}
    problem = "overrides/p.yaml: override 1 names PP-951, rejected: lib.csv row 9: no title"
    text = brief_markdown(SCOPE, [], set(), document=document, override_problem=problem)
    warnings = [line for line in text.splitlines() if line.startswith("> **Warning:**")]
    assert warnings == [
        "> **Warning:** Read by OCR (scanned, no text layer): pages 3 (87% word confidence), 5 "
        "(61% word confidence). OCR misreads numbers and names: check anything quoted from them "
        "against the PDF.",
        "> **Warning:** No text could be read on page 7: any requirement there is missing from "
        "this brief.",
        "> **Warning:** Override file not applied: overrides/p.yaml: override 1 names PP-951, "
        "rejected: lib.csv row 9: no title",
    ]
    page = brief_html(SCOPE, [], set(), document=document, override_problem=problem)
    assert page.count('class="warn document-warning"') == 3


REJECTED = pl.DataFrame(
    {
        "file": ["past_performance_matrix.csv"],
        "row": [152],
        "reason": ["no title: give the entry a title"],
        "raw": [json.dumps({"ID": "PP-951", "Client": "Somewhere"})],
    }
)


def test_an_override_to_a_rejected_row_says_rejected_and_why(tmp_path):
    path = tmp_path / "rfp-a.yaml"
    path.write_text(
        "overrides:\n  - replace: PP-1\n    with: pp-951\n    by: Dana\n    at: 2026-06-10\n"
        "    reason: The CO asked for it.\n",
        encoding="utf-8",
    )
    rejected = rejected_id_reasons(REJECTED)
    with pytest.raises(OverrideError) as exc:
        load_overrides(path, {"PP-1", "PP-2"}, rejected)
    assert str(exc.value) == (
        f"{path}: override 1 names pp-951, rejected: past_performance_matrix.csv row 152: "
        "no title: give the entry a title; fix the library row (or pick another entry) and re-run"
    )
    problem = override_problem(path, {"PP-1", "PP-2"}, ["PP-1"], "rfp-a", rejected)
    assert "rejected: past_performance_matrix.csv row 152" in problem
    assert "does not hold" not in problem


def test_the_document_table_keeps_the_pages_read_by_ocr():
    from rfp_retrieval.documents.records import RfpDocument
    from rfp_retrieval.documents.tables import document_frame, document_from_frames, outline_frame

    doc = RfpDocument("scan.pdf", "pdf", "RFP 7", "x", [], "", ocr_pages={2: 91.25, 4: 58.0})
    frame = document_frame("p", doc)
    assert json.loads(frame["ocr_pages"][0]) == {"2": 91.2, "4": 58.0}
    assert document_from_frames(frame, outline_frame("p", doc)).ocr_pages == {2: 91.2, 4: 58.0}
