"""The cyclic collector in a short command (issue 15, speed): the objects made while Dagster and
the code location load are frozen (no later collection traverses them), the collector stays on
for the work, and nothing of it happens in a process that is not one command (the tests)."""

from __future__ import annotations

import gc
import json
import subprocess
import sys

import pytest

from rfp_retrieval import heap
from tests.conftest import REPO


@pytest.fixture
def short(monkeypatch):
    """This test's process counts as one short command; every object it froze is unfrozen
    after the test (the suite's process goes on)."""
    monkeypatch.setattr(heap, "_SHORT_PROCESS", True)
    yield
    gc.unfreeze()


class Node:
    """An object that can sit in a reference cycle."""

    def __init__(self) -> None:
        self.other: Node | None = None


def test_objects_made_in_a_long_lived_block_are_frozen_and_the_collector_is_back_on(short):
    before = gc.get_freeze_count()
    assert gc.isenabled()
    with heap.long_lived():
        assert not gc.isenabled()
        kept = [Node() for _ in range(5000)]
    assert gc.isenabled()
    assert gc.get_freeze_count() - before >= 5000
    assert all(gc.is_tracked(node) for node in kept[:3])


def test_a_cycle_made_after_the_block_is_still_collected(short):
    with heap.long_lived():
        pass
    gc.collect()
    first, second = Node(), Node()
    first.other, second.other = second, first
    del first, second
    assert gc.collect() >= 2  # the two nodes (and their __dict__s)


def test_a_collector_that_was_off_stays_off(short):
    gc.disable()
    try:
        with heap.long_lived():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_outside_a_short_process_nothing_is_frozen_nor_turned_off(monkeypatch):
    monkeypatch.setattr(heap, "_SHORT_PROCESS", False)
    before = gc.get_freeze_count()
    with heap.long_lived():
        assert gc.isenabled()
        kept = [Node() for _ in range(100)]
    heap.freeze_for_exit()
    assert gc.get_freeze_count() == before
    assert len(kept) == 100


def test_the_console_entry_point_freezes_everything_when_the_command_ends():
    code = (
        "import gc, json, sys; import rfp_retrieval.cli as cli; "
        "sys.argv = ['rfp-retrieval', '--help']; frozen = -1\n"
        "try:\n    cli.main()\nexcept SystemExit as exc:\n"
        "    frozen = gc.get_freeze_count(); code = exc.code\n"
        "print(json.dumps({'frozen': frozen, 'code': code, "
        "'objects': len(gc.get_objects())}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["code"] == 0
    # everything tracked when the command ended was frozen: only the few objects made after
    # (the except block's) are left for the teardown's collections
    assert found["frozen"] > 10_000
    assert found["objects"] < 100
