"""Starting the UI after ``rfp-retrieval run`` re-runs nothing (issue 15, UI): the inbox
sensor's first tick, on the instance ``run`` used and with no cursor, requests neither the
library job nor an RFP partition already materialized from the same bytes; a new file and an
edited one (new bytes) get one run each."""

from __future__ import annotations

import shutil
from pathlib import Path

import dagster as dg

import launch
from rfp_retrieval.inbox import partition_key_for
from rfp_retrieval.settings import load_settings
from tests.conftest import REPO
from tests.small_project import MIAMI_RFP, small_answers, small_library

OTHER_RFP = REPO / "sample" / "inbox" / "disa-cyber-icam-rfp.md"


def _tick(defs, instance, cursor=None):
    from sensors.inbox import rfp_inbox_sensor

    context = dg.build_sensor_context(
        instance=instance,
        cursor=cursor,
        definitions=defs,
        instance_ref=instance.get_ref(),
        resources={"paths": defs.resources["paths"]},  # what the daemon gives the sensor
    )
    result = rfp_inbox_sensor.evaluate_tick(context)
    for request in result.dynamic_partitions_requests or []:  # what the daemon applies
        instance.add_dynamic_partitions(request.partitions_def_name, list(request.partition_keys))
    return result


def test_the_first_sensor_tick_after_run_requests_only_new_or_edited_files(tmp_path: Path):
    small_library(tmp_path / "library", rows=4)
    small_answers(tmp_path / "answers", topics=("api",))
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    done = Path(shutil.copy(MIAMI_RFP, inbox / MIAMI_RFP.name))
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
    key = partition_key_for(done.name)
    assert launcher.run_rfp(key, done).success

    # what `rfp-retrieval ui` then loads: the same settings, the same instance, no cursor
    first = _tick(launcher.defs, launcher.instance)
    assert isinstance(first, dg.SkipReason) or not first.run_requests, first

    new = Path(shutil.copy(OTHER_RFP, inbox / "new-rfp.md"))
    seen = _tick(launcher.defs, launcher.instance)  # first sight: held until seen unchanged
    assert not seen.run_requests
    second = _tick(launcher.defs, launcher.instance, seen.cursor)
    assert [(r.job_name, r.partition_key) for r in second.run_requests] == [
        ("rfp_job", "new-rfp-md")
    ]
    assert second.run_requests[0].run_key == f"new-rfp-md:{new.stat().st_mtime_ns}"

    # new bytes under the same name: run again; the library folder changed: rebuild it first
    done.write_text(done.read_text(encoding="utf-8") + "\nAddendum 1.\n", encoding="utf-8")
    (tmp_path / "library" / "extra.md").write_text("---\nid: PP-9\n---\n", encoding="utf-8")
    held = _tick(launcher.defs, launcher.instance, second.cursor)
    # the library job is queued at once, the edited RFP a tick later (seen unchanged)
    assert [(r.job_name, r.partition_key) for r in held.run_requests] == [("library_job", None)]
    third = _tick(launcher.defs, launcher.instance, held.cursor)
    assert [(r.job_name, r.partition_key) for r in third.run_requests] == [("rfp_job", key)]
