"""Past-performance requirements read wherever an RFP writes them (issue 18, round 2).

A requirement in a table row (a compliance matrix, a questionnaire) binds like the same
sentence in prose; the trial RFQ's wording of ongoing work, subcontract work and reference
format is read the way a proposal veteran reads it. Each RFP here is a small text written for
the test.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import docx

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.report.caveats import Caveat, ongoing_minimum_caveat
from rfp_retrieval.report.filters import filter_sentence
from rfp_retrieval.scope import read_scope

AS_OF = dt.date(2026, 12, 1)
TABLE_ROW = (
    "Provide three past performance references for contracts over $5M performed in the "
    "last 5 years."
)


def test_a_pp_requirement_in_a_docx_table_row_is_read(tmp_path: Path) -> None:
    """Break-it: a DOCX whose requirements are all table rows read no count, recency or
    value, and the brief said "value: any; no recency window"."""
    d = docx.Document()
    table = d.add_table(rows=3, cols=3)
    rows = [
        ("No.", "Requirement", "Response"),
        ("1", "Describe your approach to identity and access management.", ""),
        ("2", TABLE_ROW, ""),
    ]
    for r, cells in enumerate(rows):
        for c, text in enumerate(cells):
            table.cell(r, c).text = text
    path = tmp_path / "matrix.docx"
    d.save(str(path))
    reading = read_scope(load_document(path), AS_OF)
    assert reading.references_required == 3
    assert reading.recency_months == 60
    assert reading.ended_after == "2021-12-01"
    assert (reading.value_min, reading.value_max) == (5_000_000, None)
    (value,) = [t for t in reading.trace if t["filter"] == "value"]
    assert value["sentence"] == TABLE_ROW


def test_a_pp_requirement_in_a_markdown_table_cell_names_its_section(tmp_path: Path) -> None:
    path = tmp_path / "rfp.md"
    path.write_text(
        "# Request for Proposals: Records Portal\n\n## 1. Scope\n\nThe contractor will "
        "build a records portal.\n\n## 4. Submission Requirements\n\n"
        "| Item | Requirement |\n|---|---|\n| 4.1 | Technical approach of ten pages or less. |\n"
        "| 4.2 | Submit two (2) references for similar work completed within the past three "
        "(3) years. |\n",
        encoding="utf-8",
    )
    reading = read_scope(load_document(path), AS_OF)
    assert reading.references_required == 2
    assert reading.ended_after == "2023-12-01"
    (recency,) = [t for t in reading.trace if t["filter"] == "recency"]
    assert recency["section"].endswith("> 4. Submission Requirements")
    # a table cell never becomes an outcome sentence of the ranking texts
    assert "references" not in reading.outcome_text


def _read_pp(tmp_path: Path, pp_text: str):
    path = tmp_path / "rfq.md"
    path.write_text(
        "# Request for Quotations: Security Operations Support\n\nIssue date: 2026-10-28\n\n"
        "## C. Scope\n\nThe contractor will operate a security operations center.\n\n"
        f"## L.3 Past Performance\n\n{pp_text}\n",
        encoding="utf-8",
    )
    return read_scope(load_document(path))


def test_a_minimum_performed_duration_of_ongoing_work_is_read(tmp_path: Path) -> None:
    """Trial M3: "counts if at least one year has been performed" was not read."""
    reading = _read_pp(
        tmp_path,
        "Submit three (3) references. Work still in progress counts if at least one year has "
        "been performed.",
    )
    (item,) = [t for t in reading.trace if t["filter"] == "ongoing_min_months"]
    assert item["reading"] == {"months": 12, "anchor": "issue date", "started_by": "2025-10-28"}
    assert item["sentence"] == (
        "Work still in progress counts if at least one year has been performed."
    )
    assert filter_sentence(item).startswith(
        "work still in progress counts once 1 year performed (started by 2025-10-28)"
    )
    # no recency window is made of it
    assert reading.ended_after is None and reading.started_after is None


def test_subcontract_work_not_considered_means_prime_only(tmp_path: Path) -> None:
    reading = _read_pp(
        tmp_path,
        "Submit three (3) references. References for work performed as a subcontractor will "
        "not be considered.",
    )
    assert reading.require_prime is True
    (item,) = [t for t in reading.trace if t["filter"] == "require_prime"]
    assert item["sentence"].startswith("References for work performed as a subcontractor")


def test_the_reference_format_sentence_is_no_filter(tmp_path: Path) -> None:
    reading = _read_pp(
        tmp_path,
        "For each reference provide the contract number, customer, contracting officer's "
        "contact, period of performance, value, and a description of no more than one page.",
    )
    assert reading.references_required is None
    assert (reading.value_min, reading.value_max) == (None, None)
    assert reading.require_prime is False
    assert [t["filter"] for t in reading.trace if t["sentence"]] == []


RATING_PROSE = (
    "Submit three (3) references. Each reference will be rated for relevancy. Very relevant: "
    "a contract value over $20 million and the same scope. Relevant: a contract value of $5 "
    "million to $20 million and similar scope. Somewhat relevant: a contract value under $5 "
    "million and some of the scope."
)


def test_a_relevancy_rating_scale_in_prose_is_no_value_constraint(tmp_path: Path) -> None:
    """The bands grade relevance; read as bounds they contradicted each other (a conflict
    warning, and "over $20 million" applied as a floor)."""
    reading = _read_pp(tmp_path, RATING_PROSE)
    assert (reading.value_min, reading.value_max) == (None, None)
    assert reading.value_conflict is None
    assert reading.references_required == 3


def test_a_relevancy_rating_table_is_no_value_constraint(tmp_path: Path) -> None:
    reading = _read_pp(
        tmp_path,
        "Submit three (3) references.\n\n| Rating | Definition |\n|---|---|\n"
        "| Very Relevant | Effort with a contract value over $20 million and the same scope. |\n"
        "| Somewhat Relevant | Effort with a contract value under $5 million and some of the "
        "scope. |\n",
    )
    assert (reading.value_min, reading.value_max) == (None, None)
    assert reading.value_conflict is None


def test_a_band_rated_not_relevant_stays_a_floor(tmp_path: Path) -> None:
    reading = _read_pp(
        tmp_path,
        "Submit three (3) references. Very relevant: a contract value over $20 million. "
        "Contracts valued below $2 million will be considered not relevant.",
    )
    assert (reading.value_min, reading.value_max) == (2_000_000, None)


def test_an_ongoing_pick_short_of_the_performed_minimum_is_a_caveat(tmp_path: Path) -> None:
    """The read minimum reaches the writer on each ongoing pick (from the scope row's trace,
    as ``retrieval.scope_query`` stores it): started after the started-by date, it may not
    count yet; completed work, or ongoing work started before, has no such caveat."""
    reading = _read_pp(
        tmp_path,
        "Submit three (3) references. Work still in progress counts if at least one year has "
        "been performed.",
    )
    scope = {"trace": json.dumps(reading.trace), "as_of": dt.date(2026, 10, 28)}
    young = {"ongoing": True, "start_date": dt.date(2026, 3, 1), "end_date": None}
    assert ongoing_minimum_caveat(young, scope) == Caveat(
        "recency",
        "Ongoing since 2026-03-01: the RFP counts ongoing work once 1 year(s) performed "
        "(started by 2025-10-28); it may not count yet.",
    )
    old = {"ongoing": True, "start_date": dt.date(2025, 1, 1), "end_date": None}
    done = {"ongoing": False, "start_date": dt.date(2026, 3, 1), "end_date": dt.date(2026, 9, 1)}
    assert ongoing_minimum_caveat(old, scope) is None
    assert ongoing_minimum_caveat(done, scope) is None
    assert ongoing_minimum_caveat(young, {"trace": "[]"}) is None
