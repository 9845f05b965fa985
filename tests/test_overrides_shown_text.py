"""Break-it: an override reason holding a right-to-left override (U+202E), an ANSI escape or
other control characters was shown as typed in the brief, the review page and ``run``: the
rest of the line displayed reversed. ``documents.text.shown_text`` strips them."""

from __future__ import annotations

import pytest

from rfp_retrieval.documents.text import shown_text
from rfp_retrieval.report.brief import brief_markdown
from rfp_retrieval.retrieval.overrides import OverrideError, load_overrides, set_override
from tests.test_overrides import KNOWN, _ranked

SCOPE = {"rfp_partition": "rfp-a", "title": "RFP A", "as_of": "2026-06-08"}


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("claims \u202eetis\u202c work", "claims etis work"),
        ("\u2066isolated\u2069 and \u200fmarked\u200e", "isolated and marked"),
        ("red \x1b[31malert\x1b[0m", "red [31malert[0m"),
        ("two\nlines\tand\u2028more\x00", "two lines and more"),
        ("Café – 5 %", "Café – 5 %"),  # letters, dashes and signs of any script stay
    ],
)
def test_shown_text(typed, shown):
    assert shown_text(typed) == shown


def test_a_reason_with_bidi_and_control_characters_is_shown_clean_in_the_brief(tmp_path):
    path = tmp_path / "rfp-a.yaml"
    path.write_text(
        "overrides:\n"
        "  - replace: PP-2\n"
        "    with: PP-5\n"
        '    by: "Dana\\u202e Writer"\n'
        "    at: 2026-06-10\n"
        '    reason: "The CO asked for \\u202ekrow smialc\\u202c the\\x07 commercial\\n work."\n',
        encoding="utf-8",
    )
    (override,) = load_overrides(path, KNOWN)
    assert (override.by, override.reason) == (
        "Dana Writer",
        "The CO asked for krow smialc the commercial work.",
    )
    markdown = brief_markdown(SCOPE, _ranked([override]).to_dicts())
    assert (
        "- **Writer override:** Chosen by Dana Writer on 2026-06-10 in place of PP-2 "
        "(score 0.800): The CO asked for krow smialc the commercial work." in markdown
    )
    assert not any(ch in markdown for ch in "\u202e\u202c\x07")


def test_a_reason_of_only_invisible_characters_is_an_error_naming_the_override(tmp_path):
    path = tmp_path / "rfp-a.yaml"
    path.write_text(
        "overrides:\n  - replace: PP-2\n    with: PP-5\n    by: Dana\n    at: 2026-06-10\n"
        '    reason: "\\u202e\\u200b"\n',
        encoding="utf-8",
    )
    with pytest.raises(OverrideError) as raised:
        load_overrides(path, KNOWN)
    assert str(raised.value) == (
        f"{path}: override 1: reason holds only invisible or control characters; write it out"
    )


def test_the_review_page_writes_the_reason_clean(tmp_path):
    path = tmp_path / "rfp-a.yaml"
    (written,) = set_override(
        path, ["PP-1", "PP-2", "PP-3"], "PP-2", "PP-5", "Dana", "Asked \u202efor\u202c it", KNOWN
    )
    assert written.reason == "Asked for it"
    assert "\u202e" not in path.read_text(encoding="utf-8")
    with pytest.raises(OverrideError, match="give a reason"):
        set_override(path, ["PP-1", "PP-5", "PP-3"], "PP-5", "PP-4", "Dana", "\u202e", KNOWN)


def test_an_override_file_that_cannot_be_written_is_an_override_error(tmp_path, monkeypatch):
    """Break-it: a read-only overrides folder (or a full disk) raised a bare OSError out of
    the review page's form handler; the page now says "Nothing changed: ..."."""
    import errno
    from pathlib import Path

    path = tmp_path / "rfp-a.yaml"
    set_override(path, ["PP-1", "PP-2", "PP-3"], "PP-2", "PP-5", "Dana", "First", KNOWN)
    before = path.read_bytes()

    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full)
    with pytest.raises(OverrideError) as raised:
        set_override(path, ["PP-1", "PP-5", "PP-3"], "PP-3", "PP-4", "Dana", "Second", KNOWN)
    assert str(raised.value) == (
        f"cannot write the override file {path} (No space left on device); set overrides_dir "
        "to a folder you can write (the file is unchanged)"
    )
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rfp-a.yaml"]
