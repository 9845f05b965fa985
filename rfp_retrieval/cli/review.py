"""``rfp-retrieval review``: the review page of a project folder on 127.0.0.1
(``rfp_retrieval.report.review``); a swap re-runs the RFP's partition through the project's
launcher (``launch.Launcher.run_rfp``, as ``rfp-retrieval run`` does)."""

from __future__ import annotations

import functools
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

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

DEFAULT_PORT = 8765


@app.command()
def review(
    port: int = typer.Option(DEFAULT_PORT, help="Port on 127.0.0.1 (0: any free port)."),
    project: Path | None = ProjectOption,
    config: Path | None = ConfigOption,
) -> None:
    """Serve the project's briefs with a "replace" control per reference (127.0.0.1 only).

    Run `rfp-retrieval run` first: the page lists the RFPs already processed. A replacement \
writes overrides/<partition-key>.yaml (in the folder the overrides_dir setting names) and \
re-runs that RFP through Dagster; the page then shows the updated brief. Stop: Ctrl-C, or \
kill the process id it prints.
    """
    from rfp_retrieval.report.review import ReviewSite, review_server

    folder = project_dir(project)
    config = config_file(config)
    settings = load_cli_settings(folder, config)
    if settings.store == "duckdb" and not Path(settings.db_path).is_file():
        console.print(
            f"[red]No store at {escape(str(settings.db_path))}[/red]: nothing to review yet; run "
            "`rfp-retrieval run` on this project first."
        )
        raise typer.Exit(2)
    launch = import_launcher(folder)
    launcher = launch.Launcher(settings, launch.dagster_home(folder, config))
    site = ReviewSite(
        store=launcher.store,
        overrides_dir=Path(settings.overrides_dir),
        ranking_mode=settings.ranking_mode,
        rematerialize=functools.partial(
            _holding_store,
            settings,
            functools.partial(_keeping_stop, functools.partial(_recorded, launcher)),
        ),
    )
    try:
        server = review_server(site, port)
    except OSError as exc:
        console.print(
            f"[red]Cannot listen on 127.0.0.1:{port}: {escape(str(exc))}[/red]; try --port N"
        )
        raise typer.Exit(2) from exc

    signal.signal(signal.SIGTERM, _stop)
    host, bound = server.server_address[:2]
    # stdout, flushed: a script (or the browser test) reads the address from here
    print(f"Review page on http://{host}:{bound}/ (stop: Ctrl-C or kill {os.getpid()})", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    sys.stdout.flush()


def _stop(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _holding_store(settings: Any, run_rfp: Callable[[str, Path], Any], key: str, path: Path) -> Any:
    """``run_rfp(key, path)`` while holding the DuckDB store's one-writer lock
    (``writer_lock.claim_store``, the lock ``rfp-retrieval run`` takes), so a replacement and
    a ``run`` never write the store at once (break-it: the ``run`` started during a re-run
    ended in a DuckDB lock traceback). When another run holds the store, nothing is re-run
    and the page says why (``Rerun`` failure: the previous override file is put back).
    ``store: postgres`` takes no lock."""
    if settings.store == "postgres":
        return run_rfp(key, path)
    from rfp_retrieval.report.review import Rerun
    from rfp_retrieval.storage.writer_lock import StoreBusyError, claim_store

    try:
        lock = claim_store(settings.db_path, command="review")
    except StoreBusyError as exc:
        return Rerun(
            success=False,
            message=f"{exc} The replacement was not saved: submit it again when that run ends.",
        )
    try:
        return run_rfp(key, path)
    finally:
        lock.release()


def _recorded(launcher: Any, key: str, path: Path) -> Any:
    """``launcher.run_rfp(key, path)``; when it succeeds, its inputs are recorded
    (``Launcher.record_rfp_inputs``) as ``rfp-retrieval run`` records its own, so the next
    ``run`` does not run the partition the page just re-ran again (new-user trial, session
    12: it did), and the writers' golden lines are refreshed
    (``Launcher.export_override_golden``)."""
    outcome = launcher.run_rfp(key, path)
    if outcome.success:
        launcher.record_rfp_inputs([(key, path)])
        export = getattr(launcher, "export_override_golden", None)
        if export is not None:  # the swap becomes a golden line (best effort)
            export()
    return outcome


def _keeping_stop(run_rfp: Callable[[str, Path], Any], key: str, path: Path) -> Any:
    """``run_rfp(key, path)``, then ``kill PID`` stops the server like Ctrl-C again: a Dagster
    in-process run leaves SIGTERM with the SIGINT handler it found, which is "ignore" when
    the command was started in the background."""
    try:
        return run_rfp(key, path)
    finally:
        signal.signal(signal.SIGTERM, _stop)
