"""The CLI's compute logs (``resources.compute_logs``, issue 15: speed and Ctrl-C): a run's
stdout goes to the same file the UI reads and to the terminal, with no ``tail`` or
``watch_orphans`` process (each watcher printed a traceback on Ctrl-C)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import dagster as dg

import launch
from resources.compute_logs import ThreadMirroredComputeLogManager
from rfp_retrieval.settings import load_settings
from tests.conftest import REPO


@dg.op
def say_payroll() -> None:
    print("parallel payroll testing: 3 cycles", flush=True)


@dg.job
def payroll_job() -> None:
    say_payroll()


def test_cli_runs_capture_their_stdout_to_the_ui_file_and_the_terminal_without_processes(
    tmp_path, monkeypatch, capfd
):
    settings = load_settings(REPO, {"db_path": str(tmp_path / "store.duckdb")})
    instance = launch.Launcher(settings, tmp_path / "home").instance
    manager = instance.compute_log_manager
    assert type(manager) is ThreadMirroredComputeLogManager
    assert manager._base_dir == str(tmp_path / "home" / "storage")

    started: list[list[str]] = []
    popen = subprocess.Popen

    def recording(args, *rest, **kwargs):
        started.append([str(a) for a in args])
        return popen(args, *rest, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", recording)
    result = payroll_job.execute_in_process(instance=instance)
    assert result.success
    assert started == []  # the stock manager starts tail -F twice and watch_orphans.py twice

    out_files = list(Path(manager._base_dir).rglob("*.out"))
    assert len(out_files) == 1
    assert out_files[0].read_text() == "parallel payroll testing: 3 cycles\n"
    assert "parallel payroll testing: 3 cycles\n" in capfd.readouterr().out
