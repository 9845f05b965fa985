"""`dagster dev` on this project: the UI's GraphQL shows every asset with group and description."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.slow

QUERY = """{ assetNodes { assetKey { path } groupName description isPartitioned
  hasAssetChecks } }"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _graphql(port: int, query: str) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/graphql",
        data=json.dumps({"query": query}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def test_dagster_dev_serves_the_asset_graph(tmp_path):
    home = tmp_path / "dagster_home"
    home.mkdir()
    shutil.copy(REPO / "dagster.yaml", home / "dagster.yaml")
    port = _free_port()
    dagster = Path(sys.executable).with_name("dagster")
    proc = subprocess.Popen(
        [str(dagster), "dev", "-w", "workspace.yaml", "-h", "127.0.0.1", "-p", str(port)],
        cwd=REPO,
        env={**os.environ, "DAGSTER_HOME": str(home)},
        start_new_session=True,
        # launched from a non-interactive shell SIGINT would be inherited as ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.time() + 120
        nodes: list[dict] = []
        while time.time() < deadline and not nodes:
            try:
                nodes = (_graphql(port, QUERY).get("data") or {}).get("assetNodes") or []
            except OSError:
                pass
            if not nodes:
                time.sleep(1)
        by_key = {"/".join(n["assetKey"]["path"]): n for n in nodes}
        assert {"pp_entries", "pp_facet_embeddings", "scope_query", "pp_references"} <= set(by_key)
        assert by_key["pp_entries"]["groupName"] == "library"
        assert by_key["scope_query"]["groupName"] == "rfp"
        assert by_key["pp_references"]["groupName"] == "retrieval"
        assert by_key["pp_references"]["isPartitioned"] is True
        assert by_key["pp_entries"]["hasAssetChecks"] is True
        assert all(n["description"] for n in nodes), [
            k for k, n in by_key.items() if not n["description"]
        ]
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
