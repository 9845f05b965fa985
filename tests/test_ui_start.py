"""``rfp-retrieval ui`` starts without the false "dagster.yaml ... will not be used" warning
(issue 15, UI): ``dagster dev`` runs in the Dagster home, the one folder whose ``dagster.yaml``
it uses, and relative path variables keep meaning the caller's folder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

import launch
from tests.conftest import REPO
from tests.test_dagster_dev import QUERY, _free_port, _graphql, _processes_with


def test_ui_process_runs_in_the_home_with_absolute_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    environ = {"RFP_RETRIEVAL_INBOX_DIR": "drop", "RFP_RETRIEVAL_RANKING_MODE": "naive"}
    cmd, env = launch.ui_process(REPO, Path("home"), 3112, Path("team.yaml"), environ)
    assert launch.ui_cwd(Path("home")) == tmp_path / "home"
    assert env["DAGSTER_HOME"] == str(tmp_path / "home")
    assert env["RFP_RETRIEVAL_INBOX_DIR"] == str(tmp_path / "drop")
    assert env["RFP_RETRIEVAL_CONFIG"] == str(tmp_path / "team.yaml")
    assert env["RFP_RETRIEVAL_RANKING_MODE"] == "naive"  # not a path: unchanged
    assert cmd[2:4] == ["-w", str(tmp_path / "home" / "workspace.yaml")]
    # the code location's working directory is the project, not the home dagster dev runs in
    workspace = yaml.safe_load((tmp_path / "home" / "workspace.yaml").read_text())
    assert workspace["load_from"][0]["python_module"] == {
        "module_name": "definitions",
        "working_directory": str(REPO.resolve()),
        "location_name": "rfp_retrieval",
    }
    assert (tmp_path / "home" / "dagster.yaml").read_text() == (REPO / "dagster.yaml").read_text()


@pytest.mark.slow
def test_ui_start_logs_no_dagster_yaml_warning(tmp_path):
    home, log = tmp_path / "dagster_home", tmp_path / "ui-output.txt"
    (tmp_path / "library").mkdir()
    port = _free_port()
    cli = Path(sys.executable).with_name("rfp-retrieval")
    env = {
        **os.environ,
        "DAGSTER_HOME": str(home),
        # relative to the command's folder (tmp_path), read by the code location in the home
        "RFP_RETRIEVAL_LIBRARY_DIR": "library",
        "RFP_RETRIEVAL_INBOX_DIR": "inbox",
        "RFP_RETRIEVAL_DB_PATH": "store.duckdb",
        "PYTHONPATH": str(REPO),
    }
    with log.open("wb") as output:  # dagster dev logs on stdout, Python warnings on stderr
        proc = subprocess.Popen(
            [str(cli), "ui", "--port", str(port), "--project", str(REPO)],
            cwd=tmp_path,
            env=env,
            start_new_session=True,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline, nodes = time.time() + 120, []
        while time.time() < deadline and not nodes:
            try:
                nodes = (_graphql(port, QUERY).get("data") or {}).get("assetNodes") or []
            except OSError:
                time.sleep(1)
        assert any(n["assetKey"]["path"] == ["pp_references"] for n in nodes)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/server_info", timeout=10) as r:
            assert r.status == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=90)
        finally:
            for pid in _processes_with(str(home)):
                os.kill(pid, signal.SIGKILL)
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "Launching Dagster services" in text  # the log was captured
    assert "will not be used" not in text
    assert "dagster.yaml" not in text
