"""An impossible unquoted date in YAML (2025-13-06) stays one item's problem, never a crash.

PyYAML turns such a value into a ``ValueError`` (not a ``YAMLError``) while loading; before,
one typo in one write-up or answer block stopped the whole library load.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rfp_retrieval.answers.ingest import load_answer_library
from rfp_retrieval.answers.records import UNREADABLE_REVIEW_DATE
from rfp_retrieval.library.ingest import load_library
from rfp_retrieval.library.writeups import lenient_yaml_load
from rfp_retrieval.retrieval.overrides import OverrideError, load_overrides

SAMPLE_WRITEUPS = Path(__file__).resolve().parents[1] / "sample" / "library" / "writeups"


def test_lenient_yaml_keeps_impossible_dates_as_text_and_good_ones_as_dates():
    loaded = lenient_yaml_load("a: 2025-13-06\nb: 2025-02-30\nc: 2025-09-15\n")
    assert loaded["a"] == "2025-13-06"
    assert loaded["b"] == "2025-02-30"
    assert str(loaded["c"]) == "2025-09-15" and not isinstance(loaded["c"], str)


def test_writeup_with_impossible_last_updated_does_not_stop_the_library(tmp_path):
    good, bad = sorted(SAMPLE_WRITEUPS.glob("*.md"))[:2]
    (tmp_path / good.name).write_text(good.read_text(encoding="utf-8"), encoding="utf-8")
    text = bad.read_text(encoding="utf-8")
    head, rest = text.split("last_updated:", 1)
    text = head + "last_updated: 2025-13-06" + rest[rest.index("\n") :]
    (tmp_path / bad.name).write_text(text, encoding="utf-8")
    loaded = load_library(tmp_path)
    assert loaded.rejected == []
    assert len(loaded.entries) == 2
    (typo,) = [e for e in loaded.entries if e.source == bad.name]
    assert typo.last_updated is None
    assert any(d.startswith("unreadable-last-updated (") for d in typo.defects)


def test_answer_block_with_impossible_review_date_is_kept_with_the_problem(tmp_path):
    (tmp_path / "ok.md").write_text(
        "---\nid: AB-1\ntitle: Ok\nlast_reviewed: 2025-09-15\n---\nEncryption at rest.\n"
    )
    (tmp_path / "typo.md").write_text(
        "---\nid: AB-2\ntitle: Typo\nlast_reviewed: 2025-13-45\n---\nKey rotation yearly.\n"
    )
    library = load_answer_library(tmp_path)
    by_id = {b.id: b for b in library.blocks}
    assert sorted(by_id) == ["AB-1", "AB-2"]
    assert UNREADABLE_REVIEW_DATE in by_id["AB-2"].problems
    assert library.rejected == []


def _override(at: str) -> str:
    return (
        "overrides:\n  - replace: PP-112\n    with: PP-045\n    by: Dana\n"
        f"    at: {at}\n    reason: asked for SNAP\n"
    )


def test_override_with_impossible_date_is_an_override_error_naming_the_file(tmp_path):
    path = tmp_path / "rfp-md.yaml"
    path.write_text(_override("2026-13-10"))
    with pytest.raises(OverrideError) as info:
        load_overrides(path, {"PP-112", "PP-045"})
    assert str(path) in str(info.value)
    assert "'at' must be a date such as 2026-06-10" in str(info.value)
    assert "'2026-13-10'" in str(info.value)


def test_override_saved_as_utf16_says_to_resave_as_utf8(tmp_path):
    path = tmp_path / "rfp-md.yaml"
    path.write_text(_override("2026-06-10"), encoding="utf-16")
    with pytest.raises(OverrideError, match="not UTF-8 text .*re-save the file as UTF-8"):
        load_overrides(path, {"PP-112", "PP-045"})


def test_override_with_a_valid_date_still_loads(tmp_path):
    path = tmp_path / "rfp-md.yaml"
    path.write_text(_override("2026-06-10"))
    (override,) = load_overrides(path, {"PP-112", "PP-045"})
    assert override.at == "2026-06-10"
