"""The inbox sensor: one partition per new RFP file, a re-run per edit, nothing per tick.

Cursor: ``{"files": {partition_key: mtime_ns}, "library": fingerprint}``. Run keys carry the
mtime (field notes §2a: the daemon deduplicates run keys forever, so a bare partition key
would silently drop the re-run after an edit). When the library folder changed, the library
job is requested first so RFP runs rank against the current library.
"""

import json
from pathlib import Path

import dagster as dg

from assets.partitions import rfp_partitions
from jobs import library_job, rfp_job
from resources import ProjectPaths
from rfp_retrieval.inbox import scan_inbox
from rfp_retrieval.library.fingerprint import folder_fingerprint


@dg.sensor(
    name="rfp_inbox_sensor",
    jobs=[library_job, rfp_job],
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description=(
        "Watches the RFP inbox folder: adds a partition for each new file and runs it; "
        "re-runs a partition when its file changes; rebuilds the library when it changes."
    ),
)
def rfp_inbox_sensor(context: dg.SensorEvaluationContext, paths: ProjectPaths):
    cursor = json.loads(context.cursor) if context.cursor else {}
    seen: dict[str, int] = cursor.get("files", {})
    inbox = Path(paths.inbox_dir)
    if not inbox.is_dir():
        return dg.SkipReason(f"inbox folder {inbox} does not exist yet")
    files = scan_inbox(inbox)
    requests: list[dg.RunRequest] = []
    library_fp = folder_fingerprint(Path(paths.library_dir))
    if cursor.get("library") != library_fp:
        requests.append(dg.RunRequest(run_key=f"library:{library_fp}", job_name=library_job.name))
    known = set(context.instance.get_dynamic_partitions(rfp_partitions.name))
    new_keys = sorted(k for k in files if k not in known)
    for key, item in sorted(files.items()):
        if seen.get(key) == item.mtime_ns and key in known:
            continue
        requests.append(
            dg.RunRequest(
                run_key=f"{key}:{item.mtime_ns}",
                partition_key=key,
                job_name=rfp_job.name,
                tags={"rfp/file": item.path.name},
            )
        )
    next_cursor = {"files": {k: f.mtime_ns for k, f in files.items()}, "library": library_fp}
    if not requests and not new_keys:
        context.update_cursor(json.dumps(next_cursor))
        return dg.SkipReason("no new or changed files")
    return dg.SensorResult(
        run_requests=requests,
        dynamic_partitions_requests=[rfp_partitions.build_add_request(new_keys)]
        if new_keys
        else [],
        cursor=json.dumps(next_cursor),
    )
