"""One ``rfp-retrieval run`` per DuckDB store at a time, refused up front.

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
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

LOCK_SUFFIX = ".run-lock"
"""Appended to the DuckDB file's name for the lock file (its PID file adds ``.pid``)."""


HELD_LOCKS: list[Any] = []
"""Store locks taken by the command running now (``cli.run.hold_store_for_this_run``)."""


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
    """The lock file of the DuckDB file ``db_path`` (``<db>.run-lock``, same folder)."""
    db_path = Path(db_path)
    return db_path.with_name(db_path.name + LOCK_SUFFIX)


def claim_store(db_path: Path | str, command: str = "run") -> FileLock:
    """Take the one-writer lock of the DuckDB file ``db_path`` without waiting.

    ``command`` names the holder in the message a second claimant gets (``run``,
    ``review``). Returns the held lock; the caller releases it (``release()``) when its run
    ends, and the OS releases it if the process dies first. The folder of ``db_path`` must
    exist (``run`` makes it first: ``settings.prepare_output_folders``).

    Raises:
        StoreBusyError: another process holds the lock; the message names the store, the
            holder's PID when it is known, and what to do.
    """
    path = lock_path(db_path)
    lock = FileLock(str(path), timeout=0, is_singleton=False)
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
    return lock


def _read_holder(pid_file: Path) -> tuple[int | None, str]:
    """``(PID, command)`` written by the holder (``(None, "run")`` when missing or
    unreadable: the lock, not this file, decides)."""
    try:
        pid, _, command = pid_file.read_text(encoding="utf-8").strip().partition(" ")
        return int(pid), command or "run"
    except (OSError, ValueError):
        return None, "run"
