"""The inbox sensor with a test instance: new, unchanged and edited files."""

import os
import time

import dagster as dg
import pytest

from rfp_retrieval.settings import load_settings


@pytest.fixture()
def project(tmp_path):
    inbox = tmp_path / "inbox"
    library = tmp_path / "library"
    inbox.mkdir()
    library.mkdir()
    (library / "matrix.csv").write_text("PP #,Contract Name\n")
    settings = load_settings(
        tmp_path,
        {"inbox_dir": str(inbox), "library_dir": str(library), "db_path": str(tmp_path / "t.db")},
    )
    from definitions import build_definitions

    return settings, build_definitions(settings)


def settled(*paths, age_s: float = 60.0) -> None:
    """Date ``paths`` ``age_s`` seconds back: older than the sensor's settle window."""
    import time

    for path in paths:
        when = time.time_ns() - int(age_s * 1e9)
        os.utime(path, ns=(when, when))


def _tick(defs, instance, cursor=None):
    from sensors.inbox import rfp_inbox_sensor

    context = dg.build_sensor_context(
        instance=instance,
        cursor=cursor,
        definitions=defs,
        instance_ref=instance.get_ref(),
        resources={"paths": defs.resources["paths"]},  # what the daemon gives the sensor
    )
    result = rfp_inbox_sensor.evaluate_tick(context)
    for request in result.dynamic_partitions_requests or []:
        instance.add_dynamic_partitions(request.partitions_def_name, list(request.partition_keys))
    return result


def _settle(defs, instance, cursor=None):
    """Two ticks over unchanged files: the first observes the new or edited files and holds
    their RFP runs back (``sensors.inbox.settled``), the second requests them."""
    waiting = _tick(defs, instance, cursor)
    assert [r.job_name for r in waiting.run_requests if r.job_name == "rfp_job"] == []
    assert not waiting.dynamic_partitions_requests
    return waiting, _tick(defs, instance, waiting.cursor or cursor)


def test_sensor_adds_partitions_reruns_edits_and_ignores_unchanged_files(project):
    settings, defs = project
    (settings.inbox_dir / "RFP 001 (Navy).md").write_text("# Navy RFP")
    (settings.inbox_dir / "usda.md").write_text("# USDA RFP")
    with dg.instance_for_test() as instance:
        waiting, first = _settle(defs, instance)
        assert [r.job_name for r in waiting.run_requests] == ["library_job"]
        assert sorted((r.job_name, r.partition_key) for r in first.run_requests) == [
            ("rfp_job", "rfp-001-navy-md"),
            ("rfp_job", "usda-md"),
        ]
        assert sorted(instance.get_dynamic_partitions("rfp_documents")) == [
            "rfp-001-navy-md",
            "usda-md",
        ]

        unchanged = _tick(defs, instance, first.cursor)
        assert unchanged.run_requests == []

        path = settings.inbox_dir / "usda.md"
        settled(path, age_s=30)  # an edit: another modification time
        _, edited = _settle(defs, instance, unchanged.cursor or first.cursor)
        assert [(r.job_name, r.partition_key) for r in edited.run_requests] == [
            ("rfp_job", "usda-md")
        ]
        assert edited.run_requests[0].run_key == f"usda-md:{path.stat().st_mtime_ns}"
        assert not edited.dynamic_partitions_requests


def test_library_change_requests_the_library_job_first(project):
    settings, defs = project
    with dg.instance_for_test() as instance:
        first = _tick(defs, instance)
        assert [r.job_name for r in first.run_requests] == ["library_job"]
        (settings.library_dir / "extra.md").write_text("---\nid: PP-9\n---\n")
        (settings.inbox_dir / "new.pdf").write_bytes(b"%PDF-1.4")
        waiting, second = _settle(defs, instance, first.cursor)
        assert [r.job_name for r in waiting.run_requests] == ["library_job"]
        assert [r.job_name for r in second.run_requests] == ["rfp_job"]


def test_files_dropped_together_are_requested_in_one_tick_once_settled(project):
    settings, defs = project
    with dg.instance_for_test() as instance:
        first = _tick(defs, instance)  # the library
        old = settings.inbox_dir / "a.md"
        old.write_text("# A")
        seen_once = _tick(defs, instance, first.cursor)
        assert seen_once.run_requests == []
        young = settings.inbox_dir / "b.md"
        young.write_text("# B")  # still arriving: holds the batch back, a.md included
        waiting = _tick(defs, instance, seen_once.cursor)
        assert waiting.run_requests == [] and not waiting.dynamic_partitions_requests
        assert "not yet seen unchanged for one tick (b-md)" in waiting.skip_message
        assert "a-md" not in waiting.skip_message  # a.md is settled, only held back
        (settings.inbox_dir / "c.md").write_text("# C")
        held = _tick(defs, instance, waiting.cursor)
        assert "(c-md)" in held.skip_message
        batch = _tick(defs, instance, held.cursor)
        assert [(r.job_name, r.partition_key) for r in batch.run_requests] == [
            ("rfp_job", "a-md"),
            ("rfp_job", "b-md"),
            ("rfp_job", "c-md"),
        ]
        assert sorted(instance.get_dynamic_partitions("rfp_documents")) == ["a-md", "b-md", "c-md"]
        assert _tick(defs, instance, batch.cursor).run_requests == []


def test_a_file_dated_hours_ahead_settles_after_one_unchanged_tick(project):
    """A zip extracted across time zones: mtime 15 h in the future never holds runs back."""
    settings, defs = project
    path = settings.inbox_dir / "ahead.md"
    path.write_text("# RFP from another time zone")
    settled(path, age_s=-15 * 3600)
    with dg.instance_for_test() as instance:
        waiting, ready = _settle(defs, instance)
        assert [r.job_name for r in waiting.run_requests] == ["library_job"]
        assert [(r.partition_key, r.run_key) for r in ready.run_requests] == [
            ("ahead-md", f"ahead-md:{path.stat().st_mtime_ns}")
        ]
        assert path.stat().st_mtime_ns > time.time_ns() + 14 * 3600 * 10**9


def test_a_growing_copy_with_a_preserved_old_mtime_waits_until_it_stops(project):
    """``cp -p`` / unzip: the mtime is the original's (days old) while the bytes still arrive."""
    settings, defs = project
    path = settings.inbox_dir / "copied.md"
    path.write_text("# Half of the RFP\n")
    settled(path, age_s=3 * 86400)
    old_mtime = path.stat().st_mtime_ns
    with dg.instance_for_test() as instance:
        first = _tick(defs, instance)
        assert [r.job_name for r in first.run_requests] == ["library_job"]
        with path.open("a") as handle:  # the copy goes on; the copier keeps the old mtime
            handle.write("## Section L\nThe rest of the RFP.\n")
        os.utime(path, ns=(old_mtime, old_mtime))
        growing = _tick(defs, instance, first.cursor)
        assert growing.run_requests == []
        assert "(copied-md)" in growing.skip_message
        time.sleep(0.05)  # past the file system's change-time granularity
        with path.open("r+") as handle:  # same size, same mtime: a preallocated file filled in
            handle.write("# All of")
        os.utime(path, ns=(old_mtime, old_mtime))
        filled = _tick(defs, instance, growing.cursor)
        assert filled.run_requests == [] and "(copied-md)" in filled.skip_message
        done = _tick(defs, instance, filled.cursor)
        assert [(r.partition_key, r.run_key) for r in done.run_requests] == [
            ("copied-md", f"copied-md:{old_mtime}")
        ]


def test_the_settle_rule_compares_observations_never_the_clock():
    from sensors.inbox import settled as is_settled

    now = [120, 10**18, 10**18]
    assert is_settled([120, 10**18, 10**18], now)
    assert not is_settled(None, now)  # first sight
    assert not is_settled([100, 10**18, 10**18], now)  # still growing
    assert not is_settled([120, 10**18, 10**18 - 1], now)  # written in place
    assert not is_settled([], [])  # vanished between listing and stat
