"""Break-it: a library title or narrative holding a right-to-left override (U+202E), a
zero-width space or a BEL was stored and shown as typed: the brief showed the title reversed,
and "PP\u200b-7" never matched "PP-7". Spreadsheet cells and write-ups lose those characters
as they are read (``documents.text.without_controls``); visible text is kept."""

from __future__ import annotations

from rfp_retrieval.documents.text import without_controls
from rfp_retrieval.library.ingest import load_library
from tests.test_library_typo_facts import HEADER


def test_without_controls_keeps_line_breaks_and_every_visible_character():
    assert without_controls("Line one\u2028line \u202etwo\u202c\tend\x07\n\nCafé 5 % – ok") == (
        "Line one\nline two\tend\n\nCafé 5 % – ok"
    )
    assert without_controls("plain text") == "plain text"


def test_spreadsheet_and_write_up_text_lose_invisible_controls(tmp_path):
    (tmp_path / "matrix.csv").write_text(
        HEADER + 'PP\u200b-7,"Grants \u202eLATROP\u202c",City of Springfield,Local,Prime,'
        'Stand-alone Contract,$2M,2020 - 2022,Java,Grants,"Built\x07 the portal.",'
        "Cut processing time 30%,2026-05-01\n",
        encoding="utf-8",
    )
    (tmp_path / "PP-8.md").write_text(
        '---\nid: PP-8\ntitle: "Claims \u2066Hub\u2069"\nrole: prime\n'
        "customer:\n  type: commercial\n  name: Acme\ncontract:\n  value: $3M\n"
        "  start_date: 2021-01-01\n  end_date: 2023-01-01\n---\n\n"
        "## Summary\n\nWe \u202ebuilt\u202c the claims hub.\u200b\n\nIt went live in 2022.\n",
        encoding="utf-8",
    )
    load = load_library(tmp_path)
    assert load.rejected == []
    by_id = {e.id: e for e in load.entries}
    assert sorted(by_id) == ["PP-7", "PP-8"]
    assert by_id["PP-7"].title == "Grants LATROP"
    assert by_id["PP-7"].narrative == "Built the portal."
    assert by_id["PP-8"].title == "Claims Hub"
    assert by_id["PP-8"].narrative == "We built the claims hub.\n\nIt went live in 2022."


def test_answer_blocks_and_qa_rows_lose_invisible_controls(tmp_path):
    """The answer library's passages are quoted in the brief too."""
    from rfp_retrieval.answers.ingest import load_answer_library

    (tmp_path / "AB-1.md").write_text(
        '---\nid: AB-1\ntitle: "Help \u202eksed\u202c"\ntopic: support\n---\n\n'
        "We staff the \u2066help desk\u2069 around the clock.\x07\n\nTier 2 in 4 hours.\n",
        encoding="utf-8",
    )
    (tmp_path / "past.csv").write_text(
        'Question,Answer\n"Describe\u200b your QA.","We test \u202eevery\u202c release."\n',
        encoding="utf-8",
    )
    library = load_answer_library(tmp_path)
    assert library.rejected == []
    by_title = {b.title: b.body for b in library.blocks}
    assert by_title == {
        "Help ksed": "We staff the help desk around the clock.\n\nTier 2 in 4 hours.",
        "Describe your QA.": "We test every release.",
    }
