"""One writer per DuckDB store at a time: ``rfp-retrieval run`` refused up front, UI runs queued.

A DuckDB file has one writer (DESIGN.md: the embedded store). Two ``run`` commands on one
project folder used to both start, and the second ended minutes later in a DuckDB lock
traceback (break-it, session 9). ``run`` now takes an exclusive lock beside the store file
before it builds any Dagster instance; a second ``run`` is refused at once, naming the
process that holds the store.

The lock is ``filelock.FileLock`` on ``<db>.run-lock``: an OS-level lock (``fcntl.flock`` on
POSIX, ``msvcrt.locking`` on Windows) that the operating system releases when the holding
process dies, so a killed run never leaves a stale lock behind. The holder's PID is written to
``<db>.run-lock.pid`` for the message only (a stale PID file is harmless: the lock decides).
The Postgres store has many writers and takes no lock.

Runs the UI's daemon or sensor launches (``rfp-retrieval ui``: each run in its own process)
take the same lock through the DuckDB IO manager (``resources.duckdb_io``, ``wait_for_store``):
such a run waits while a ``run`` command writes the store and then goes on, and a ``run``
command started while a UI run writes is refused naming that run's process (break-it, session
11: a ``run`` beside a sensor-started run ended in DuckDB's lock traceback). A process that
already holds the lock (the ``run`` or ``review`` command executing its runs in process) does
not take it again (``held_by_this_process``).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

WAIT_SECONDS = 1800.0
"""How long a UI-launched run waits for another writer of its DuckDB store before it fails
(``wait_for_store``): the longest an RFP run may take (``jobs.RFP_RUN_MAX_SECONDS``)."""

LOCK_SUFFIX = ".run-lock"
"""Appended to the DuckDB file's name for the lock file (its PID file adds ``.pid``)."""


HELD_LOCKS: list[Any] = []
"""Store locks taken by the command running now (``cli.run.hold_store_for_this_run``)."""

_HELD_HERE: dict[Path, int] = {}
"""Lock file -> how many ``StoreLock`` objects of this process hold it now."""


class StoreLock:
    """A held one-writer lock of a DuckDB store (``claim_store``, ``wait_for_store``);
    ``release()`` frees it (once; later calls do nothing)."""

    def __init__(self, lock: FileLock, path: Path) -> None:
        self._lock, self.path = lock, path
        _HELD_HERE[path] = _HELD_HERE.get(path, 0) + 1

    def release(self) -> None:
        """Free the lock (the OS frees it anyway if the process dies)."""
        if self._lock is None:
            return
        self._lock.release()
        self._lock = None
        left = _HELD_HERE.get(self.path, 1) - 1
        if left > 0:
            _HELD_HERE[self.path] = left
        else:
            _HELD_HERE.pop(self.path, None)


def held_by_this_process(db_path: Path | str) -> bool:
    """True while a ``StoreLock`` of this process holds the lock of ``db_path``."""
    return lock_path(db_path) in _HELD_HERE


def releases_store_locks(command: Callable[..., None]) -> Callable[..., None]:
    """Decorate a CLI command so that every store lock it took is released when it returns,
    exits or raises (the signature is kept for typer: ``functools.wraps``)."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        try:
            command(*args, **kwargs)
        finally:
            while HELD_LOCKS:
                HELD_LOCKS.pop().release()

    return wrapper


class StoreBusyError(Exception):
    """Another ``rfp-retrieval run`` holds the DuckDB store; the message names its PID."""


def lock_path(db_path: Path | str) -> Path:
    """The lock file of the DuckDB file ``db_path`` (``<db>.run-lock``, same folder; absolute)."""
    db_path = Path(db_path).absolute()
    return db_path.with_name(db_path.name + LOCK_SUFFIX)


def claim_store(db_path: Path | str, command: str = "run") -> StoreLock:
    """Take the one-writer lock of the DuckDB file ``db_path`` without waiting.

    ``command`` names the holder in the message a second claimant gets (``run``,
    ``review``, ``ui``). Returns the held lock; the caller releases it (``release()``) when
    its run ends, and the OS releases it if the process dies first. The folder of ``db_path``
    must exist (``run`` makes it first: ``settings.prepare_output_folders``).

    Raises:
        StoreBusyError: another process holds the lock; the message names the store, the
            holder's PID when it is known, and what to do.
    """
    return _acquire(db_path, command, timeout=0)


def wait_for_store(
    db_path: Path | str,
    command: str = "ui",
    timeout: float | None = None,
    on_wait: Callable[[str], None] | None = None,
) -> StoreLock:
    """Take the one-writer lock of ``db_path``, waiting up to ``timeout`` seconds (default
    ``WAIT_SECONDS``) while another process holds it; ``on_wait(message)`` is called once,
    before waiting, with the holder's description (a run's log line).

    Raises:
        StoreBusyError: the lock was still held after ``timeout`` seconds (the message as
            ``claim_store``'s, with how long it waited).
    """
    try:
        return _acquire(db_path, command, timeout=0)
    except StoreBusyError as exc:
        if on_wait is not None:
            on_wait(f"waiting for the store: {exc}")
    wait = WAIT_SECONDS if timeout is None else timeout
    try:
        return _acquire(db_path, command, timeout=wait)
    except StoreBusyError as exc:
        raise StoreBusyError(f"{exc} (waited {wait:g} s)") from None


def _acquire(db_path: Path | str, command: str, timeout: float) -> StoreLock:
    path = lock_path(db_path)
    lock = FileLock(str(path), timeout=timeout, is_singleton=False)
    pid_file = path.with_name(path.name + ".pid")
    try:
        lock.acquire()
    except Timeout:
        holder, held_by = _read_holder(pid_file)
        who = f"(process {holder}) " if holder else ""
        kill = f"kill {holder}" if holder else "stop it"
        raise StoreBusyError(
            f"{db_path}: another `rfp-retrieval {held_by}` {who}is writing this store; a DuckDB "
            f"file has one writer. Wait for it to finish, or {kill} if it hangs; a team that "
            "runs several at once sets store: postgres (README: Scaling out)."
        ) from None
    pid_file.write_text(f"{os.getpid()} {command}\n", encoding="utf-8")
    return StoreLock(lock, path)


def _read_holder(pid_file: Path) -> tuple[int | None, str]:
    """``(PID, command)`` written by the holder (``(None, "run")`` when missing or
    unreadable: the lock, not this file, decides)."""
    try:
        pid, _, command = pid_file.read_text(encoding="utf-8").strip().partition(" ")
        return int(pid), command or "run"
    except (OSError, ValueError):
        return None, "run"
