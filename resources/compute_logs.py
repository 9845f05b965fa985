"""The CLI's compute logs: each run's stdout and stderr in the same files, no helper processes.

Dagster's ``LocalComputeLogManager`` copies a run's stdout and stderr to files (what the UI
shows under a run's logs) and mirrors them back to the terminal through two ``tail -F``
processes, each watched by a Python process (``watch_orphans.py``): four processes started
and stopped per run (two Python interpreters), and on Ctrl-C, which the terminal sends to the
whole process group, each watcher prints a ``KeyboardInterrupt`` traceback.

``ThreadMirroredComputeLogManager`` writes the same files in the same places and mirrors them
with one thread per stream in the command's own process (nothing outlives the command, a
Ctrl-C prints nothing). ``thread_mirrored_compute_logs(instance)`` puts it on the CLI's
instance (``launch.Launcher``); ``dagster dev`` and its daemon keep the stock manager.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

from dagster._core.execution.compute_logs import redirect_to_file
from dagster._core.storage.compute_log_manager import CapturedLogContext, ComputeIOType
from dagster._core.storage.local_compute_log_manager import (
    IO_TYPE_EXTENSION,
    LocalComputeLogManager,
)
from dagster._utils import ensure_file, touch_file

POLL_SECONDS = 0.1
"""How often a mirror thread copies what was added to its file to the terminal."""


def _fileno(stream: Any) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):  # pytest's capture, a closed stream
        return None


def _copy_new(source: Any, fd: int) -> None:
    """Write what was added to ``source`` (a binary file) since the last call to ``fd``."""
    data = source.read()
    while data:
        try:
            written = os.write(fd, data)
        except OSError:  # the terminal went away: the file still has it all
            return
        data = data[written:]


@contextmanager
def mirrored(stream: TextIO, path: str) -> Iterator[None]:
    """Inside the block ``stream``'s file descriptor writes to the file ``path`` (appended),
    and a thread copies what the file gains to where ``stream`` wrote before, every
    ``POLL_SECONDS`` and once more at the end. A stream without a file descriptor is left
    alone (``redirect_to_file`` does nothing then)."""
    ensure_file(path)
    fd = _fileno(stream)
    if fd is None:
        with redirect_to_file(stream, path):
            yield
        return
    target = os.dup(fd)
    stop = threading.Event()

    def copy() -> None:
        with open(path, "rb") as source:
            while not stop.wait(POLL_SECONDS):
                _copy_new(source, target)
            _copy_new(source, target)

    thread = threading.Thread(target=copy, name=f"compute-log-mirror-{fd}", daemon=True)
    thread.start()
    try:
        with redirect_to_file(stream, path):
            yield
    finally:
        stop.set()
        thread.join(timeout=5)
        os.close(target)


class ThreadMirroredComputeLogManager(LocalComputeLogManager):
    """``LocalComputeLogManager`` (same files, same UI) that mirrors the captured streams to
    the terminal with threads instead of ``tail`` + ``watch_orphans`` processes."""

    @contextmanager
    def capture_logs(self, log_key: Sequence[str]) -> Iterator[CapturedLogContext]:
        """Capture stdout and stderr into the log key's ``.out`` / ``.err`` files (mirrored
        to the terminal), then mark the capture complete, as the stock manager does."""
        out = self.get_captured_local_path(log_key, IO_TYPE_EXTENSION[ComputeIOType.STDOUT])
        err = self.get_captured_local_path(log_key, IO_TYPE_EXTENSION[ComputeIOType.STDERR])
        with mirrored(sys.stdout, out), mirrored(sys.stderr, err):
            yield CapturedLogContext(log_key)
        touch_file(self.complete_artifact_path(log_key))


def thread_mirrored_compute_logs(instance: Any) -> bool:
    """Give ``instance`` (a ``DagsterInstance``) a ``ThreadMirroredComputeLogManager`` on the
    same folder when its compute log manager is exactly the stock ``LocalComputeLogManager``;
    True when it was swapped, False (nothing changed) for any other manager."""
    current = instance.compute_log_manager
    if type(current) is not LocalComputeLogManager:
        return False
    swapped = ThreadMirroredComputeLogManager(
        current._base_dir, current.polling_timeout, current.inst_data
    )
    instance._compute_log_manager = swapped
    swapped.register_instance(instance)
    return True
