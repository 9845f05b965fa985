"""``rfp-retrieval ui``: the Dagster UI (``dagster dev``) on this project, stopped cleanly.

The command line and the environment of ``dagster dev`` come from the project's launcher
(``launch.ui_process``: ``DAGSTER_HOME`` and ``--config`` given to the subprocess
explicitly); this module owns the process: its own process group, default stop signals, and
SIGINT, then SIGTERM, then SIGKILL when the command is stopped.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import typer

from rfp_retrieval.cli.app import (
    ConfigOption,
    ProjectOption,
    app,
    config_file,
    console,
    import_launcher,
    load_cli_settings,
    project_dir,
)


@app.command()
def ui(
    port: int = typer.Option(3000, help="Port of the Dagster UI on 127.0.0.1."),
    project: Path | None = ProjectOption,
    config: Path | None = ConfigOption,
) -> None:
    """Open the Dagster UI (dagster dev) on this project, with its own DAGSTER_HOME.

    Run history is kept in the project's var/dagster_home (or DAGSTER_HOME when set). The \
rfp_inbox_sensor starts on: a file dropped into the inbox becomes a partition and a run. \
Stop: Ctrl-C, or kill the process id it prints (the webserver, daemon and code server stop \
with it).
    """
    folder = project_dir(project)
    config = config_file(config)
    load_cli_settings(folder, config)  # a bad setting fails here, not inside the UI
    launch = import_launcher(folder)
    home = launch.dagster_home(folder, config)
    cmd, env = launch.ui_process(folder, home, port, config)
    console.print(
        f"Dagster UI on http://127.0.0.1:{port} (stop: Ctrl-C, or kill {os.getpid()})",
        highlight=False,
    )
    # dagster dev and its webserver, daemon and code servers get a process group of their
    # own, with default signal handling (a shell's `&` starts children with SIGINT ignored)
    proc = subprocess.Popen(
        cmd,
        cwd=launch.ui_cwd(home),
        env=env,
        start_new_session=True,
        preexec_fn=_default_stop_signals,
    )

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        proc.wait()
    except KeyboardInterrupt:
        console.print("stopping the Dagster UI...")
        _stop_process_group(proc)


def _default_stop_signals() -> None:
    """In the child before exec: SIGINT and SIGTERM handled by default (not inherited as
    ignored), so ``dagster dev`` shuts its processes down when asked."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _stop_process_group(proc: subprocess.Popen, grace_s: float = 30) -> None:
    """Stop ``proc``'s process group: SIGINT (dagster dev's clean shutdown), then SIGTERM,
    then SIGKILL, waiting ``grace_s`` / 10 / 5 seconds between; then kill any member still
    left (a webserver or daemon that hung on shutdown)."""
    for sig, wait_s in ((signal.SIGINT, grace_s), (signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait_s)
            break
        except subprocess.TimeoutExpired:
            continue
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
