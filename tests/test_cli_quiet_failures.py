"""Issue 16.7: an expected failure of one RFP (an empty PDF) prints the CLI's summary line and
no Dagster stack trace on stderr; an unexpected failure (a bug) names its class, its step and
the file holding its stack trace."""

from __future__ import annotations

import os
import subprocess
import sys

import dagster as dg
import pytest

import launch
from rfp_retrieval.documents.records import DocumentError
from tests.conftest import REPO
from tests.small_project import small_answers, small_library


@dg.op
def unreadable_file():
    try:
        raise DocumentError("empty.pdf", "file is empty (0 bytes); re-download or re-export it")
    except DocumentError as exc:
        raise dg.Failure(description=str(exc)) from exc


@dg.op
def buggy_step():
    raise RuntimeError("boom")


@dg.job
def expected_failure_job():
    unreadable_file()


@dg.job
def bug_job():
    buggy_step()


def test_a_failed_step_under_quiet_logs_prints_no_stack_trace(capfd):
    result = expected_failure_job.execute_in_process(
        run_config=launch.QUIET_LOGS, raise_on_error=False
    )
    assert not result.success
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Stack Trace" not in err and "STEP_FAILURE" not in err


def test_an_expected_failure_is_only_its_message(tmp_path):
    result = expected_failure_job.execute_in_process(
        run_config=launch.QUIET_LOGS, raise_on_error=False
    )
    outcome = launch.outcome_of(result, tmp_path / "failures")
    assert outcome.unexpected is None and outcome.trace_file is None
    assert outcome.message == "empty.pdf: file is empty (0 bytes); re-download or re-export it"
    assert not (tmp_path / "failures").exists()


def test_an_unexpected_failure_names_its_class_step_and_stack_trace_file(tmp_path):
    result = bug_job.execute_in_process(run_config=launch.QUIET_LOGS, raise_on_error=False)
    outcome = launch.outcome_of(result, tmp_path / "failures")
    trace = tmp_path / "failures" / f"{result.run_id}.txt"
    assert outcome.unexpected == "RuntimeError in step buggy_step"
    assert outcome.trace_file == str(trace)
    assert outcome.message == (
        "RuntimeError: boom (unexpected RuntimeError in step buggy_step: "
        f"the stack trace is in {trace})"
    )
    text = trace.read_text(encoding="utf-8")
    assert text.startswith(f"run {result.run_id} (bug_job), step buggy_step:\n")
    assert 'raise RuntimeError("boom")' in text and "Stack Trace" in text


@pytest.mark.slow
def test_run_prints_the_summary_line_and_no_stack_trace_for_an_empty_pdf(tmp_path):
    bad = tmp_path / "empty.pdf"
    bad.write_bytes(b"")
    library = small_library(tmp_path / "library", rows=6)
    answers = small_answers(tmp_path / "answers", topics=("api",))
    proc = subprocess.run(
        [
            *(sys.executable, "-m", "rfp_retrieval.cli", "run", "--project", str(REPO)),
            *("--library", str(library), "--answers", str(answers)),
            *("--db", str(tmp_path / "store.duckdb"), str(bad)),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "DAGSTER_HOME": str(tmp_path / "home"), "COLUMNS": "200"},
    )
    assert proc.returncode == 1, proc.stderr[-3000:]  # exit code unchanged: one file failed
    assert "Traceback" not in proc.stderr and "Stack Trace" not in proc.stderr, proc.stderr
    assert " - dagster - " not in proc.stderr  # none of Dagster's console lines
    summary = f"empty.pdf: {bad}: file is empty (0 bytes); re-download or re-export it"
    assert summary in proc.stdout, proc.stdout  # the summary's "Failed" list
