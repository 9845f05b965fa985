"""An RFP file with no section and no ask (a file holding only "Hello") still runs but gets
the status ``warning`` and says why, instead of ``ok`` with three references."""

from __future__ import annotations

import io

from rich.console import Console

from rfp_retrieval.cli.render import print_run_summary
from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions
from rfp_retrieval.documents.tables import outline_frame, questions_frame
from rfp_retrieval.inbox import NO_STRUCTURE, structure_warning

RFP = """# Help Desk Services RFP

## 1. Scope of Work

The contractor shall operate the help desk.

## 2. Questions

1. Describe your approach to staffing the help desk.
"""


def _frames(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    doc = load_document(path)
    return outline_frame("k", doc), questions_frame("k", find_questions(doc))


def test_a_file_holding_only_hello_gets_the_no_structure_warning(tmp_path):
    outline, questions = _frames(tmp_path, "hello.txt", "Hello\n")
    assert (outline.height, questions.height) == (0, 0)
    assert structure_warning(outline, questions) == NO_STRUCTURE
    assert NO_STRUCTURE.startswith("no sections or asks found")


def test_the_questions_asset_says_it_in_its_metadata(tmp_path):
    from assets.questions import _questions_one
    from rfp_retrieval.documents.tables import document_frame

    path = tmp_path / "hello.txt"
    path.write_text("Hello\n", encoding="utf-8")
    doc = load_document(path)
    frame, metadata = _questions_one(
        "hello-txt", document_frame("hello-txt", doc), outline_frame("hello-txt", doc)
    )
    assert frame.height == 0
    assert metadata["warning"] == NO_STRUCTURE


def test_an_rfp_with_sections_and_asks_gets_no_warning(tmp_path):
    outline, questions = _frames(tmp_path, "rfp.md", RFP)
    assert outline["number"].to_list() == [None, "1.", "2."]
    assert structure_warning(outline, questions) is None
    assert structure_warning(None, questions) is None  # not stored: unknown, no warning


def test_the_summary_shows_the_warning_apart_from_ok_and_failed():
    item = {
        "file": "/inbox/hello.txt",
        "partition": "hello-txt",
        "status": "warning",
        "error": NO_STRUCTURE,
        "scope_query": {
            "issuer": None,
            "issuer_type": None,
            "customer_types": [],
            "value_min": None,
            "value_max": None,
            "ended_after": None,
            "started_after": None,
        },
        "references": [],
        "brief": None,
    }
    out = Console(width=80, file=io.StringIO(), color_system=None)
    print_run_summary([item], out)
    text = out.file.getvalue()
    assert "Summary: 0 RFP(s) ok, 0 failed, 1 with a warning" in text
    assert "Warnings (the RFP ran; check the file):" in text
    assert "  hello.txt: no sections or asks found: the file has no numbered" in text
    assert "hello.txt   warning   -" in text
