"""An override file whose RFP was renamed in the inbox is reported, never silently dropped.

The partition key comes from the RFP's file name (``inbox.partition_key_for``), so renaming
``Miami-Dade 311 RFP.md`` starts a new partition and ``overrides/<old key>.yaml`` applies to
no run: ``run`` (and ``--json``'s ``unmatched_overrides``) names the override file, the gone
RFP file and the likely new one."""

from __future__ import annotations

import json
import shutil

import polars as pl
import pytest
from typer.testing import CliRunner

from rfp_retrieval.cli import app
from rfp_retrieval.cli.run import partition_sources, rfp_files_present
from rfp_retrieval.retrieval.overrides import unmatched_override_files
from tests.conftest import REPO
from tests.small_project import MIAMI_RFP, project_config, small_answers, small_library

YAML = "overrides: []\n"  # the contents do not matter: the file name decides


class _Store:
    def __init__(self, frame):
        self.frame = frame

    def read_table(self, table, columns=None):
        assert table == "rfp_document"
        return None if self.frame is None else self.frame.select(columns)


def test_an_override_of_a_partition_whose_rfp_file_is_gone_names_both_files(tmp_path):
    inbox, overrides = tmp_path / "inbox", tmp_path / "overrides"
    inbox.mkdir()
    overrides.mkdir()
    (inbox / "tdrs-rfp-v2.md").write_text("# RFP", encoding="utf-8")
    (inbox / "other.md").write_text("# RFP", encoding="utf-8")
    for key in ("tdrs-rfp-md", "other-md", "explicit-md"):
        (overrides / f"{key}.yaml").write_text(YAML, encoding="utf-8")
    kept = tmp_path / "elsewhere" / "explicit.md"  # run by name, outside the inbox
    kept.parent.mkdir()
    kept.write_text("# RFP", encoding="utf-8")
    store = _Store(
        pl.DataFrame(
            {
                "rfp_partition": ["tdrs-rfp-md", "other-md", "explicit-md"],
                "file": [str(inbox / "tdrs-rfp.md"), str(inbox / "other.md"), str(kept)],
                "text": ["", "", ""],
            }
        )
    )
    present = rfp_files_present(inbox, [])
    assert present == {"other-md": "other.md", "tdrs-rfp-v2-md": "tdrs-rfp-v2.md"}
    assert partition_sources(store)["tdrs-rfp-md"] == str(inbox / "tdrs-rfp.md")
    assert partition_sources(_Store(None)) == {}
    known = ["explicit-md", "other-md", "tdrs-rfp-md", "tdrs-rfp-v2-md"]
    found = unmatched_override_files(overrides, known, present, partition_sources(store))
    assert [(p.name, r) for p, r in found] == [
        (
            "tdrs-rfp-md.yaml",
            "its RFP partition tdrs-rfp-md was last read from tdrs-rfp.md, which is no longer "
            "in the inbox, so it applies to no run; if the RFP was renamed to tdrs-rfp-v2.md, "
            "rename this file to tdrs-rfp-v2-md.yaml (the key is in the run summary)",
        )
    ]
    # without the inbox's files (present None) the check is not made: the old behaviour
    assert unmatched_override_files(overrides, known) == []
    # removed, not renamed (no look-alike in the inbox): still reported, with the general hint
    (inbox / "tdrs-rfp-v2.md").unlink()
    present = rfp_files_present(inbox, [])
    unknown_source = {k: v for k, v in partition_sources(store).items() if k != "tdrs-rfp-md"}
    (gone,) = unmatched_override_files(overrides, known, present, unknown_source)
    assert gone[0].name == "tdrs-rfp-md.yaml"
    assert gone[1].startswith("its RFP partition tdrs-rfp-md was read from a file, which is")
    assert gone[1].endswith(
        "rename this file to its new partition key + .yaml (the key is in the run summary)"
    )


@pytest.mark.slow
def test_run_json_reports_the_override_of_a_renamed_rfp(tmp_path, monkeypatch):
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    monkeypatch.delenv("RFP_RETRIEVAL_CONFIG", raising=False)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    shutil.copy(MIAMI_RFP, inbox / MIAMI_RFP.name)
    small_library(tmp_path / "library", rows=4)
    small_answers(tmp_path / "answers", topics=("api",))
    config = project_config(tmp_path)
    args = ["run", "--project", str(REPO), "--config", str(config), "--json"]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    (item,) = json.loads(first.stdout)["rfps"]
    old_key = item["partition"]
    assert old_key == "miami-dade-311-rfp-md"
    (tmp_path / "overrides").mkdir()
    override = tmp_path / "overrides" / f"{old_key}.yaml"
    override.write_text("overrides: []\n", encoding="utf-8")
    (inbox / MIAMI_RFP.name).rename(inbox / "Miami-Dade 311 RFP v2.md")
    second = CliRunner().invoke(app, args)
    assert second.exit_code == 0, second.output
    payload = json.loads(second.stdout)
    assert [r["partition"] for r in payload["rfps"]] == ["miami-dade-311-rfp-v2-md"]
    assert payload["unmatched_overrides"] == [
        {
            "file": str(override),
            "reason": (
                f"its RFP partition {old_key} was last read from {MIAMI_RFP.name}, which is no "
                "longer in the inbox, so it applies to no run; if the RFP was renamed to "
                "Miami-Dade 311 RFP v2.md, rename this file to miami-dade-311-rfp-v2-md.yaml "
                "(the key is in the run summary)"
            ),
        }
    ]
