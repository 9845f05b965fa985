"""A snapshot of the code location: asset keys, deps, partitions, groups, code versions,
checks, jobs, sensors, resources and executor (in the style of dagster-open-platform).

Any change to the Dagster graph shows up in review as a diff of
``tests/snapshots/definitions.json``. After an intended change, rewrite the snapshot with
``RFP_RETRIEVAL_UPDATE_SNAPSHOT=1 pytest tests/test_definitions_snapshot.py`` and commit it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import dagster as dg

SNAPSHOT = Path(__file__).parent / "snapshots" / "definitions.json"


def _partitions(partitions_def: Any) -> str | None:
    if partitions_def is None:
        return None
    name = getattr(partitions_def, "name", None)
    return f"{type(partitions_def).__name__}({name})" if name else type(partitions_def).__name__


def _keys(keys: Any) -> list[str]:
    return sorted(key.to_user_string() for key in keys)


def definitions_snapshot(defs: dg.Definitions) -> dict[str, Any]:
    """A JSON-able description of ``defs`` (every list sorted, so the output is stable)."""
    graph = defs.resolve_asset_graph()
    assets = {}
    for key in sorted(graph.get_all_asset_keys(), key=lambda k: k.path):
        node = graph.get(key)
        assets[key.to_user_string()] = {
            "group": node.group_name,
            "deps": _keys(node.parent_keys),
            "partitions": _partitions(node.partitions_def),
            "code_version": node.code_version,
            "automation_condition": (
                node.automation_condition.get_label() or type(node.automation_condition).__name__
                if node.automation_condition is not None
                else None
            ),
            "io_manager_key": node.io_manager_key,
            "kinds": sorted(node.kinds),
            "checks": sorted(check.name for check in node.check_keys),
        }
    checks = {}
    for check_key in graph.asset_check_keys:
        node = graph.get(check_key)
        checks[f"{check_key.asset_key.to_user_string()}:{check_key.name}"] = {
            "blocking": node.blocking,
            "deps": sorted(
                key.to_user_string()
                for key in node.parent_entity_keys
                if isinstance(key, dg.AssetKey)
            ),
            "partitions": _partitions(node.partitions_def),
        }
    jobs = {}
    for job in defs.resolve_all_job_defs():
        if job.name.startswith("__"):
            continue
        jobs[job.name] = {
            "assets": _keys(job.asset_layer.selected_asset_keys),
            "tags": {k: str(v) for k, v in sorted(job.tags.items())},
            "partitions": _partitions(job.partitions_def),
        }
    sensors = {}
    for sensor in defs.sensors or []:
        sensors[sensor.name] = {
            "type": type(sensor).__name__,
            "default_status": sensor.default_status.value,
            "minimum_interval_seconds": sensor.minimum_interval_seconds,
            "jobs": sorted(job.name for job in sensor.jobs) if sensor.has_jobs else [],
            "asset_selection": _keys(sensor.asset_selection.resolve(graph))
            if sensor.asset_selection is not None
            else None,
        }
    return {
        "assets": assets,
        "checks": dict(sorted(checks.items())),
        "jobs": dict(sorted(jobs.items())),
        "sensors": dict(sorted(sensors.items())),
        "resources": sorted((defs.resources or {}).keys()),
        "executor": defs.executor.name if defs.executor else None,
    }


def test_definitions_match_the_snapshot(tmp_path, monkeypatch):
    """The graph built for default settings equals the committed snapshot."""
    for name in list(os.environ):
        if name.startswith("RFP_RETRIEVAL_") and name != "RFP_RETRIEVAL_UPDATE_SNAPSHOT":
            monkeypatch.delenv(name)
    from definitions import build_definitions
    from rfp_retrieval.settings import load_settings

    snapshot = definitions_snapshot(build_definitions(load_settings(tmp_path)))
    text = json.dumps(snapshot, indent=2, sort_keys=False) + "\n"
    if os.environ.get("RFP_RETRIEVAL_UPDATE_SNAPSHOT") == "1":
        SNAPSHOT.write_text(text)
    assert SNAPSHOT.is_file(), f"{SNAPSHOT} is missing: run with RFP_RETRIEVAL_UPDATE_SNAPSHOT=1"
    assert json.loads(SNAPSHOT.read_text()) == snapshot
    # The snapshot names the graph's real pieces (a snapshot of nothing would always pass).
    assert {"pp_entries", "scope_query", "pp_references", "response_brief"} <= set(
        snapshot["assets"]
    )
    assert snapshot["assets"]["pp_references"]["deps"] == sorted(
        snapshot["assets"]["pp_references"]["deps"]
    )
