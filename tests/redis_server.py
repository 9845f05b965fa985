"""A throwaway Redis server for tests: Debian's ``redis-server`` on 127.0.0.1 in a temp folder.

Fixtures (import them into a test module: ``from tests.redis_server import redis_url``):

- ``redis_server`` (session): the running server (a ``RedisServer``), on a free port, with no
  persistence (nothing is saved to disk), stopped at teardown;
- ``redis_url`` (session): ``redis://127.0.0.1:PORT/0``, the Celery broker; ``RedisServer.url(1)``
  is a second database (the result backend).

When ``redis-server`` is missing the tests are skipped with a message, unless the environment
variable ``CI`` is set: then they fail, because CI installs it (``.ci/run``). Redis runs as
root without complaint, so no user switch is needed.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

START_TIMEOUT_S = 30


def find_redis_server() -> str | None:
    """Path of ``redis-server`` (PATH, then Debian's ``/usr/bin``), or None."""
    found = shutil.which("redis-server")
    if found:
        return found
    return "/usr/bin/redis-server" if Path("/usr/bin/redis-server").is_file() else None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _ping(port: int) -> bool:
    """True when a Redis server answers PING on 127.0.0.1:port (RESP, no client library)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"*1\r\n$4\r\nPING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


@dataclass
class RedisServer:
    """One running test server: its process, folder and port."""

    process: subprocess.Popen
    root: Path
    port: int

    def url(self, database: int = 0) -> str:
        """``redis://127.0.0.1:PORT/DATABASE``."""
        return f"redis://127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        """Terminate the server (then kill it after 10 s) and remove its folder."""
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        shutil.rmtree(self.root, ignore_errors=True)


def start_server(binary: str) -> RedisServer:
    """Start ``binary`` on 127.0.0.1 and a free port in a new temp folder.

    Raises RuntimeError with the server's log when it does not answer within
    ``START_TIMEOUT_S`` seconds.
    """
    root = Path(tempfile.mkdtemp(prefix="rfp-redis-"))
    port = _free_port()
    log = root / "redis.log"
    cmd = [
        binary,
        "--bind", "127.0.0.1",
        "--port", str(port),
        "--dir", str(root),
        "--save", "",
        "--appendonly", "no",
        "--protected-mode", "yes",
        "--logfile", str(log),
    ]  # fmt: skip
    process = subprocess.Popen(cmd, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    server = RedisServer(process=process, root=root, port=port)
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        if _ping(port):
            return server
        time.sleep(0.1)
    text = log.read_text(errors="replace") if log.is_file() else ""
    server.stop()
    raise RuntimeError(f"redis-server on port {port} did not start:\n{text[-2000:]}")


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A Redis server for the whole session (skipped when not installed, failed on CI)."""
    binary = find_redis_server()
    if binary is None:
        message = "Celery tests need Debian's `redis-server` package; install it to run them"
        if os.environ.get("CI"):
            pytest.fail(f"CI is set, so this is an error: {message}")
        pytest.skip(message)
    server = start_server(binary)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def redis_url(redis_server: RedisServer) -> str:
    """``redis://127.0.0.1:PORT/0`` of the session's server."""
    return redis_server.url(0)
