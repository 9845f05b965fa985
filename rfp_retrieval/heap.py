"""The cyclic garbage collector in a short command (issue 15, speed: an RFP in seconds).

``rfp-retrieval run`` imports Dagster, the code location and the libraries behind them:
about 2,800 modules and a million objects (modules, classes, functions, definitions) that
live until the process ends. CPython's cyclic collector traverses every tracked object in
each full (generation-2) collection. While the heap grows during those imports it runs four
of them (0.6 CPU-s on this 2-core machine, `benchmarks/README.md`), and the interpreter's
teardown at exit runs more (0.4-0.9 s between the command's last output and the end of the
process), none of which can free anything: the objects are in use until exit.

The rule (CPython's ``gc`` documentation, ``gc.freeze``: objects moved to the permanent
generation are ignored by every later collection): keep the collector off while the
long-lived objects are made, then freeze them; freeze everything once more when the command
is done. The collector stays on for the work itself (a run's data frames, an RFP's text),
so garbage cycles made by the work are still collected. Freezing frees nothing and changes
no value; it only spares the traversals.

Only in a command's own process (``short_process()``, called by the console entry point and
the encoder helper): a process that calls the commands many times (the test suite through
typer's runner) would keep, frozen, every cycle alive at each call for the rest of its life.

- ``short_process()``: this process is one command; the two calls below act from now on
  (before it they do nothing).
- ``long_lived()``: a block whose objects live until exit (imports, the code location,
  a model): collector off in it, those objects frozen after it, the collector as it was.
- ``freeze_for_exit()``: the last call of a command: everything frozen, so the teardown's
  collections traverse nothing. Objects are still released by reference counting as the
  modules are cleared; a reference cycle left at exit is not collected (its memory goes
  back with the process), so whatever must be closed (a store connection, a file) is closed
  explicitly before, as the commands do.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_SHORT_PROCESS = False
"""True once ``short_process()`` was called in this process."""


def short_process() -> None:
    """Mark this process as one short command (the ``rfp-retrieval`` console entry point,
    the encoder helper): ``long_lived`` and ``freeze_for_exit`` act from now on."""
    global _SHORT_PROCESS
    _SHORT_PROCESS = True


@contextmanager
def long_lived() -> Iterator[None]:
    """In a short process (``short_process``): the cyclic collector off for the block (its
    objects live until exit), then every object tracked so far frozen (``gc.freeze``) and
    the collector enabled again if it was enabled before (an inner block leaves it off for
    the outer one). Elsewhere the block runs as it is."""
    if not _SHORT_PROCESS:
        yield
        return
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


def freeze_for_exit() -> None:
    """In a short process (``short_process``): freeze every tracked object (``gc.freeze``)
    just before the process ends, so the interpreter's teardown collections traverse none of
    them (module docstring). Elsewhere nothing."""
    if _SHORT_PROCESS:
        gc.freeze()
