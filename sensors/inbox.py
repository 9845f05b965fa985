"""The inbox sensor: one partition per new RFP file, a re-run per edit, nothing per tick.

Cursor: ``{"files": {partition_key: mtime_ns}, "pending": {partition_key: Observation},
"library": fingerprint}`` (``pending``: the files of a batch held back, as last observed). Run
keys carry the mtime (field notes §2a: the daemon deduplicates run keys forever, so a bare
partition key would silently drop the re-run after an edit). When the library folder
changed, the library job is requested first so RFP runs rank against the current library.

A file the cursor has not seen (the first tick after ``rfp-retrieval run``, or a touched file)
is run only when its inputs differ from the partition's last materialization: ``rfp_document``
records the file's SHA-256 in its metadata (``lineage.SOURCE_SHA``, ``assets/rfp.py``), and a
partition whose latest ``rfp_document`` has the file's SHA from a successful run is done.
Likewise the library job is requested only when the library folder's fingerprint differs from
the one the latest successful ``pp_entries`` materialization recorded (``assets/library.py``).
So starting the UI after ``run`` re-runs nothing.

Files that arrive together are requested together, and no file is read while it is still
being written. The rule (``settled``, stated once here): a new or edited file is settled when
this tick sees the same size, modification time and inode change time as the previous tick
recorded for it (the cursor's ``pending``). The file's own clock is never compared with now:
a zip extracted across time zones (mtime hours in the future) settles after one unchanged tick,
and a half-copied file whose mtime was preserved from the original (``cp -p``, unzip,
Explorer/Finder copies) keeps growing, or gets its mtime set at the end, so it waits. While
any new or edited file is unsettled the tick requests no RFP run (the cursor keeps those
files unseen) and the first tick that finds them all unchanged requests the whole batch. A
dropped file is thus requested on the second tick that sees it, within about
``2 * SENSOR_INTERVAL_SECONDS`` of the drop. Each partition is still its own
run, on either store: the batch is N run requests of one tick (queued one at a time on
DuckDB, side by side on Postgres, ``dagster.yaml``). The RFP assets do take a partition range
(``assets.partitions.each_partition``; ``rfp-retrieval run`` on DuckDB runs its new files in
one run, ``launch.Launcher.run_batch``), but a range run the daemon launches fails whole when
one file is bad, and nothing here would re-run its good files one by one as ``run_batch``
does, so the sensor keeps one file per run: a bad file fails only its own run.
"""

import json
import os
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

SENSOR_INTERVAL_SECONDS = 10
"""How often the daemon evaluates the inbox sensor (a tick lists the inbox and fingerprints the
library folder: milliseconds). A dropped file is requested on the second tick that sees it
unchanged (``settled``): within about ``2 * SENSOR_INTERVAL_SECONDS``."""

Observation = list[int]
"""What a tick records of one inbox file: ``[size_bytes, mtime_ns, ctime_ns]``; [] when the
file vanished between the listing and the stat (never equal to a real observation)."""


def observe(path: Path) -> Observation:
    """``[size_bytes, mtime_ns, ctime_ns]`` of ``path`` now ([] when it cannot be stat-ed).

    The inode change time moves on every write and on every ``utime`` (a copier setting the
    original mtime at the end), so a copy that writes into a preallocated file is seen
    changing even though its size and preserved mtime stay put."""
    try:
        stat = os.stat(path)
    except OSError:
        return []
    return [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns]


def settled(previous: Observation | None, current: Observation) -> bool:
    """True when a new or edited inbox file is done arriving: the previous tick observed it
    (``previous``, from the cursor) exactly as this tick does (``current``, ``observe``).

    The one settle rule of the inbox sensor. It never compares the file's timestamps with
    the clock: a future mtime (a zip extracted across time zones) settles after one unchanged
    tick, an old preserved mtime on a file still growing does not settle."""
    return bool(current) and previous == current


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


def materialized_sha(instance: dg.DagsterInstance, key: str) -> str | None:
    """The file SHA-256 that partition ``key``'s latest ``rfp_document`` materialization
    recorded (``SOURCE_SHA``), when the run that made it succeeded; else None."""
    latest = _latest_successful(instance, RFP_DOCUMENT, key)
    recorded = latest.metadata.get(SOURCE_SHA) if latest is not None else None
    return recorded.value if recorded is not None else None


def is_materialized(instance: dg.DagsterInstance, key: str, item: InboxFile) -> bool:
    """True when partition ``key`` was last materialized, by a successful run, from the same
    bytes as ``item`` (``materialized_sha``). An unreadable file is not materialized (its run
    reports why)."""
    recorded = materialized_sha(instance, key)
    if recorded is None:
        return False
    try:
        return recorded == file_sha(item.path)
    except OSError:
        return False


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
        "a new or edited file is requested once two ticks see it unchanged (size, times), "
        "and files dropped together are requested in one tick."
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
    pending: dict[str, Observation] = cursor.get("pending", {})
    now_seen = {key: observe(item.path) for key, item in changed.items()}
    arriving = sorted(k for k in changed if not settled(pending.get(k), now_seen[k]))
    if arriving:  # hold the whole batch back: the first tick that sees it unchanged requests it
        changed = {}
    # what the next tick compares with: every file of a held-back batch (settled ones too)
    next_pending = {k: now_seen[k] for k in now_seen} if arriving else {}
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
    next_cursor = {
        "files": files_seen,
        "pending": next_pending,
        "library": library_fp,
    }
    if not requests and not new_keys:
        context.update_cursor(json.dumps(next_cursor))
        if arriving:
            return dg.SkipReason(
                f"{len(arriving)} new or changed file(s) not yet seen unchanged for one tick "
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
