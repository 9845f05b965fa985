"""Lettered "shall" lists under a short prompt in a statement of work are matrix rows with
their items, labelled with their paragraph's number and placed in its section."""

from __future__ import annotations

from pathlib import Path

from rfp_retrieval.documents.ask_patterns import is_requirement
from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.matrix import WORK_STATEMENT, matrix_rows

SOW = """REQUEST FOR QUOTATION 12-345

SECTION C - STATEMENT OF WORK

C.1 Background. The agency operates a help desk for its regional offices.

C.2 General. The contractor shall:

(a) answer all calls within two minutes;

(b) log every call in the ticket system.

C.3 Tasks.

C.3.1 Task 1 - Field Equipment Repair and Replacement. The contractor shall:

(a) repair failed radios within five business days;

(b) replace radios that cannot be repaired.

C.3.2 Task 2 - Reporting

The contractor shall:

(a) deliver a weekly status report;

(b) brief the project officer monthly.

SECTION L - INSTRUCTIONS TO OFFERORS

L.1 Format. Quotations shall not exceed 20 pages.
"""


def _rows(tmp_path: Path):
    path = tmp_path / "sow.txt"
    path.write_text(SOW, encoding="utf-8")
    return matrix_rows(load_document(path))


def test_a_modal_lead_in_is_a_requirement_however_short():
    assert is_requirement("The contractor shall:")
    assert is_requirement("Offerors must:")
    assert not is_requirement("The Government shall:")  # the buyer's own obligation


def test_short_shall_prompts_keep_their_lettered_items(tmp_path: Path):
    rows = {r.id: r for r in _rows(tmp_path)}
    by_label = {r.label: r for r in rows.values()}
    assert by_label["C.2"].text == "The contractor shall:"
    assert by_label["C.2(a)"].text == "answer all calls within two minutes;"
    assert by_label["C.2(b)"].text == "log every call in the ticket system."
    assert by_label["C.2"].section_path == "SECTION C - STATEMENT OF WORK > C.2 General"
    assert by_label["C.2(a)"].kind == WORK_STATEMENT


def test_prompt_run_in_after_a_long_task_title_is_in_its_own_section(tmp_path: Path):
    by_label = {r.label: r for r in _rows(tmp_path)}
    task = (
        "SECTION C - STATEMENT OF WORK > C.3 Tasks > "
        "C.3.1 Task 1 - Field Equipment Repair and Replacement"
    )
    assert by_label["C.3.1"].section_path == task
    assert by_label["C.3.1(a)"].text == "repair failed radios within five business days;"
    assert by_label["C.3.1(b)"].text == "replace radios that cannot be repaired."
    assert by_label["C.3.1(b)"].section_path == task


def test_prompt_on_its_own_line_takes_its_sections_number(tmp_path: Path):
    by_label = {r.label: r for r in _rows(tmp_path)}
    assert by_label["C.3.2"].text == "The contractor shall:"
    assert by_label["C.3.2(a)"].text == "deliver a weekly status report;"
    assert by_label["C.3.2(b)"].text == "brief the project officer monthly."
    assert None not in by_label


LIMITS = """# Request for Proposals 26-07

## 1. Proposal Instructions

### 1.1 Format

Proposals shall be organized in two volumes. Technical Volume: 25 pages maximum, 12-point font.
Price Volume: no page limit.
"""


def test_a_page_or_font_limit_without_a_verb_is_a_matrix_row(tmp_path: Path):
    path = tmp_path / "limits.md"
    path.write_text(LIMITS, encoding="utf-8")
    rows = [(r.label, r.text, r.kind) for r in matrix_rows(load_document(path))]
    assert rows == [
        ("1.1", "Proposals shall be organized in two volumes.", "requirement"),
        ("1.1", "Technical Volume: 25 pages maximum, 12-point font.", "requirement"),
    ]
    assert is_requirement("The past performance volume has a limit of 10 pages.")
    assert not is_requirement("The agency received 30 pages of public comments.")
