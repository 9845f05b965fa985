"""Where the ``scope_query`` step's time goes, DuckDB store vs Postgres store, one process.

Run: ``.venv/bin/python benchmarks/bench_store_step.py [--rfp sample/inbox/disa-cyber-icam-rfp.md]``

Materializes ``rfp_document`` then ``scope_query`` for one RFP with each store in turn
(DuckDB, Postgres, DuckDB, Postgres: the first pass loads the embedding model),
on a throwaway Postgres server (``tests/pg_server.py``). For each it prints the step's
duration as Dagster records it and, from a profile of the run, the seconds spent in the IO
manager (``DbIOManager.load_input`` of the two inputs + ``handle_output``: connects, reads,
writes, commits) and in the embedder's ``encode``. Wall seconds on a shared machine (the load
average at the start is printed).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _seconds(stats: pstats.Stats, file_end: str, names: tuple[str, ...]) -> float:
    """Cumulative seconds of the functions ``names`` defined in a file ending ``file_end``."""
    total = 0.0
    for (filename, _, name), (_, _, _, cumtime, _) in stats.stats.items():  # type: ignore[attr-defined]
        if filename.endswith(file_end) and name in names:
            total += cumtime
    return total


def main() -> None:
    """Print one Markdown row per (store, pass)."""
    import dagster as dg

    from assets.rfp import rfp_document, scope_query
    from resources import build_resources
    from rfp_retrieval.inbox import partition_key_for
    from rfp_retrieval.settings import POSTGRES_URL_ENV, load_settings
    from tests.pg_server import start_server

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rfp", default=str(ROOT / "sample/inbox/disa-cyber-icam-rfp.md"))
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-store-step-"))
    (work / "inbox").mkdir()
    shutil.copy(args.rfp, work / "inbox")
    key = partition_key_for(Path(args.rfp).name)
    server = start_server()
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    print("| store | pass | scope_query step s | IO manager s | encode s | run wall s |")
    print("|---|---|---:|---:|---:|---:|")
    try:
        os.environ[POSTGRES_URL_ENV] = server.create_database("bench_step")
        for number, store in enumerate(("duckdb", "postgres", "duckdb", "postgres")):
            overrides = {
                "store": store,
                "db_path": str(work / f"{store}.duckdb"),
                "inbox_dir": str(work / "inbox"),
                "output_dir": str(work / "out"),
            }
            resources = build_resources(load_settings(ROOT, overrides))
            instance = dg.DagsterInstance.ephemeral()
            instance.add_dynamic_partitions("rfp_documents", [key])
            dg.materialize(
                [rfp_document], partition_key=key, resources=resources, instance=instance
            )
            profile = cProfile.Profile()
            start = time.perf_counter()
            profile.enable()
            result = dg.materialize(
                [rfp_document, scope_query],
                selection=[scope_query.key],
                partition_key=key,
                resources=resources,
                instance=instance,
            )
            profile.disable()
            wall = time.perf_counter() - start
            stats = pstats.Stats(profile)
            step = next(
                e.event_specific_data.duration_ms / 1000
                for e in result.all_events
                if e.event_type_value == "STEP_SUCCESS" and e.step_key == "scope_query"
            )
            io = _seconds(stats, "db_io_manager.py", ("load_input", "handle_output"))
            encode = _seconds(stats, "retrieval/embedding.py", ("encode",))
            label = "1st (model load)" if number == 0 else "model loaded"
            print(f"| {store} | {label} | {step:.2f} | {io:.2f} | {encode:.2f} | {wall:.2f} |")
    finally:
        server.stop()
        shutil.rmtree(server.root, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
