"""One ``run`` per DuckDB store: a second one is refused at once, naming the holder's PID
(break-it: two runs on one folder ended minutes later in a DuckDB lock traceback), and a
killed holder leaves no stale lock."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import dagster as dg
import polars as pl
import pytest
from typer.testing import CliRunner

from rfp_retrieval.cli.app import app
from rfp_retrieval.storage.writer_lock import StoreBusyError, claim_store, lock_path

HOLDER = """
import sys, time
from rfp_retrieval.storage.writer_lock import claim_store
lock = claim_store(sys.argv[1])
print("held", flush=True)
time.sleep(120)
"""


@pytest.fixture
def holder(tmp_path):
    """A separate process holding the lock of ``tmp_path/var/store.duckdb``."""
    db = tmp_path / "var" / "store.duckdb"
    db.parent.mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline().strip() == "held"
    yield db, proc
    proc.kill()
    proc.wait()


def test_a_second_claim_names_the_holder_and_a_killed_holder_frees_the_store(holder):
    db, proc = holder
    with pytest.raises(StoreBusyError) as info:
        claim_store(db)
    assert str(info.value).startswith(
        f"{db}: another `rfp-retrieval run` (process {proc.pid}) is writing this store;"
    )
    assert f"kill {proc.pid}" in str(info.value)
    assert lock_path(db) == db.parent / "store.duckdb.run-lock"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while True:  # the OS frees the lock with the process; no stale lock is left
        try:
            lock = claim_store(db)
            break
        except StoreBusyError:
            assert time.monotonic() < deadline, "the killed holder's lock was never freed"
            time.sleep(0.1)
    lock.release()


def test_run_on_a_store_another_run_holds_exits_2_before_any_work(holder, tmp_path, monkeypatch):
    db, proc = holder
    for name in ("CONFIG", "DB_PATH", "STORE", "INBOX_DIR"):
        monkeypatch.delenv(f"RFP_RETRIEVAL_{name}", raising=False)
    config = tmp_path / "rfp-retrieval.yaml"
    config.write_text(f"db_path: {db}\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["run", "--config", str(config)])
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert f"Store error: {db}: another `rfp-retrieval run` (process {proc.pid})" in text
    assert "store: postgres" in text
    assert not db.exists()  # refused before any Dagster instance or store was opened


def test_the_lock_is_released_when_the_command_ends(tmp_path, monkeypatch):
    for name in ("CONFIG", "DB_PATH", "STORE", "INBOX_DIR"):
        monkeypatch.delenv(f"RFP_RETRIEVAL_{name}", raising=False)
    db = tmp_path / "var" / "store.duckdb"
    config = tmp_path / "rfp-retrieval.yaml"
    # an inbox that is not a folder: the run stops with a settings error after taking the lock
    config.write_text(f"db_path: {db}\ninbox_dir: {tmp_path / 'nowhere'}\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["run", "--config", str(config)])
    assert result.exit_code == 2, result.output
    assert "inbox_dir" in result.output
    claim_store(db).release()  # not still held by the ended command


def test_a_review_replacement_waits_for_no_run_and_says_why_when_the_store_is_held(holder):
    """Break-it: a `run` started while the review page re-ran a partition crashed in a
    DuckDB lock traceback. The review's re-run takes the same lock: while a run holds the
    store it re-runs nothing and says why; otherwise it holds the lock for the re-run."""
    from types import SimpleNamespace

    from rfp_retrieval.cli.review import _holding_store

    db, proc = holder
    settings = SimpleNamespace(store="duckdb", db_path=db)
    calls = []
    outcome = _holding_store(settings, lambda key, path: calls.append(key), "rfp-md", db)
    assert calls == [] and outcome.success is False
    assert outcome.message.startswith(
        f"{db}: another `rfp-retrieval run` (process {proc.pid}) is writing this store;"
    )
    assert outcome.message.endswith(
        "The replacement was not saved: submit it again when that run ends."
    )
    proc.kill()
    proc.wait()

    def rerun(key, path):  # while the review re-runs, a run is refused naming the review
        with pytest.raises(StoreBusyError, match=r"another `rfp-retrieval review` \(process "):
            claim_store(db)
        return key

    assert _holding_store(settings, rerun, "rfp-md", db) == "rfp-md"
    claim_store(db).release()  # released after the re-run


# --- runs the UI launches take the same lock through the DuckDB IO manager --------------------

RELEASE_AFTER = """
import sys, time
from rfp_retrieval.storage.writer_lock import claim_store
lock = claim_store(sys.argv[1], command="run")
print("held", flush=True)
time.sleep(float(sys.argv[2]))
lock.release()
print("released", flush=True)
time.sleep(60)
"""


def _materialize_one_table(db):
    """A one-asset run on the project's DuckDB IO manager, as a UI-launched run executes it
    (a process that holds no lock)."""
    from resources.duckdb_io import EvolvingDuckDBPolarsIOManager

    manager = EvolvingDuckDBPolarsIOManager(database=str(db), schema="s")
    instance = dg.DagsterInstance.ephemeral()
    result = dg.materialize(
        [tiny], resources={"io_manager": manager}, raise_on_error=False, instance=instance
    )
    return result, [entry.user_message for entry in instance.all_logs(result.run_id)]


@dg.asset
def tiny() -> pl.DataFrame:
    """Two rows."""
    return pl.DataFrame({"a": [1, 2]})


def test_a_run_without_the_lock_fails_naming_the_run_command_that_holds_the_store(
    holder, monkeypatch
):
    from rfp_retrieval.storage import writer_lock

    db, proc = holder
    monkeypatch.setattr(writer_lock, "WAIT_SECONDS", 0.3)
    result, _ = _materialize_one_table(db)
    assert not result.success
    errors = [
        e.event_specific_data.error.to_string()
        for e in result.all_events
        if getattr(e.event_specific_data, "error", None) is not None
    ]
    message = errors[0]
    assert "StoreBusyError" in message
    assert f"another `rfp-retrieval run` (process {proc.pid}) is writing this store" in message
    assert "(waited 0.3 s)" in message
    assert not writer_lock.held_by_this_process(db)


def test_a_run_waits_for_the_holder_then_writes_and_a_holding_process_takes_no_second_lock(
    tmp_path,
):
    from rfp_retrieval.storage import writer_lock

    db = tmp_path / "store.duckdb"
    proc = subprocess.Popen(
        [sys.executable, "-c", RELEASE_AFTER, str(db), "1.5"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout.readline().strip() == "held"
        started = time.monotonic()
        result, logs = _materialize_one_table(db)
        assert result.success
        assert time.monotonic() - started >= 1.0  # it waited for the holder
        assert any(
            m.startswith(f"waiting for the store: {db}: another `rfp-retrieval run` (process ")
            for m in logs
        ), logs
        assert proc.stdout.readline().strip() == "released"
    finally:
        proc.kill()
        proc.wait()
    assert not writer_lock.held_by_this_process(db)  # released after the run
    # a process holding the lock (the `run` command) runs its jobs without waiting on itself
    lock = claim_store(db)
    try:
        assert writer_lock.held_by_this_process(db)
        assert _materialize_one_table(db)[0].success
        assert writer_lock.held_by_this_process(db)  # the command's lock is still held
    finally:
        lock.release()
    assert not writer_lock.held_by_this_process(db)


def test_a_review_rerun_records_its_inputs_as_run_does_and_a_failed_one_records_nothing():
    """New-user trial: after a replacement on the review page, the next plain `run` ran that
    RFP again because the page's re-run left no input stamp."""
    from types import SimpleNamespace

    from rfp_retrieval.cli.review import _recorded

    recorded = []
    outcomes = iter([SimpleNamespace(success=True), SimpleNamespace(success=False)])
    launcher = SimpleNamespace(
        run_rfp=lambda key, path: next(outcomes),
        record_rfp_inputs=lambda files: recorded.extend(files),
    )
    assert _recorded(launcher, "rfp-md", "inbox/rfp.md").success
    assert recorded == [("rfp-md", "inbox/rfp.md")]
    assert not _recorded(launcher, "rfp-md", "inbox/rfp.md").success
    assert recorded == [("rfp-md", "inbox/rfp.md")]
