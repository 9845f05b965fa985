"""`rfp-retrieval ui` (dagster dev) on this project: the UI's GraphQL shows every asset with
group and description, and stopping the command by its process id stops every UI process."""

from __future__ import annotations

import json
import os
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


def _processes_with(marker: str) -> list[int]:
    """Pids of live processes whose environment or command line mentions ``marker``."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            text = (proc / "environ").read_bytes() + (proc / "cmdline").read_bytes()
            state = (proc / "stat").read_text().split(")")[-1].split()[0]
        except OSError:
            continue
        if marker.encode() in text and state != "Z":
            found.append(int(proc.name))
    return found


def test_ui_serves_the_asset_graph_and_stops_by_its_pid(tmp_path):
    home = tmp_path / "dagster_home"
    port = _free_port()
    cli = Path(sys.executable).with_name("rfp-retrieval")
    proc = subprocess.Popen(
        [str(cli), "ui", "--port", str(port)],
        cwd=REPO,
        env={**os.environ, "DAGSTER_HOME": str(home)},
        start_new_session=True,
        # as a shell's `cmd &` starts it: SIGINT ignored, inherited by children
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
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
        assert len(_processes_with(str(home))) >= 3  # wrapper, dagster dev, webserver...

        # The README's way to stop it: kill <pid> (SIGTERM) of the command.
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=90) == 0
        left = _processes_with(str(home))
        assert left == [], left
        try:
            _graphql(port, "{ __typename }")
            answered = True
        except OSError:
            answered = False
        assert not answered, "the UI still answers after its command was stopped"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        for pid in _processes_with(str(home)):
            os.kill(pid, signal.SIGKILL)
