"""Rows of either library left out of retrieval are named in the run output (file, row,
reason): an answer file with broken front matter is never dropped silently."""

from __future__ import annotations

import csv
import io

from rich.console import Console

from rfp_retrieval.answers.frames import blocks_frame
from rfp_retrieval.answers.ingest import load_answer_library
from rfp_retrieval.cli.render import print_run_summary
from rfp_retrieval.library.frames import rejected_frame
from rfp_retrieval.library.ingest import load_library
from rfp_retrieval.library.quality import rejected_library_rows
from tests.small_project import small_library

GOOD_BLOCK = "---\nid: AB-1\ntitle: Help desk staffing\ntopic: staffing\n---\nWe staff 24x7.\n"
BROKEN_BLOCK = "---\nid: AB-2\ntitle: [unclosed\n---\nOur approach to transition.\n"


def _libraries(tmp_path):
    library = small_library(tmp_path / "library", rows=3)
    matrix = library / "past_performance_matrix.csv"
    with matrix.open(newline="", encoding="utf-8") as f:
        records = list(csv.reader(f))
    records[2][records[0].index("Period of Performance")] = "sometime"
    with matrix.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(records)
    answers = tmp_path / "answers"
    answers.mkdir()
    (answers / "staffing.md").write_text(GOOD_BLOCK, encoding="utf-8")
    (answers / "transition.md").write_text(BROKEN_BLOCK, encoding="utf-8")
    pp = rejected_frame(load_library(library).rejected)
    blocks = blocks_frame(load_answer_library(answers), 365)
    return pp, blocks, answers


def test_broken_front_matter_and_a_bad_library_row_are_both_listed_with_file_and_reason(
    tmp_path,
):
    pp, blocks, answers = _libraries(tmp_path)
    rows = rejected_library_rows(pp, blocks)
    assert [(r["library"], r["file"], r["row"]) for r in rows] == [
        ("past performance", "past_performance_matrix.csv", 3),
        ("answers", str(answers / "transition.md"), None),
    ]
    assert rows[0]["reason"].startswith("PP-002: Period of Performance: period of performance")
    assert rows[1]["reason"].startswith("unreadable: front matter is not valid YAML")
    assert rejected_library_rows(None, None) == []


def test_the_run_summary_lists_the_left_out_rows(tmp_path):
    pp, blocks, _ = _libraries(tmp_path)
    out = Console(width=80, file=io.StringIO(), color_system=None)
    print_run_summary([], out, rejected_library_rows=rejected_library_rows(pp, blocks))
    lines = out.file.getvalue().splitlines()
    assert lines[2] == "Library rows left out (2):"
    assert lines[3].startswith(
        "  past_performance_matrix.csv row 3 (past performance): PP-002: Period of"
    )
    assert any(
        line.startswith("  transition.md (answers): unreadable: front matter is not valid YAML")
        for line in lines
    )


def test_an_older_duplicate_row_is_listed_as_left_out_naming_the_row_that_won(tmp_path):
    """New-user trial: the README promises every library row left out in the run summary, but
    a superseded duplicate was only shown by `rfp-retrieval library`."""
    from rfp_retrieval.library.frames import superseded_frame

    library = small_library(tmp_path / "library", rows=3)
    matrix = library / "past_performance_matrix.csv"
    with matrix.open(newline="", encoding="utf-8") as f:
        records = list(csv.reader(f))
    header = records[0]
    older = list(records[1])
    older[header.index("Last Updated")] = "2001-01-02"
    records.append(older)  # the same id again, updated long before the first row
    with matrix.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(records)
    loaded = load_library(library)
    rows = rejected_library_rows(
        rejected_frame(loaded.rejected), None, superseded_frame(loaded.superseded)
    )
    assert rows == [
        {
            "library": "past performance",
            "file": "past_performance_matrix.csv",
            "row": 5,
            "reason": f"older duplicate of {records[1][0]}: superseded by "
            "past_performance_matrix.csv row 2",
        }
    ]


def test_an_oversized_cell_rejects_its_row_and_the_rest_of_the_file_loads(tmp_path):
    """Break-it: a 160,000-character Description (over Python's CSV field limit of 131,072)
    stopped the whole library with a traceback naming neither the file nor the row."""
    library = small_library(tmp_path / "library", rows=3)
    matrix = library / "past_performance_matrix.csv"
    with matrix.open(newline="", encoding="utf-8") as f:
        records = list(csv.reader(f))
    header = records[0]
    records[2][header.index("Description")] = "word " * 32_000
    with matrix.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(records)
    loaded = load_library(library)
    assert sorted(e.id for e in loaded.entries) == [records[1][0], records[3][0]]
    [rejected] = loaded.rejected
    assert (rejected.file, rejected.row) == ("past_performance_matrix.csv", 3)
    assert rejected.reason == (
        f"{records[2][0]}: Description: 160,000 characters, more than the 100,000 a library "
        "cell holds (a pasted document or an unclosed quote?); shorten it, or move the "
        "narrative to writeups/<id>.md"
    )
    assert rejected.raw["Description"].endswith("... (160,000 characters)")


def test_hidden_xlsx_rows_and_sheets_load_with_a_defect_that_says_so(tmp_path):
    """Break-it: rows and a whole sheet hidden in the workbook loaded with no note, so an entry
    nobody sees in Excel could be cited (library.spreadsheet_rows.HIDDEN_RULE)."""
    import openpyxl

    source = small_library(tmp_path / "csv", rows=4) / "past_performance_matrix.csv"
    with source.open(newline="", encoding="utf-8") as f:
        records = list(csv.reader(f))
    workbook = openpyxl.Workbook()
    main = workbook.active
    main.title = "Library"
    for record in records[:4]:
        main.append(record)
    main.row_dimensions[3].hidden = True  # the second entry
    archive = workbook.create_sheet("Archive")
    archive.append(records[0])
    archive.append(records[4])
    archive.sheet_state = "hidden"
    library = tmp_path / "library"
    library.mkdir()
    workbook.save(library / "library.xlsx")
    loaded = load_library(library)
    defects = {e.id: [d for d in e.defects if d.startswith("hidden")] for e in loaded.entries}
    assert defects == {
        records[1][0]: [],
        records[2][0]: ["hidden-row"],
        records[3][0]: [],
        records[4][0]: ["hidden-sheet:Archive"],
    }
    assert loaded.rejected == []
