"""``rfp-retrieval run`` on the DuckDB store runs every new file in one Dagster run over their
partitions (issue 15, speed: ``launch.Launcher.run_batch``, ``assets.partitions.each_partition``)
and one bad file still never costs the others their results."""

from __future__ import annotations

import shutil
from pathlib import Path

import dagster as dg
import pytest

import launch
from rfp_retrieval.inbox import partition_key_for
from rfp_retrieval.lineage import SOURCE_SHA, file_sha
from rfp_retrieval.settings import load_settings
from sensors.inbox import is_materialized
from tests.conftest import REPO
from tests.small_project import MIAMI_RFP, small_answers, small_library

DISA_RFP = REPO / "sample" / "inbox" / "disa-cyber-icam-rfp.md"
RANGE_START = "dagster/asset_partition_range_start"
RANGE_END = "dagster/asset_partition_range_end"


def test_batch_ranges_are_the_stretches_of_adjacent_partitions():
    order = ["a", "b", "c", "d", "e", "f"]
    assert launch.batch_ranges(order, ["e", "a", "b", "d"]) == [["a", "b"], ["d", "e"]]
    assert launch.batch_ranges(order, ["f", "c"]) == [["c"], ["f"]]
    assert launch.batch_ranges(order, ["c", "b", "d", "c"]) == [["b", "c", "d"]]
    assert launch.batch_ranges(order, []) == []
    with pytest.raises(ValueError, match="'zz' is not a partition"):
        launch.batch_ranges(order, ["a", "zz"])


def _rfp_runs(instance) -> list:
    return list(reversed(instance.get_runs(dg.RunsFilter(job_name="rfp_job"))))


def test_new_files_share_one_run_and_a_bad_one_fails_alone(tmp_path: Path):
    small_library(tmp_path / "library", rows=4)
    small_answers(tmp_path / "answers", topics=("api",))
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    settings = load_settings(
        REPO,
        {
            "library_dir": str(tmp_path / "library"),
            "answers_dir": str(tmp_path / "answers"),
            "inbox_dir": str(inbox),
            "db_path": str(tmp_path / "store.duckdb"),
            "output_dir": str(tmp_path / "out"),
        },
    )
    launcher = launch.Launcher(settings, tmp_path / "home")
    assert launcher.run_library().success
    miami = Path(shutil.copy(MIAMI_RFP, inbox / MIAMI_RFP.name))
    disa = Path(shutil.copy(DISA_RFP, inbox / DISA_RFP.name))
    files = [(partition_key_for(p.name), p) for p in (miami, disa)]
    keys = [key for key, _ in files]

    outcomes = launcher.run_batch(files)
    assert {key: o.success for key, o in outcomes.items()} == dict.fromkeys(keys, True)
    (run,) = _rfp_runs(launcher.instance)  # one run for both partitions
    assert (run.tags[RANGE_START], run.tags[RANGE_END]) == (keys[0], keys[1])
    store = launcher.store
    for key, path in files:
        scope = store.read_partition("scope_query", key)
        assert scope.height == 1 and scope["rfp_partition"][0] == key
        assert store.read_partition("pp_references", key).height >= 1
        brief = store.read_partition("response_brief", key)
        assert brief["html_path"][0] == str(tmp_path / "out" / key / "brief.html")
        assert (tmp_path / "out" / key / "brief.html").is_file()
        # each partition's materialization carries its own file's SHA (the sensor's rule)
        record = launcher.instance.fetch_materializations(
            dg.AssetRecordsFilter(asset_key=dg.AssetKey("rfp_document"), asset_partitions=[key]),
            limit=1,
        ).records[0]
        assert record.asset_materialization.metadata[SOURCE_SHA].value == file_sha(path)
        assert record.asset_materialization.metadata["file"].value == str(path)
        assert is_materialized(launcher.instance, key, _InboxFile(path))
    assert (
        store.read_partition("rfp_document", keys[0])["title"][0]
        != (store.read_partition("rfp_document", keys[1])["title"][0])
    )
    miami_refs = store.read_partition("pp_references", keys[0])["id"].to_list()

    # a bad file beside a good new one: the range run fails, each runs alone, the good one
    # and the earlier partitions keep their results, the bad one names its file
    bad = inbox / "broken.pdf"
    bad.write_bytes(b"%PDF-1.4 truncated")
    again = Path(shutil.copy(DISA_RFP, inbox / "second-disa.md"))
    later = [(partition_key_for(p.name), p) for p in (bad, again)]
    outcomes = launcher.run_batch(later)
    assert not outcomes["broken-pdf"].success
    assert "broken.pdf" in outcomes["broken-pdf"].message
    assert outcomes["second-disa-md"].success
    runs = _rfp_runs(launcher.instance)
    assert [r.tags.get(RANGE_START) for r in runs[1:]] == ["broken-pdf", None, None]
    assert [r.tags.get("dagster/partition") for r in runs[2:]] == ["broken-pdf", "second-disa-md"]
    assert store.read_partition("scope_query", "second-disa-md").height == 1
    assert store.read_partition("scope_query", "broken-pdf").height == 0
    assert store.read_partition("pp_references", keys[0])["id"].to_list() == miami_refs
    assert sorted(store.partition_keys("response_brief")) == sorted([*keys, "second-disa-md"])


class _InboxFile:
    """What ``is_materialized`` reads of an inbox file: its path."""

    def __init__(self, path: Path) -> None:
        self.path = path


def test_the_cli_hands_existing_files_to_run_batch_and_never_runs_a_repeated_key(tmp_path):
    """Break-it: two files with one partition key on the command line (teamA/rfp.md,
    teamB/rfp.md) used to both run, the second overwriting the first's partition and brief
    with no word; the first keeps the partition, the second is not run and says what to
    rename, and the same file listed twice runs once."""
    from rich.progress import Progress

    from launch import RunOutcome
    from rfp_retrieval.cli.run import run_rfps

    calls = []

    class Launcher:
        def run_batch(self, files):
            calls.append(("batch", [(key, path.name) for key, path in files]))
            return {key: RunOutcome(success=False, error=f"bad {key}") for key, _ in files}

        def run_rfp(self, key, path):
            calls.append(("one", key, path.name))
            return RunOutcome(success=False, error=f"alone {key}")

    first, other = tmp_path / "RFP 1.md", tmp_path / "b.md"
    (tmp_path / "again").mkdir()
    repeat = tmp_path / "again" / "rfp_1.md"  # the same partition key as "RFP 1.md"
    for path in (first, other, repeat):
        path.write_text("# RFP\n", encoding="utf-8")
    gone = tmp_path / "gone.md"
    files = [str(first), str(gone), str(other), str(repeat), str(tmp_path / "." / "b.md")]
    with Progress(disable=True) as progress:
        outcomes = run_rfps(Launcher(), files, [str(gone)], progress)
    assert calls == [("batch", [("rfp-1-md", "RFP 1.md"), ("b-md", "b.md")])]
    assert [(o["partition"], o["status"], o["error"]) for o in outcomes] == [
        ("rfp-1-md", "failed", "bad rfp-1-md"),
        ("gone-md", "failed", f"{gone}: file not found"),
        ("b-md", "failed", "bad b-md"),
        (
            "rfp-1-md",
            "failed",
            f"{repeat}: not run: its partition key 'rfp-1-md' is already taken in this run by "
            f"{first} (partitions are named by the file name); rename one of the two files "
            "and run it again",
        ),
        (
            "b-md",
            "warning",
            f"{tmp_path / '.' / 'b.md'}: listed twice: it ran once (the row above)",
        ),
    ]
