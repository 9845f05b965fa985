"""Overrides made visible: the marks in the brief and ``run --json``, the file the review page
writes (``set_override``) and the example ``init`` leaves (no model involved)."""

from __future__ import annotations

import polars as pl
import pytest
from typer.testing import CliRunner

from rfp_retrieval.cli.app import app
from rfp_retrieval.cli.shapes import run_references
from rfp_retrieval.report.brief import brief_html, brief_markdown
from rfp_retrieval.retrieval.overrides import (
    EXAMPLE_FILE_NAME,
    EXAMPLE_OVERRIDE_FILE,
    OverrideError,
    load_overrides,
    override_line,
    override_marks,
    set_override,
    unmatched_override_files,
)
from tests.test_overrides import KNOWN, OVERRIDE_YAML, _ranked

SCOPE = {"rfp_partition": "rfp-a", "title": "RFP A", "as_of": "2026-06-08"}
NOTES = (
    '{"PP-5": {"why_cite": ["Matches the scope section \\"Claims\\": claims."], '
    '"check_before_citing": [{"kind": "vague", "text": "Vague outcomes."}]}}'
)


def _overridden(tmp_path) -> pl.DataFrame:
    path = tmp_path / "rfp-a.yaml"
    path.write_text(OVERRIDE_YAML, encoding="utf-8")
    return _ranked(load_overrides(path, KNOWN))


def test_marks_name_who_when_why_and_the_replaced_pick_with_its_score(tmp_path):
    marks = override_marks(_overridden(tmp_path).to_dicts())
    assert list(marks) == ["PP-5"]
    mark = marks["PP-5"]
    assert (mark["by"], mark["at"]) == ("Dana Writer", "2026-06-10")
    assert mark["reason"] == "The CO asked for the commercial claims work."
    assert mark["replaced"]["id"] == "PP-2"
    assert mark["replaced"]["title"] == "Title PP-2"
    assert mark["replaced"]["score"] == pytest.approx(0.8, abs=1e-6)
    assert override_line(mark) == (
        "Chosen by Dana Writer on 2026-06-10 in place of PP-2 (score 0.800): "
        "The CO asked for the commercial claims work."
    )


def test_no_override_no_mark(tmp_path):
    frame = _ranked(load_overrides(tmp_path / "missing.yaml", KNOWN))
    assert override_marks(frame.to_dicts()) == {}
    # A store written before overrides existed has no override columns: still no mark.
    assert override_marks(frame.drop("override_by", "overridden_by").to_dicts()) == {}


def test_brief_marks_the_overridden_pick_only(tmp_path):
    rows = _overridden(tmp_path).to_dicts()
    page = brief_html(SCOPE, rows)
    assert page.count('data-override="yes"') == 1
    assert '<div class="reference ref" data-id="PP-5" data-override="yes">' in page
    assert '<div class="override" data-replaced="PP-2">' in page
    assert "in place of PP-2 (score 0.800)" in page
    # the chart says why #2 may score below #3: its rank is the writer's
    assert page.count("writer override</text>") == 1
    assert 'class="sub">score 0.500, writer override</text>' in page
    markdown = brief_markdown(SCOPE, rows)
    assert (
        "- **Writer override:** Chosen by Dana Writer on 2026-06-10 in place of PP-2 "
        "(score 0.800): The CO asked for the commercial claims work." in markdown
    )


def test_run_references_carry_the_brief_notes_and_the_override(tmp_path):
    refs = run_references(_overridden(tmp_path), NOTES)
    assert [r["id"] for r in refs] == ["PP-1", "PP-5", "PP-3"]
    assert refs[1]["why_cite"] == ['Matches the scope section "Claims": claims.']
    assert refs[1]["check_before_citing"] == [{"kind": "vague", "text": "Vague outcomes."}]
    assert refs[1]["override"]["replaced"]["id"] == "PP-2"
    assert refs[1]["override"]["by"] == "Dana Writer"
    assert refs[0]["override"] is None and refs[0]["why_cite"] == []
    assert run_references(_overridden(tmp_path), None)[1]["check_before_citing"] == []


def test_set_override_adds_updates_and_undoes(tmp_path):
    path = tmp_path / "rfp-a.yaml"
    picks = ["PP-1", "PP-2", "PP-3"]
    kept = set_override(path, picks, "PP-2", "PP-5", "Dana", "Claims work.", KNOWN, "2026-06-10")
    assert [(o.replace_id, o.with_id, o.at) for o in kept] == [("PP-2", "PP-5", "2026-06-10")]
    assert load_overrides(path, KNOWN) == kept
    # Replacing the brought-in pick again updates that override: PP-2 is still the one out.
    picks = ["PP-1", "PP-5", "PP-3"]
    kept = set_override(path, picks, "PP-5", "PP-4", "Lee", "Closer scope.", KNOWN, "2026-06-11")
    assert [(o.replace_id, o.with_id, o.by) for o in kept] == [("PP-2", "PP-4", "Lee")]
    # Bringing back the pick it displaced removes the override.
    picks = ["PP-1", "PP-4", "PP-3"]
    assert set_override(path, picks, "PP-4", "PP-2", "Lee", "Back.", KNOWN) == []
    assert load_overrides(path, KNOWN) == []


@pytest.mark.parametrize(
    ("replace_id", "with_id", "by", "reason", "message"),
    [
        ("PP-2", "PP-9", "Dana", "why", "PP-9 is not an entry id of the library"),
        ("PP-2", "PP-5", "Dana", "  ", "give a reason"),
        ("PP-2", "PP-5", "", "why", "give your name"),
        ("PP-4", "PP-5", "Dana", "why", "PP-4 is not one of the current picks"),
        ("PP-2", "PP-3", "Dana", "why", "PP-3 is already one of the picks"),
    ],
)
def test_bad_review_input_changes_nothing(tmp_path, replace_id, with_id, by, reason, message):
    path = tmp_path / "rfp-a.yaml"
    path.write_text(OVERRIDE_YAML.replace("PP-2", "PP-4"), encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(OverrideError, match=message):
        set_override(path, ["PP-1", "PP-2", "PP-3"], replace_id, with_id, by, reason, KNOWN)
    assert path.read_bytes() == before


def test_init_writes_an_example_no_run_reads(tmp_path):
    folder = tmp_path / "proposals"
    result = CliRunner().invoke(app, ["init", str(folder)])
    assert result.exit_code == 0, result.output
    example = folder / "overrides" / EXAMPLE_FILE_NAME
    assert example.read_text(encoding="utf-8") == EXAMPLE_OVERRIDE_FILE
    assert sorted(p.name for p in (folder / "overrides").iterdir()) == [EXAMPLE_FILE_NAME]
    # Inert: no partition reads it and the unmatched-file warning ignores it ...
    assert unmatched_override_files(folder / "overrides", ["miami-dade-311-rfp-md"]) == []
    # ... and copied to <key>.yaml it is the documented format.
    copy = tmp_path / "rfp-a.yaml"
    copy.write_text(example.read_text(encoding="utf-8"), encoding="utf-8")
    (only,) = load_overrides(copy, {"PP-112", "PP-045"})
    assert (only.replace_id, only.with_id, only.by, only.at) == (
        "PP-112",
        "PP-045",
        "Dana Writer",
        "2026-06-10",
    )


def test_run_summary_names_the_override_under_the_pick():
    import copy
    import io

    from rich.console import Console

    from rfp_retrieval.cli.render import print_run_summary
    from tests.test_cli_summary import OUTCOMES

    outcomes = copy.deepcopy(OUTCOMES[:1])
    mark = {
        "by": "Dana Writer",
        "at": "2026-06-10T14:30:00",
        "reason": "The evaluators asked for case management.",
        "replaced": {"id": "PP-009", "title": "Old pick", "score": 0.512},
    }
    outcomes[0]["references"][1]["override"] = mark
    out = Console(width=80, file=io.StringIO(), color_system=None, force_terminal=False)
    print_run_summary(outcomes, out)
    flat = " ".join(out.file.getvalue().split())
    assert (
        "writer override: Chosen by Dana Writer on 2026-06-10 14:30 in place of PP-009 "
        "(score 0.512): The evaluators asked for case management." in flat
    )
    assert flat.count("writer override:") == 1
