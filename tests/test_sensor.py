"""The inbox sensor with a test instance: new, unchanged and edited files."""

import os

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
        resources=defs.resources,
    )
    result = rfp_inbox_sensor.evaluate_tick(context)
    for request in result.dynamic_partitions_requests or []:
        instance.add_dynamic_partitions(request.partitions_def_name, list(request.partition_keys))
    return result


def test_sensor_adds_partitions_reruns_edits_and_ignores_unchanged_files(project):
    settings, defs = project
    (settings.inbox_dir / "RFP 001 (Navy).md").write_text("# Navy RFP")
    (settings.inbox_dir / "usda.md").write_text("# USDA RFP")
    settled(*settings.inbox_dir.iterdir())
    with dg.instance_for_test() as instance:
        first = _tick(defs, instance)
        by_job = sorted((r.job_name, r.partition_key) for r in first.run_requests)
        assert by_job == [
            ("library_job", None),
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
        settled(path, age_s=30)  # an edit: another (settled) modification time
        edited = _tick(defs, instance, unchanged.cursor or first.cursor)
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
        settled(settings.inbox_dir / "new.pdf")
        second = _tick(defs, instance, first.cursor)
        assert [r.job_name for r in second.run_requests] == ["library_job", "rfp_job"]


def test_files_dropped_together_are_requested_in_one_tick_once_settled(project):
    from sensors.inbox import SETTLE_SECONDS

    settings, defs = project
    with dg.instance_for_test() as instance:
        first = _tick(defs, instance)  # the library
        old = settings.inbox_dir / "a.md"
        old.write_text("# A")
        settled(old)
        young = settings.inbox_dir / "b.md"
        young.write_text("# B")  # still arriving: holds the batch back, a.md included
        waiting = _tick(defs, instance, first.cursor)
        assert waiting.run_requests == [] and not waiting.dynamic_partitions_requests
        assert f"less than {SETTLE_SECONDS} s ago (b-md)" in waiting.skip_message
        (settings.inbox_dir / "c.md").write_text("# C")
        settled(young, settings.inbox_dir / "c.md", age_s=SETTLE_SECONDS + 1)
        batch = _tick(defs, instance, waiting.cursor or first.cursor)
        assert [(r.job_name, r.partition_key) for r in batch.run_requests] == [
            ("rfp_job", "a-md"),
            ("rfp_job", "b-md"),
            ("rfp_job", "c-md"),
        ]
        assert sorted(instance.get_dynamic_partitions("rfp_documents")) == ["a-md", "b-md", "c-md"]
        assert _tick(defs, instance, batch.cursor).run_requests == []
