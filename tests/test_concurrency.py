"""Twenty RFPs dropped into the inbox at once: twenty partitions, each materialized once."""

from __future__ import annotations

import csv
import os
import time

import dagster as dg
import duckdb
import pytest

from rfp_retrieval.settings import load_settings
from tests.conftest import REPO

pytestmark = pytest.mark.slow

AGENCIES = [
    ("U.S. Department of Agriculture (USDA), Food and Nutrition Service (FNS)", "federal civilian"),
    ("Department of Veterans Affairs (VA), Veterans Health Administration (VHA)", "federal"),
    ("Defense Information Systems Agency (DISA)", "Department of Defense"),
    ("State of Ohio, Department of Medicaid", "state"),
]


def _rfp(n: int) -> str:
    issuer, customers = AGENCIES[n % len(AGENCIES)]
    low = 5 + n
    return f"""# Modernization Services RFP number {n}

**Issuing Agency:** {issuer}
**Issue Date:** June {n + 1}, 2026

## 1. Scope of Work

### 1.1 Cloud Migration
Migrate the legacy case management application to a commercial cloud, convert twenty years
of records with full reconciliation, and decommission the data center servers.

## 2. Past Performance (Section L.4)

Submit three (3) references performed within the last five (5) years for {customers}
customers, each with a total contract value of ${low}M to ${low + 20}M.
"""


def _small_library(folder):
    """The first 12 rows of the sample spreadsheet (keeps embedding time short)."""
    source = REPO / "sample" / "library" / "past_performance_matrix.csv"
    with source.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    folder.mkdir()
    with (folder / "matrix.csv").open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows[:13])


# extended since session 11 (CI time): the batch of new files in one run stays in the default
# run (test_run_batch), the sensor's drop through test_automation_conditions and test_dagster_dev
@pytest.mark.extended
def test_twenty_files_at_once_become_twenty_partitions_materialized_once(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    names = [f"RFP {n:02d} (batch).md" for n in range(18)] + ["Ünïcødé RFP.md", "a...b.md"]
    for n, name in enumerate(names):
        (inbox / name).write_text(_rfp(n), encoding="utf-8")
    settled = time.time_ns() - 60_000_000_000  # older than the sensor's settle window
    for path in inbox.iterdir():
        os.utime(path, ns=(settled, settled))
    _small_library(tmp_path / "library")
    answers = tmp_path / "answers"
    answers.mkdir()
    for block in sorted((REPO / "sample" / "answers" / "data-conversion").glob("*.md"))[:2]:
        (answers / block.name).write_text(block.read_text(encoding="utf-8"), encoding="utf-8")
    settings = load_settings(
        tmp_path,
        {
            "inbox_dir": str(inbox),
            "library_dir": str(tmp_path / "library"),
            "answers_dir": str(tmp_path / "answers"),
            "db_path": str(tmp_path / "store.duckdb"),
            "output_dir": str(tmp_path / "out"),
        },
    )
    from definitions import build_definitions
    from sensors.inbox import rfp_inbox_sensor

    defs = build_definitions(settings)
    with dg.instance_for_test() as instance:
        context = dg.build_sensor_context(
            instance=instance,
            definitions=defs,
            instance_ref=instance.get_ref(),
            resources={"paths": defs.resources["paths"]},
        )
        seen = rfp_inbox_sensor.evaluate_tick(context)  # first sight: held until unchanged
        result = rfp_inbox_sensor.evaluate_tick(
            dg.build_sensor_context(
                instance=instance,
                cursor=seen.cursor,
                definitions=defs,
                instance_ref=instance.get_ref(),
                resources={"paths": defs.resources["paths"]},
            )
        )
        requests = [*seen.run_requests, *result.run_requests]  # the library: on first sight
        for request in result.dynamic_partitions_requests:
            instance.add_dynamic_partitions(request.partitions_def_name, request.partition_keys)
        keys = instance.get_dynamic_partitions("rfp_documents")
        assert len(keys) == 20 and len(set(keys)) == 20
        assert all("..." not in k and "/" not in k for k in keys)
        rfp_requests = [r for r in requests if r.job_name == "rfp_job"]
        assert sorted(r.partition_key for r in rfp_requests) == sorted(keys)
        assert len({r.run_key for r in requests}) == 21
        # The queue runs one run at a time (DuckDB has one writer): library first, then RFPs.
        for request in requests:
            job = defs.resolve_job_def(request.job_name)
            run = job.execute_in_process(
                instance=instance, partition_key=request.partition_key, raise_on_error=False
            )
            assert run.success, request.partition_key
        # A second tick over the same files requests nothing: each partition ran exactly once.
        again = rfp_inbox_sensor.evaluate_tick(
            dg.build_sensor_context(
                instance=instance,
                cursor=result.cursor,
                definitions=defs,
                instance_ref=instance.get_ref(),
                resources={"paths": defs.resources["paths"]},
            )
        )
        assert again.run_requests == []
        runs = instance.get_runs(filters=dg.RunsFilter(job_name="rfp_job"))
        assert sorted(r.tags["dagster/partition"] for r in runs) == sorted(keys)
    con = duckdb.connect(str(settings.db_path), read_only=True)
    try:
        per_partition = con.execute(
            "SELECT rfp_partition, count(*), count(DISTINCT rank) FROM rfp.pp_references "
            "GROUP BY rfp_partition"
        ).fetchall()
        documents = con.execute("SELECT count(*) FROM rfp.rfp_document").fetchone()[0]
    finally:
        con.close()
    assert documents == 20
    assert len(per_partition) == 20
    # every partition once, ranks distinct; a state RFP (every fourth file, n % 4 == 3: RFP 03,
    # 07, 11, 15 and "a...b.md", written as number 19) keeps its
    # customer rule and the 12 rows hold one state/local entry (issue 18, defect 3: the
    # customer type is never dropped wholesale), so it gets one reference, the others three
    counts = {key: (count, distinct) for key, count, distinct in per_partition}
    state = {"rfp-03-batch-md", "rfp-07-batch-md", "rfp-11-batch-md", "rfp-15-batch-md", "a-b-md"}
    assert {key: counts[key] for key in state} == dict.fromkeys(state, (1, 1))
    assert all(counts[key] == (3, 3) for key in counts if key not in state)


def test_a_lock_held_by_another_process_is_waited_for_not_fatal(tmp_path):
    """A notebook holding the DuckDB file delays the run; the IO manager retries and succeeds."""
    import subprocess
    import sys
    import time

    _small_library(tmp_path / "library")
    answers = tmp_path / "answers"
    answers.mkdir()
    block = sorted((REPO / "sample" / "answers" / "data-conversion").glob("*.md"))[0]
    (answers / block.name).write_text(block.read_text(encoding="utf-8"), encoding="utf-8")
    settings = load_settings(
        tmp_path,
        {
            "library_dir": str(tmp_path / "library"),
            "answers_dir": str(answers),
            "db_path": str(tmp_path / "store.duckdb"),
        },
    )
    duckdb.connect(str(settings.db_path)).close()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('locked', "
            "flush=True); time.sleep(4); c.close()",
            str(settings.db_path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline().strip() == "locked"
    started = time.perf_counter()
    from definitions import build_definitions

    defs = build_definitions(settings)
    with dg.instance_for_test() as instance:
        result = defs.resolve_job_def("library_job").execute_in_process(
            instance=instance, raise_on_error=False
        )
    holder.wait(timeout=30)
    assert result.success
    assert time.perf_counter() - started >= 3.5
