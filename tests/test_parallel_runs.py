"""RFPs dropped into the inbox at once are processed by several concurrent runs on the Postgres
instance and store, with the daemon doing what it does in a deployment: the inbox sensor adds
a partition and requests a run per file, the queued run coordinator starts up to 4 at once
(``instance_config.POSTGRES_MAX_RUNS``), each run in its own process.

Checked: every run succeeds, each partition is materialized exactly once per asset, runs
really overlapped (and never more than 4), 3 references per RFP in the store, and every
stored vector and every ScopeQuery is of the configured model. A variant rebuilds (re-embeds)
the library in the middle, from another process, while the RFP runs read it.

The daemon runs from the Dagster home with the project's workspace (as ``rfp-retrieval ui``
starts ``dagster dev``), with the settings and URL in its environment and no PYTHONPATH.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import dagster as dg
import pytest

from instance_config import POSTGRES_MAX_RUNS, write_home_instance
from tests.conftest import REPO, SHARED_DATA
from tests.small_project import project_config, small_answers, small_library

BIN = Path(sys.executable).parent
SAMPLE_INBOX = REPO / "sample" / "inbox"
RFP_JOB = "rfp_job"
RFP_ASSETS = (
    "rfp_document",
    "rfp_outline",
    "rfp_questions",
    "scope_query",
    "rewritten_questions",
    "pp_references",
    "question_answers",
    "response_brief",
)
TIMEOUT_S = 2400


def rfp_files(count: int) -> list[Path]:
    """``count`` distinct RFPs: the 4 sample RFPs, then the dev past-performance excerpts."""
    files = sorted(SAMPLE_INBOX.iterdir())
    for folder in ("pp_golden_dev", "pp_golden_dev2"):
        files += sorted((SHARED_DATA / folder).glob("S*.md"))
    if len(files) < count:
        pytest.skip(f"needs {count} RFPs; {SHARED_DATA} holds fewer (missing shared data?)")
    return files[:count]


def daemon_env(home: Path, config: Path, postgres_url: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k != "PYTHONPATH" and not k.startswith(("RFP_RETRIEVAL_", "DAGSTER_"))
    }
    env.update(
        {
            "DAGSTER_HOME": str(home),
            "RFP_RETRIEVAL_CONFIG": str(config),
            "RFP_RETRIEVAL_POSTGRES_URL": postgres_url,
            "RFP_RETRIEVAL_PRECISION": os.environ.get("RFP_RETRIEVAL_PRECISION", "fp32"),
        }
    )
    return env


def start_daemon(home: Path, env: dict[str, str]) -> subprocess.Popen:
    import launch

    workspace = launch.home_workspace(home, REPO)
    return subprocess.Popen(
        [str(BIN / "dagster-daemon"), "run", "-w", str(workspace)],
        cwd=home,
        env=env,
        stdout=(home / "daemon.log").open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own group: the test stops exactly what it started
    )


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)


def finished_rfp_runs(instance: dg.DagsterInstance, count: int, home: Path) -> list:
    """Wait until ``count`` rfp_job runs have finished; their records."""
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        records = instance.get_run_records(dg.RunsFilter(job_name=RFP_JOB))
        done = [r for r in records if r.dagster_run.is_finished]
        if len(done) >= count and len(records) == len(done):
            return done
        time.sleep(2)
    log = (home / "daemon.log").read_text(errors="replace")[-3000:]
    raise AssertionError(f"{count} RFP runs did not finish in {TIMEOUT_S} s; daemon log:\n{log}")


def most_at_once(records: list) -> int:
    """The largest number of runs in progress at the same moment (start/end times)."""
    edges = sorted(
        [(r.start_time, 1) for r in records] + [(r.end_time, -1) for r in records],
        key=lambda e: (e[0], e[1]),
    )
    running = peak = 0
    for _, step in edges:
        running += step
        peak = max(peak, running)
    return peak


def materializations_per_partition(instance: dg.DagsterInstance, asset: str) -> dict[str, int]:
    result = instance.fetch_materializations(dg.AssetKey(asset), limit=10_000)
    counts: dict[str, int] = {}
    for record in result.records:
        key = record.partition_key
        counts[key] = counts.get(key, 0) + 1
    return counts


def process_dropped_rfps(
    tmp_path, monkeypatch, postgres_url: str, count: int, reembed: bool
) -> list[dg.RunRecord]:
    """Build the library, drop ``count`` RFPs at once, let the daemon run them (rebuilding the
    library in this process once the first runs started, when ``reembed``), and check."""
    small_library(tmp_path / "library")
    small_answers(tmp_path / "answers")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    config = project_config(tmp_path)
    config.write_text(config.read_text() + "store: postgres\n")
    home = tmp_path / "home"
    write_home_instance(home, "postgres")
    env = daemon_env(home, config, postgres_url)
    monkeypatch.setenv("RFP_RETRIEVAL_POSTGRES_URL", postgres_url)
    monkeypatch.setenv("RFP_RETRIEVAL_CONFIG", str(config))

    import launch
    from rfp_retrieval.inbox import partition_key_for
    from rfp_retrieval.settings import load_settings

    settings = load_settings(REPO, config_file=config)
    launcher = launch.Launcher(settings, home)
    assert launcher.run_library().success
    model = launcher.defs.resources["embedding_model"].model_id

    files = rfp_files(count)
    staged = tmp_path / "staged"
    staged.mkdir()
    for source in files:
        shutil.copy(source, staged / source.name)
    for path in sorted(staged.iterdir()):  # dropped at once: a rename each, same folder tree
        path.replace(inbox / path.name)
    keys = sorted(partition_key_for(path.name) for path in files)

    daemon = start_daemon(home, env)
    try:
        if reembed:
            deadline = time.monotonic() + TIMEOUT_S
            while not launcher.instance.get_runs(
                dg.RunsFilter(job_name=RFP_JOB, statuses=[dg.DagsterRunStatus.STARTED])
            ):
                assert time.monotonic() < deadline, "no RFP run started"
                assert daemon.poll() is None, (home / "daemon.log").read_text()[-3000:]
                time.sleep(1)
            reembedding = launcher.run_library()
            assert reembedding.success, reembedding.message
        records = finished_rfp_runs(launcher.instance, count, home)
    finally:
        stop(daemon)

    statuses = {r.dagster_run.tags["dagster/partition"]: r.dagster_run.status for r in records}
    assert sorted(statuses) == keys  # one run per RFP, none twice
    assert set(statuses.values()) == {dg.DagsterRunStatus.SUCCESS}
    assert most_at_once(records) == min(count, POSTGRES_MAX_RUNS)
    for asset in RFP_ASSETS:
        assert materializations_per_partition(launcher.instance, asset) == dict.fromkeys(keys, 1)

    store = launcher.store
    references = store.read_table("pp_references", ["rfp_partition", "rank", "id"])
    ranked = references.filter(references["rank"] > 0)
    assert sorted(ranked["rfp_partition"].unique().to_list()) == keys
    assert ranked.group_by("rfp_partition").len()["len"].to_list() == [3] * count
    scopes = store.read_table("scope_query", ["rfp_partition", "model"])
    assert sorted(scopes["rfp_partition"].to_list()) == keys
    assert set(scopes["model"].to_list()) == {model}
    vectors = store.read_table("pp_facet_embeddings", ["id", "facet", "model"])
    assert set(vectors["model"].to_list()) == {model}
    # one row per entry and facet: a rebuild replaced the table, never added to it
    assert vectors.height == vectors.select("id", "facet").n_unique() == 24 * 4
    checks = launcher.instance.event_log_storage.get_asset_check_execution_history(
        dg.AssetCheckKey(dg.AssetKey("pp_facet_embeddings"), "pp_facet_embeddings_match_model"),
        limit=10,
    )
    assert len(checks) == (2 if reembed else 1)
    assert all(c.status.value == "SUCCEEDED" for c in checks)
    return records


@pytest.mark.slow
@pytest.mark.extended  # about 8 minutes on 2 shared cores: 4 runs each load the model
def test_four_rfps_dropped_at_once_run_four_at_once_on_postgres(
    tmp_path, monkeypatch, fresh_postgres_url
):
    process_dropped_rfps(tmp_path, monkeypatch, fresh_postgres_url, 4, reembed=False)


@pytest.mark.slow
@pytest.mark.extended
def test_twenty_rfps_run_four_at_once_on_postgres(tmp_path, monkeypatch, fresh_postgres_url):
    process_dropped_rfps(tmp_path, monkeypatch, fresh_postgres_url, 20, reembed=False)


@pytest.mark.slow
@pytest.mark.extended
def test_twenty_rfps_with_the_library_re_embedded_in_the_middle(
    tmp_path, monkeypatch, fresh_postgres_url
):
    process_dropped_rfps(tmp_path, monkeypatch, fresh_postgres_url, 20, reembed=True)


@pytest.mark.slow
@pytest.mark.extended
def test_four_rfps_with_the_library_re_embedded_in_the_middle(
    tmp_path, monkeypatch, fresh_postgres_url
):
    process_dropped_rfps(tmp_path, monkeypatch, fresh_postgres_url, 4, reembed=True)
