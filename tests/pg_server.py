"""A throwaway Postgres server for tests: Debian's binaries, a temp folder, 127.0.0.1.

Registered in ``tests/conftest.py`` via ``pytest_plugins``, so any test can ask for:

- ``postgres_server`` (session): the running server (a ``PostgresServer``), started once per
  session on a free port and stopped at teardown;
- ``postgres_url`` (session): ``postgresql://USER@127.0.0.1:PORT/rfp_test``, one database
  shared by the session;
- ``fresh_postgres_url`` (function): a new empty database for this test only (dropped after).

``PostgresServer.create_database(name)`` makes more databases when a test needs several.

The binaries are found with ``pg_config --bindir`` or by globbing
``/usr/lib/postgresql/*/bin`` (newest first). When they are missing the tests are skipped
with a message, unless the environment variable ``CI`` is set: then they fail, because CI
installs them (``.ci/run``). Postgres refuses to run as root, so when the tests run as root
the data folder is owned by an unprivileged user (``postgres`` when it exists, else
``nobody``) and ``initdb`` / ``pg_ctl`` run as that user through ``setpriv``. Authentication
is ``trust`` on 127.0.0.1 only (a throwaway server: no password exists anywhere).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

DB_USER = "rfp"
"""The superuser role the test server is initialised with (no password)."""
SESSION_DB = "rfp_test"
"""The database ``postgres_url`` names."""
_RUN_AS_CANDIDATES = ("postgres", "nobody")


def find_bindir() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``psql``, or None when not installed.

    Tries ``pg_config --bindir`` (Debian's ``/usr/bin/pg_config`` names the newest server),
    then ``/usr/lib/postgresql/*/bin`` with the highest major version first.
    """
    candidates: list[Path] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        try:
            out = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, check=True, timeout=30
            ).stdout.strip()
            candidates.append(Path(out))
        except (subprocess.SubprocessError, OSError):
            pass

    def major(path: str) -> int:
        try:
            return int(Path(path).parent.name.split(".")[0])
        except ValueError:
            return -1

    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=major)[::-1]]
    for folder in candidates:
        if all((folder / tool).is_file() for tool in ("initdb", "pg_ctl", "psql")):
            return folder
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _unprivileged_user() -> pwd.struct_passwd:
    for name in _RUN_AS_CANDIDATES:
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise RuntimeError(
        f"running as root and none of the users {_RUN_AS_CANDIDATES} exists to run Postgres as"
    )


@dataclass
class PostgresServer:
    """One running test server: its binaries, data folder, port and the OS user it runs as."""

    bindir: Path
    root: Path
    port: int
    run_as: pwd.struct_passwd | None = None
    databases: list[str] = field(default_factory=list)

    @property
    def datadir(self) -> Path:
        return self.root / "data"

    def url(self, database: str = SESSION_DB) -> str:
        """``postgresql://rfp@127.0.0.1:PORT/DATABASE`` (no password: trust on loopback)."""
        return f"postgresql://{DB_USER}@127.0.0.1:{self.port}/{database}"

    def _command(self, tool: str, *args: str) -> list[str]:
        cmd = [str(self.bindir / tool), *args]
        if self.run_as is None:
            return cmd
        return [
            "setpriv",
            f"--reuid={self.run_as.pw_uid}",
            f"--regid={self.run_as.pw_gid}",
            "--clear-groups",
            *cmd,
        ]

    def _run(self, tool: str, *args: str, timeout: float = 120) -> str:
        env = {**os.environ, "LC_ALL": "C", "PGTZ": "UTC"}
        env.pop("PGDATABASE", None)
        proc = subprocess.run(
            self._command(tool, *args),
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            cwd=self.root,
        )
        if proc.returncode != 0:
            raise RuntimeError(
                f"{tool} {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
            )
        return proc.stdout

    def start(self) -> None:
        """initdb (UTF8, C locale, trust on loopback) and start on 127.0.0.1:port.

        Raises RuntimeError with the tool's output when initdb or pg_ctl fails.
        """
        if self.run_as is not None:
            os.chown(self.root, self.run_as.pw_uid, self.run_as.pw_gid)
        self._run(
            "initdb",
            "-D",
            str(self.datadir),
            "-U",
            DB_USER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        )
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            "-c max_connections=100 -c shared_buffers=64MB -c timezone=UTC"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.datadir),
            "-o",
            options,
            "-l",
            str(self.root / "server.log"),
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self) -> None:
        """Stop the server (fast shutdown); leaves the data folder for the caller to remove."""
        try:
            self._run("pg_ctl", "-D", str(self.datadir), "-m", "fast", "-w", "stop", timeout=60)
        except (RuntimeError, subprocess.SubprocessError):
            self._run("pg_ctl", "-D", str(self.datadir), "-m", "immediate", "stop", timeout=60)

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run ``sql`` with psql as the superuser; returns unaligned, tuples-only output."""
        return self._run(
            "psql",
            "-X",
            "-q",
            "-A",
            "-t",
            "-v",
            "ON_ERROR_STOP=1",
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            DB_USER,
            "-d",
            database,
            "-c",
            sql,
        )

    def create_database(self, name: str | None = None) -> str:
        """Create an empty database (a random ``rfp_<hex>`` name by default); returns its URL."""
        name = name or f"rfp_{uuid.uuid4().hex[:12]}"
        self.psql(f'CREATE DATABASE "{name}"')
        self.databases.append(name)
        return self.url(name)

    def drop_database(self, name: str) -> None:
        """Drop ``name``, ending any session still connected to it."""
        self.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def start_server() -> PostgresServer:
    """Start a throwaway server; the caller stops it and removes ``server.root``.

    Raises RuntimeError when the binaries are missing (the message says what to install) or
    a tool fails.
    """
    bindir = find_bindir()
    if bindir is None:
        raise RuntimeError(
            "Postgres server binaries (initdb, pg_ctl, psql) not found via `pg_config --bindir` "
            "or /usr/lib/postgresql/*/bin; install Debian's `postgresql` package"
        )
    run_as = _unprivileged_user() if os.geteuid() == 0 else None
    root = Path(tempfile.mkdtemp(prefix="rfp-pg-"))
    server = PostgresServer(bindir=bindir, root=root, port=_free_port(), run_as=run_as)
    try:
        server.start()
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    return server


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A Postgres server for the whole session (skipped when not installed, failed on CI)."""
    if find_bindir() is None:
        message = (
            "Postgres tests need Debian's `postgresql` package (initdb, pg_ctl, psql under "
            "/usr/lib/postgresql/*/bin); install it to run them"
        )
        if os.environ.get("CI"):
            pytest.fail(f"CI is set, so this is an error: {message}")
        pytest.skip(message)
    server = start_server()
    try:
        server.create_database(SESSION_DB)
        yield server
    finally:
        try:
            server.stop()
        finally:
            shutil.rmtree(server.root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_url(postgres_server: PostgresServer) -> str:
    """URL of the session's shared database ``rfp_test`` (tests must not assume it is empty)."""
    return postgres_server.url(SESSION_DB)


@pytest.fixture
def fresh_postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """URL of a new, empty database for this test only; dropped at teardown."""
    url = postgres_server.create_database()
    yield url
    postgres_server.drop_database(url.rsplit("/", 1)[1])
