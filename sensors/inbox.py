"""The inbox sensor: one partition per new RFP file, a re-run per edit, nothing per tick.

Cursor: ``{"files": {partition_key: mtime_ns}, "library": fingerprint}``. Run keys carry the
mtime (field notes §2a: the daemon deduplicates run keys forever, so a bare partition key
would silently drop the re-run after an edit). When the library folder changed, the library
job is requested first so RFP runs rank against the current library.

A file the cursor has not seen (the first tick after ``rfp-retrieval run``, or a touched file)
is run only when its inputs differ from the partition's last materialization: ``rfp_document``
records the file's SHA-256 in its metadata (``lineage.SOURCE_SHA``, ``assets/rfp.py``), and a
partition whose latest ``rfp_document`` has the file's SHA from a successful run is done.
Likewise the library job is requested only when the library folder's fingerprint differs from
the one the latest successful ``pp_entries`` materialization recorded (``assets/library.py``).
So starting the UI after ``run`` re-runs nothing.

Files that arrive together are requested together: a file modified less than
``SETTLE_SECONDS`` ago is still being copied or is one of a batch still arriving, so while any
new or edited file is that young the tick requests no RFP run (the cursor keeps those files
unseen) and the next tick requests the whole batch at once. Each partition is still its own
run: the RFP assets compute one partition per call and the partition store writes one
partition per output, and a single run over several dynamic partitions needs
``BackfillPolicy.single_run()`` and assets that take a partition range (field notes §2d), so
the batch is N run requests of one tick, queued one at a time (``dagster.yaml``).
"""

import json
import time
from pathlib import Path

import dagster as dg

from assets.library import LIBRARY_FINGERPRINT
from assets.partitions import rfp_partitions
from jobs import library_job, rfp_job
from resources import ProjectPaths
from rfp_retrieval.inbox import InboxFile, scan_inbox
from rfp_retrieval.library.fingerprint import folder_fingerprint
from rfp_retrieval.lineage import SOURCE_SHA, file_sha

RFP_DOCUMENT = dg.AssetKey("rfp_document")
PP_ENTRIES = dg.AssetKey("pp_entries")

SETTLE_SECONDS = 5
"""A new or edited inbox file younger than this (modification time, seconds) holds the tick's
RFP requests back until the next tick, so a batch of files dropped together (a copy of ten
files, a zip extracted) is requested in one tick and no half-copied file is read."""
SENSOR_INTERVAL_SECONDS = 10
"""How often the daemon evaluates the inbox sensor (a tick lists the inbox and fingerprints the
library folder: milliseconds). A dropped file is requested within about
``SETTLE_SECONDS + SENSOR_INTERVAL_SECONDS``."""


def _latest_successful(
    instance: dg.DagsterInstance, key: dg.AssetKey, partition: str | None = None
) -> dg.AssetMaterialization | None:
    """The latest materialization of ``key`` (``partition``), when the run that made it
    succeeded (a run that failed later leaves the partition half-done); else None."""
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(
            asset_key=key, asset_partitions=[partition] if partition is not None else None
        ),
        limit=1,
    ).records
    if not records:
        return None
    run = instance.get_run_by_id(records[0].run_id)
    if run is None or not run.is_success:
        return None
    return records[0].asset_materialization


def is_materialized(instance: dg.DagsterInstance, key: str, item: InboxFile) -> bool:
    """True when partition ``key`` was last materialized, by a successful run, from the same
    bytes as ``item`` (``rfp_document``'s ``SOURCE_SHA`` metadata is the file's SHA-256).
    An unreadable file is not materialized (its run reports why)."""
    latest = _latest_successful(instance, RFP_DOCUMENT, key)
    if latest is None:
        return False
    try:
        sha = file_sha(item.path)
    except OSError:
        return False
    recorded = latest.metadata.get(SOURCE_SHA)
    return recorded is not None and recorded.value == sha


def library_is_materialized(instance: dg.DagsterInstance, fingerprint: str) -> bool:
    """True when the latest ``pp_entries`` materialization (of a successful run) read a
    library folder with this ``folder_fingerprint``."""
    latest = _latest_successful(instance, PP_ENTRIES)
    if latest is None:
        return False
    recorded = latest.metadata.get(LIBRARY_FINGERPRINT)
    return recorded is not None and recorded.value == fingerprint


@dg.sensor(
    name="rfp_inbox_sensor",
    jobs=[library_job, rfp_job],
    minimum_interval_seconds=SENSOR_INTERVAL_SECONDS,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description=(
        "Watches the RFP inbox folder: adds a partition for each new file and runs it; "
        "re-runs a partition when its file changes; rebuilds the library when it changes. "
        "Files and a library already materialized with the same contents are not re-run; "
        f"files dropped together (within {SETTLE_SECONDS} s) are requested in one tick."
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
    if cursor.get("library") != library_fp and not library_is_materialized(
        context.instance, library_fp
    ):
        requests.append(dg.RunRequest(run_key=f"library:{library_fp}", job_name=library_job.name))
    known = set(context.instance.get_dynamic_partitions(rfp_partitions.name))
    changed = {
        key: item
        for key, item in sorted(files.items())
        if key not in known
        or (seen.get(key) != item.mtime_ns and not is_materialized(context.instance, key, item))
    }
    settled_before = time.time_ns() - SETTLE_SECONDS * 1_000_000_000
    arriving = sorted(k for k, item in changed.items() if item.mtime_ns > settled_before)
    if arriving:  # hold the whole batch back: the next tick requests it at once
        changed = {}
    requests.extend(
        dg.RunRequest(
            run_key=f"{key}:{item.mtime_ns}",
            partition_key=key,
            job_name=rfp_job.name,
            tags={"rfp/file": item.path.name},
        )
        for key, item in changed.items()
    )
    new_keys = sorted(k for k in changed if k not in known)
    files_seen = {k: f.mtime_ns for k, f in files.items() if k not in arriving}
    files_seen.update({k: seen[k] for k in arriving if k in seen})
    next_cursor = {"files": files_seen, "library": library_fp}
    if not requests and not new_keys:
        context.update_cursor(json.dumps(next_cursor))
        if arriving:
            return dg.SkipReason(
                f"{len(arriving)} file(s) changed less than {SETTLE_SECONDS} s ago "
                f"({', '.join(arriving[:5])}): waiting for the batch to settle"
            )
        return dg.SkipReason("no new or changed files")
    return dg.SensorResult(
        run_requests=requests,
        dynamic_partitions_requests=[rfp_partitions.build_add_request(new_keys)]
        if new_keys
        else [],
        cursor=json.dumps(next_cursor),
    )
