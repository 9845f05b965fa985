"""Odd inbox entries: a file name that is not UTF-8, a loop of links, a file deleted while
the inbox is listed. None may stop the other RFPs from being read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rfp_retrieval import inbox
from rfp_retrieval.inbox import partition_key_for, scan_inbox, skipped_in_inbox

LATIN1_NAME = os.fsdecode(b"Caf\xe9 RFP.md")  # 'Café RFP.md' written by a Latin-1 zip tool


@pytest.fixture
def latin1_inbox(tmp_path):
    folder = tmp_path / "inbox"
    folder.mkdir()
    try:
        (folder / LATIN1_NAME).write_text("# Statement of Work\n", encoding="utf-8")
    except (OSError, UnicodeError):
        pytest.skip("this file system refuses names that are not UTF-8")
    (folder / "Miami 311.md").write_text("# Statement of Work\n", encoding="utf-8")
    return folder


def test_a_name_that_is_not_utf8_gets_a_key_and_other_rfps_are_still_read(latin1_inbox):
    found = scan_inbox(latin1_inbox)
    assert sorted(found) == ["caf-rfp-md-948abb3c", "miami-311-md"]
    assert found["caf-rfp-md-948abb3c"].path == latin1_inbox.resolve() / LATIN1_NAME
    assert skipped_in_inbox(latin1_inbox) == []


def test_the_key_of_a_name_that_is_not_utf8_differs_from_its_utf8_spelling():
    assert partition_key_for(LATIN1_NAME) == "caf-rfp-md-948abb3c"
    assert partition_key_for("Café RFP.md") == "caf-rfp-md-814598c4"


def test_a_loop_of_links_is_reported_as_a_loop_not_as_missing(tmp_path):
    folder = tmp_path / "inbox"
    folder.mkdir()
    (folder / "a.md").symlink_to("b.md")
    (folder / "b.md").symlink_to("a.md")
    (folder / "gone.md").symlink_to("nowhere.md")
    (folder / "real.md").write_text("# SOW\n", encoding="utf-8")
    assert list(scan_inbox(folder)) == ["real-md"]
    reasons = {path.name: reason for path, reason in skipped_in_inbox(folder)}
    assert sorted(reasons) == ["a.md", "b.md", "gone.md"]
    assert reasons["a.md"].startswith("a link to b.md, which leads back to itself")
    assert reasons["b.md"].startswith("a link to a.md, which leads back to itself")
    assert reasons["gone.md"].startswith("a link to nowhere.md, which does not exist")


def test_a_file_deleted_while_the_inbox_is_listed_does_not_stop_the_scan(tmp_path, monkeypatch):
    folder = tmp_path / "inbox"
    folder.mkdir()
    for name in ("a.md", "c.md"):
        (folder / name).write_text("# SOW\n", encoding="utf-8")
    # b.md was there when it was listed and checked, and is gone by the time of its stat
    listed = sorted([*folder.iterdir(), folder / "b.md"])
    is_file = Path.is_file
    monkeypatch.setattr(Path, "iterdir", lambda self: iter(listed))
    monkeypatch.setattr(Path, "is_file", lambda self: self.name == "b.md" or is_file(self))
    assert sorted(inbox.scan_inbox(folder)) == ["a-md", "c-md"]


def test_an_rfp_whose_name_is_not_utf8_is_read_into_the_document_table(latin1_inbox):
    from rfp_retrieval.documents.extract import load_document
    from rfp_retrieval.documents.tables import document_frame

    path = latin1_inbox / LATIN1_NAME
    frame = document_frame("caf-rfp-md-948abb3c", load_document(path))
    assert frame.height == 1
    assert frame["rfp_partition"][0] == "caf-rfp-md-948abb3c"
    assert frame["file"][0] == str(latin1_inbox / "Caf\ufffd RFP.md")
    assert frame["file"][0].encode("utf-8").endswith(b"/inbox/Caf\xef\xbf\xbd RFP.md")


def test_run_json_shows_a_name_that_is_not_utf8_with_a_replacement_character(capsys):
    import json

    from rfp_retrieval.cli.shapes import print_json, run_item
    from rfp_retrieval.inbox import shown_name

    print_json({"rfps": [run_item(f"/inbox/{LATIN1_NAME}", "caf-rfp-md-948abb3c")]})
    out = capsys.readouterr().out
    assert "udce9" not in out
    item = json.loads(out)["rfps"][0]
    assert item["file"] == "/inbox/Caf\ufffd RFP.md"
    assert item["partition"] == "caf-rfp-md-948abb3c"
    assert shown_name("Café RFP.md") == "Café RFP.md"  # a UTF-8 name is kept as it is


def test_the_run_summary_shows_a_name_that_is_not_utf8_with_a_replacement_character():
    import io

    from rich.console import Console

    from rfp_retrieval.cli.render import print_run_summary
    from rfp_retrieval.cli.shapes import run_item

    failed = run_item(f"/inbox/{LATIN1_NAME}", "caf-rfp-md-948abb3c") | {"error": "no text"}
    out = Console(width=100, file=io.StringIO(), color_system=None, force_terminal=False)
    print_run_summary([failed], out, skipped=[{"file": f"/inbox/{LATIN1_NAME}x", "reason": "r"}])
    text = out.file.getvalue()
    assert "Caf\ufffd RFP.md: no text" in " ".join(text.split())
    assert "Caf\ufffd RFP.mdx: r" in " ".join(text.split())
    text.encode("utf-8")  # a terminal's UTF-8 stream takes it (a lone surrogate would raise)
