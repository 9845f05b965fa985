"""What the team drops into the inbox that is not an RFP is reported, never silently ignored."""

from __future__ import annotations

import io
from types import SimpleNamespace

from rich.console import Console

from launch import MODEL_ERRORS
from launch import failure_classes as _failure_classes
from rfp_retrieval.cli.render import print_run_summary as _print_run_summary
from rfp_retrieval.inbox import find_in_inbox, scan_inbox, skipped_in_inbox


def _inbox(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "rfp.md").write_text("# RFP\n")
    (inbox / ".DS_Store").write_bytes(b"\0\0\0\1Bud1")
    (inbox / "~$RFP.docx").write_text("lock")
    (inbox / "old.doc").write_bytes(b"\xd0\xcf\x11\xe0")
    (inbox / "RFP package").mkdir()
    (inbox / "RFP package" / "rfp2.md").write_text("# RFP 2\n")
    (inbox / "gone.md").symlink_to(tmp_path / "nowhere.md")
    target = tmp_path / "shared" / "usda-snap.md"
    target.parent.mkdir()
    target.write_text("# SNAP\n")
    (inbox / "snap link.md").symlink_to(target)
    return inbox


def test_skipped_lists_folders_broken_links_and_other_types_but_not_hidden_or_lock(tmp_path):
    inbox = _inbox(tmp_path)
    skipped = {path.name: reason for path, reason in skipped_in_inbox(inbox)}
    assert sorted(skipped) == ["RFP package", "gone.md", "old.doc"]
    assert skipped["RFP package"].startswith("a folder; files inside sub-folders are not read")
    assert skipped["gone.md"].startswith(f"a link to {tmp_path / 'nowhere.md'}, which does not")
    assert skipped["old.doc"].startswith("not an RFP file type ('.doc'); save it as PDF")


def test_a_symlinked_rfp_keeps_its_inbox_name_for_key_and_path(tmp_path):
    inbox = _inbox(tmp_path)
    found = scan_inbox(inbox)
    assert sorted(found) == ["rfp-md", "snap-link-md"]
    assert found["snap-link-md"].path == inbox.resolve() / "snap link.md"
    assert find_in_inbox(inbox, "snap-link-md").read_text() == "# SNAP\n"


def test_run_summary_lists_what_was_not_read():
    out = Console(width=80, file=io.StringIO(), color_system=None)
    _print_run_summary(
        [],
        out,
        skipped=[{"file": "/p/inbox/old.doc", "reason": "not an RFP file type ('.doc')"}],
    )
    lines = out.file.getvalue().splitlines()
    assert "Not read from the inbox (1):" in lines
    assert "  old.doc: not an RFP file type ('.doc')" in lines


def _failed_run(*class_names: str):
    error = None
    for name in reversed(class_names):
        error = SimpleNamespace(cls_name=name, cause=error)
    event = SimpleNamespace(
        event_type_value="STEP_FAILURE", step_failure_data=SimpleNamespace(error=error)
    )
    return SimpleNamespace(all_events=[event])


def test_a_model_error_behind_the_step_failure_is_recognised():
    classes = _failure_classes(
        _failed_run("DagsterExecutionStepExecutionError", "ModelNotFoundError")
    )
    assert classes & MODEL_ERRORS == {"ModelNotFoundError"}
    assert not _failure_classes(_failed_run("DagsterExecutionStepExecutionError", "KeyError")) & (
        MODEL_ERRORS
    )
