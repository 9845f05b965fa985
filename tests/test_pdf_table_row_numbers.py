"""A PDF table whose number column is centred vertically against questions that wrap: the
row's number labels the whole row, in ``parse`` and the compliance matrix (new-user trial 16:
"5.1" printed between the two lines of its question came out as "...the resident 5.1 when...",
labelled "5")."""

from __future__ import annotations

from pathlib import Path

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.matrix import matrix_rows
from rfp_retrieval.documents.questions import find_questions
from tests.layout_pdf import one_page_pdf

NUMBER_X, TEXT_X, LIMIT_X = 76, 100, 520
ROWS = [
    # (number, lines of the question cell)
    ("3.1", ["How will you keep the caller informed when a request is", "closed by the crew?"]),
    (
        "3.2",
        [
            "What reporting do you provide to supervisors on the",
            "volume of requests, the time to close them and the",
            "requests still open at the end of each week?",
        ],
    ),
    ("3.3", ["Describe your hosting and backup arrangements."]),
    ("3.4", ["Which languages does the resident portal offer, and", "who translates it?"]),
]


def _table_pdf(tmp_path: Path, rules: bool, limits: bool = False) -> Path:
    """A heading, a lead-in and ``ROWS`` as a two-column table with 11-point text on a
    14-point leading, each number at the vertical middle of its row; ``rules`` draws the
    row borders (and keeps the rows 4 points apart, less than a paragraph gap); ``limits``
    adds a third column, a page limit centred like the number."""
    ops = [
        "BT /F2 13 Tf 72 720 Td (3. QUESTIONS) Tj ET",
        "BT /F1 11 Tf 72 696 Td (Respondents shall answer the following questions:) Tj ET",
    ]
    y = 672.0
    for number, lines in ROWS:
        top = y + 11
        for k, line in enumerate(lines):
            ops.append(f"BT /F1 11 Tf {TEXT_X} {y - 14 * k:g} Td ({line}) Tj ET")
        middle = y - 14 * (len(lines) - 1) / 2
        ops.append(f"BT /F1 11 Tf {NUMBER_X} {middle:g} Td ({number}) Tj ET")
        if limits:
            ops.append(f"BT /F1 11 Tf {LIMIT_X} {middle:g} Td ({len(lines)}) Tj ET")
        y -= 14 * len(lines) + (4 if rules else 12)
        if rules:
            ops.append(f"72 {top + 1:g} 440 0.7 re f")
    path = tmp_path / "rfq.pdf"
    path.write_bytes(one_page_pdf(ops))
    return path


def test_centred_row_numbers_label_their_wrapped_questions(tmp_path: Path):
    for rules, limits in ((False, False), (True, False), (True, True)):
        doc = load_document(_table_pdf(tmp_path, rules, limits))
        rows = [
            r for r in matrix_rows(doc, find_questions(doc)) if (r.label or "").startswith("3.")
        ]
        assert [(r.label, r.text) for r in rows] == [
            (number, " ".join(lines)) for number, lines in ROWS
        ], (rules, limits)
        if limits:  # a cell right of the question follows the row's text, as on a 1-line row
            lines = doc.text.splitlines()
            assert "requests still open at the end of each week? 3" in lines
            assert "volume of requests, the time to close them and the" in lines
        assert all(r.page == 1 for r in rows)
        # each row is an outline node under its heading, numbered as the table numbers it
        assert [s.number for s in doc.sections if (s.number or "").startswith("3.")] == [
            "3.1",
            "3.2",
            "3.3",
            "3.4",
        ]


def test_a_number_on_the_first_line_of_its_row_stays_there(tmp_path: Path):
    """Top-aligned rows (the number on the question's first baseline) and a row that opens
    with its number are read as before: nothing moves to the line above."""
    ops = ["BT /F2 13 Tf 72 720 Td (3. QUESTIONS) Tj ET"]
    y = 690.0
    for number, lines in ROWS[:2]:
        for k, line in enumerate(lines):
            ops.append(f"BT /F1 11 Tf {TEXT_X} {y - 14 * k:g} Td ({line}) Tj ET")
        ops.append(f"BT /F1 11 Tf {NUMBER_X} {y:g} Td ({number}) Tj ET")
        y -= 14 * len(lines) + 4  # rows closer than a paragraph gap, no rules
    path = tmp_path / "top.pdf"
    path.write_bytes(one_page_pdf(ops))
    doc = load_document(path)
    rows = [r for r in matrix_rows(doc, find_questions(doc)) if (r.label or "").startswith("3.")]
    assert [(r.label, r.text) for r in rows] == [(n, " ".join(lines)) for n, lines in ROWS[:2]]


def test_tight_numbered_paragraphs_with_hanging_lines_keep_their_numbers(tmp_path: Path):
    """Numbered paragraphs set without a gap, their wrapped lines hanging under the text:
    "3.2" opens a line right under 3.1's hanging line but is not centred in a bounded row."""
    lines = [
        ("3.1", "The offeror shall describe its help desk, its hours and the"),
        (None, "languages it supports."),
        ("3.2", "The offeror shall describe how it escalates a request that"),
        (None, "the first line cannot resolve."),
    ]
    ops = ["BT /F2 13 Tf 72 720 Td (3. REQUIREMENTS) Tj ET"]
    y = 690.0
    for number, text in lines:
        if number:
            ops.append(f"BT /F1 11 Tf {NUMBER_X} {y:g} Td ({number}) Tj ET")
        ops.append(f"BT /F1 11 Tf {TEXT_X} {y:g} Td ({text}) Tj ET")
        y -= 14
    path = tmp_path / "hanging.pdf"
    path.write_bytes(one_page_pdf(ops))
    doc = load_document(path)
    rows = [r for r in matrix_rows(doc, find_questions(doc)) if (r.label or "").startswith("3.")]
    assert [(r.label, r.text) for r in rows] == [
        ("3.1", f"{lines[0][1]} {lines[1][1]}"),
        ("3.2", f"{lines[2][1]} {lines[3][1]}"),
    ]
