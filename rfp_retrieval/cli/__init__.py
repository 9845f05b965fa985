"""The ``rfp-retrieval`` command line (DESIGN.md "Command line").

One module per command: ``run`` (the main job through Dagster), ``library``, ``parse``,
``matrix``, ``evaluate`` (``eval past-performance``, ``eval answers``), ``ui`` (the Dagster
UI), ``review`` (the review page), ``store`` (``store migrate``) and ``init``; ``app``
holds the typer app and what the commands share, ``render`` the Rich output, ``shapes``
the fixed ``--json`` shapes.

The one seam to the Dagster layer is the project's ``launch.py`` (beside ``definitions.py``),
imported inside the ``run``, ``ui`` and ``review`` commands only (``app.import_launcher``):
importing this package never imports Dagster. ``library``, ``parse``, ``matrix`` and
``eval`` call the core directly.
"""

from __future__ import annotations

import sys

try:
    from rfp_retrieval.cli import (  # noqa: F401
        evaluate,
        init,
        library,
        matrix,
        parse,
        review,
        run,
        store,
        ui,
    )
    from rfp_retrieval.cli.app import app
except KeyboardInterrupt:  # Ctrl-C while the command's modules load: no traceback
    sys.stderr.write("Interrupted (Ctrl-C) while starting: nothing was run.\n")
    raise SystemExit(130) from None

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point (``rfp-retrieval = rfp_retrieval.cli:main``). When the
    command ends (however: typer exits by ``SystemExit``), every object is frozen for the
    interpreter's teardown (``rfp_retrieval.heap.freeze_for_exit``: 0.4-0.9 s less between a
    command's last output and its end)."""
    from rfp_retrieval.heap import freeze_for_exit, short_process

    short_process()
    try:
        app()
    finally:
        freeze_for_exit()
