"""The writers' overrides become golden-set lines without a trip to the evaluation group
(new-user trial: ``<output_dir>/golden/overrides.jsonl`` was written only when the
``override_golden_lines`` asset was materialized by hand): ``rfp-retrieval run`` refreshes it
after its RFPs ran when the project has an override file or an earlier export
(``retrieval.overrides.override_golden_due``), and a project without overrides pays nothing."""

from __future__ import annotations

import json
import shutil

import dagster as dg
import pytest
from typer.testing import CliRunner

from jobs import OVERRIDE_GOLDEN_JOB
from rfp_retrieval.cli.app import app
from rfp_retrieval.retrieval.overrides import OVERRIDES_GOLDEN_JSONL, override_golden_due
from tests.small_project import MIAMI_RFP, project_config, small_answers, small_library


def test_the_export_is_due_with_an_override_file_or_an_earlier_export(tmp_path):
    overrides, output = tmp_path / "overrides", tmp_path / "out"
    assert override_golden_due(overrides, output) is False  # neither folder exists
    overrides.mkdir()
    (overrides / "example.yaml.example").write_text("overrides: []\n", encoding="utf-8")
    assert override_golden_due(overrides, output) is False  # init's example is not read
    (overrides / "rfp-md.yaml").write_text("overrides: []\n", encoding="utf-8")
    assert override_golden_due(overrides, output) is True
    (overrides / "rfp-md.yaml").unlink()
    (output / OVERRIDES_GOLDEN_JSONL).parent.mkdir(parents=True)
    (output / OVERRIDES_GOLDEN_JSONL).write_text("", encoding="utf-8")
    assert override_golden_due(overrides, output) is True  # a removed override must leave it


def golden_runs(home) -> int:
    with dg.DagsterInstance.from_config(str(home)) as instance:
        return len(instance.get_runs(dg.RunsFilter(job_name=OVERRIDE_GOLDEN_JOB)))


@pytest.mark.slow
def test_run_writes_the_overridden_picks_as_a_golden_line_and_drops_it_when_undone(
    tmp_path, monkeypatch
):
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    monkeypatch.delenv("RFP_RETRIEVAL_CONFIG", raising=False)
    (tmp_path / "inbox").mkdir()
    shutil.copy(MIAMI_RFP, tmp_path / "inbox" / MIAMI_RFP.name)
    small_library(tmp_path / "library", rows=24)
    small_answers(tmp_path / "answers", topics=("api",))
    config = project_config(tmp_path)
    home = tmp_path / "var" / "dagster_home"
    export = tmp_path / "out" / OVERRIDES_GOLDEN_JSONL
    runner = CliRunner()

    first = runner.invoke(app, ["run", "--config", str(config), "--json"])
    assert first.exit_code == 0, first.output
    (item,) = json.loads(first.stdout)["rfps"]
    picks = [r["id"] for r in item["references"]]
    assert not export.exists() and golden_runs(home) == 0  # no override: no export run

    # the library's rows are PP-001..PP-024: cite one the ranker did not pick instead of #2
    other = next(f"PP-{n:03d}" for n in range(1, 25) if f"PP-{n:03d}" not in picks)
    overrides = tmp_path / "overrides"
    overrides.mkdir()
    (overrides / f"{item['partition']}.yaml").write_text(
        f"overrides:\n  - replace: {picks[1]}\n    with: {other}\n    by: Dana Writer\n"
        "    at: 2026-06-10\n    reason: The evaluators asked for this customer's work.\n",
        encoding="utf-8",
    )
    second = runner.invoke(app, ["run", "--config", str(config), "--json"])
    assert second.exit_code == 0, second.output
    (line,) = [json.loads(x) for x in export.read_text(encoding="utf-8").splitlines()]
    assert line["scope_id"] == item["partition"]
    assert line["ideal"] == [picks[0], other, picks[2]]
    assert line["rfp_file"] == f"../../inbox/{MIAMI_RFP.name}"  # relative to the JSONL
    assert line["why"] == {
        other: "The evaluators asked for this customer's work. (override by Dana Writer, "
        "2026-06-10)"
    }
    assert golden_runs(home) == 1

    (overrides / f"{item['partition']}.yaml").unlink()  # undone: the line goes too
    third = runner.invoke(app, ["run", "--config", str(config), "--json"])
    assert third.exit_code == 0, third.output
    assert export.read_text(encoding="utf-8") == ""
    assert golden_runs(home) == 2
