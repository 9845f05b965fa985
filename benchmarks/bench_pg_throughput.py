"""Parallel RFP runs on Postgres against the DuckDB single writer, and retrieval reading the
library from each store, in one invocation.

Part 1 (run after part 2), throughput (``benchmarks/bench_parallel.py``'s ``run_config``):
``--rfps`` RFPs (the 4 sample RFPs, then the dev past-performance excerpts in
``../shared/data``) dropped into the inbox at once of a fresh project, the daemon's inbox
sensor and queue doing the rest, for Postgres with 4 runs at once, Postgres with 1, and DuckDB
(1: one writer). Per configuration: wall from the drop to the last run's end, RFPs per hour,
failed runs, CPU seconds of every process the daemon started (runs, code server) and of the
Postgres server, and where a run's time goes (queue wait, launch, step time, the slowest
steps), from the event log.

Part 2 (run first), retrieval at ``--entries`` (default 100,000) library entries: the
library tables (``pp_entries`` from a generated library CSV, ``pp_facet_embeddings`` with
random unit vectors, 4 facets x 384 floats) written to a DuckDB file and to Postgres as the
stores write them, then per query what the ``pp_references`` step does: read both tables
whole through the partition store (``resources/partition_store.py``), build the vector
matrices and rank one synthetic scope (``rank_references``, product default mode). p50 / p95
over ``--queries`` queries, split into the read and the rank, with the client's and the
Postgres server's CPU.

Wall times are taken on a shared machine; the load average is printed at the start and end of
each part, and CPU seconds beside every wall figure.

    .venv/bin/python benchmarks/bench_pg_throughput.py --rfps 20 --entries 100000
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

URL_ENV = "RFP_RETRIEVAL_POSTGRES_URL"


def postgres_sampler(server):
    """A sampler over the throwaway server's postmaster and its backends."""
    from bench_parallel import CpuSampler

    postmaster = int((server.datadir / "postmaster.pid").read_text().split()[0])
    return CpuSampler(lambda pid, f: pid == postmaster or int(f[1]) == postmaster, postmaster)


# ----------------------------------------------------------------------------- part 1
def throughput(server, count: int) -> list[tuple[str, int, dict]]:
    import bench_parallel

    files = bench_parallel.rfp_files(count)
    rows = []
    for store, runs in bench_parallel.CONFIGS:
        url = server.create_database() if store == "postgres" else None
        with tempfile.TemporaryDirectory(prefix="rfp-bench-pg-") as tmp:
            print(f"{store}, {runs} at once: {len(files)} RFPs ...", flush=True)
            pg_cpu = postgres_sampler(server)
            pg_cpu.start()
            figures = bench_parallel.run_config(store, runs, files, Path(tmp), url)
            figures["postgres_cpu_s"] = pg_cpu.stop() if store == "postgres" else 0.0
            rows.append((store, runs, figures))
            print(f"  {figures} (load average {os.getloadavg()[0]:.1f})", flush=True)
    return rows


# ----------------------------------------------------------------------------- part 2
def library_tables(size: int, folder: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(``pp_entries``, ``pp_facet_embeddings``) of a generated library of ``size`` entries."""
    from bench_scale import write_library_csv

    from rfp_retrieval.library.ingest import load_library_frame
    from rfp_retrieval.retrieval.facets import ENTRY_FACETS

    write_library_csv(folder / "library.csv", size)
    entries = load_library_frame(folder).entries
    ids = sorted(entries["id"].to_list())
    rng = np.random.default_rng(size)
    dim = 384
    frames = []
    for facet in ENTRY_FACETS:
        matrix = rng.standard_normal((len(ids), dim), dtype=np.float32)
        matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
        frames.append(
            pl.DataFrame(
                {
                    "id": ids,
                    "facet": [facet] * len(ids),
                    "model": ["all-MiniLM-L6-v2"] * len(ids),
                    "text_sha": [f"{facet}:{i}" for i in ids],
                    "dim": [dim] * len(ids),
                    "vector": pl.Series(matrix).cast(pl.List(pl.Float32)),
                }
            )
        )
    return entries, pl.concat(frames)


def write_stores(entries, vectors, duckdb_path: Path, url: str) -> None:
    """Both tables into schema ``rfp`` of the DuckDB file and of the Postgres database."""
    import duckdb

    from rfp_retrieval.storage import postgres as pg

    con = duckdb.connect(str(duckdb_path))
    try:
        con.execute("CREATE SCHEMA IF NOT EXISTS rfp")
        for name, frame in (("pp_entries", entries), ("pp_facet_embeddings", vectors)):
            arrow = frame.to_arrow()  # noqa: F841  (read by name below)
            con.execute(f"CREATE TABLE rfp.{name} AS SELECT * FROM arrow")
    finally:
        con.close()
    connection = pg.connect(url)
    try:
        for name, frame in (("pp_entries", entries), ("pp_facet_embeddings", vectors)):
            with pg.transaction(connection) as cur:
                pg.write_frame(cur, "rfp", name, frame)
    finally:
        connection.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def retrieval(server, size: int, queries: int) -> list[dict]:
    from bench_scale import random_vectors, synthetic_scopes

    from resources.partition_store import DuckDBPartitionStore, PostgresPartitionStore
    from rfp_retrieval.retrieval.config import PRODUCT_DEFAULT
    from rfp_retrieval.retrieval.past_performance import rank_references
    from rfp_retrieval.retrieval.records import EntryVectors

    folder = Path(tempfile.mkdtemp(prefix="rfp-bench-retrieval-"))
    try:
        start = time.perf_counter()
        entries, vectors = library_tables(size, folder)
        url = server.create_database()
        os.environ[URL_ENV] = url
        write_stores(entries, vectors, folder / "store.duckdb", url)
        print(f"  library of {entries.height:,} entries written to both stores in "
              f"{time.perf_counter() - start:.0f} s", flush=True)  # fmt: skip
        scopes = synthetic_scopes(entries, random_vectors(entries["id"].to_list(), 3), queries)
        stores = {
            "duckdb": DuckDBPartitionStore(database=str(folder / "store.duckdb"), read_only=True),
            "postgres": PostgresPartitionStore(url_env=URL_ENV),
        }
        results = []
        for name, store in stores.items():
            reads, ranks, totals, top3 = [], [], [], []
            pg_cpu = postgres_sampler(server)
            pg_cpu.start()
            cpu0 = time.process_time()
            read_cpu, rank_cpu = [], []
            for scope in scopes:
                t0, c0 = time.perf_counter(), time.process_time()
                library = store.read_table("pp_entries")
                frame = store.read_table("pp_facet_embeddings", ["id", "facet", "model", "vector"])
                t1, c1 = time.perf_counter(), time.process_time()
                ranked = rank_references(
                    library, EntryVectors.from_frame(frame), scope, PRODUCT_DEFAULT
                )
                t2, c2 = time.perf_counter(), time.process_time()
                reads.append(t1 - t0)
                ranks.append(t2 - t1)
                totals.append(t2 - t0)
                read_cpu.append(c1 - c0)
                rank_cpu.append(c2 - c1)
                top3.append(tuple(r.id for r in ranked.references))
            client_cpu = time.process_time() - cpu0
            server_cpu = pg_cpu.stop() if name == "postgres" else 0.0
            results.append(
                {
                    "store": name,
                    "entries": entries.height,
                    "rows": vectors.height,
                    "queries": queries,
                    "p50_s": statistics.median(totals),
                    "p95_s": percentile(totals, 0.95),
                    "read_p50_s": statistics.median(reads),
                    "rank_p50_s": statistics.median(ranks),
                    "client_cpu_s": client_cpu / queries,
                    "read_cpu_p50_s": statistics.median(read_cpu),
                    "rank_cpu_p50_s": statistics.median(rank_cpu),
                    "server_cpu_s": server_cpu / queries,
                    "top3": top3,
                }
            )
            shown = {k: v for k, v in results[-1].items() if k != "top3"}
            print(f"  {shown} (load average {os.getloadavg()[0]:.1f})", flush=True)
        assert results[0]["top3"] == results[1]["top3"], "the stores ranked differently"
        return results
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    from tests.pg_server import start_server

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rfps", type=int, default=20, help="RFPs dropped at once (0: skip)")
    parser.add_argument("--entries", type=int, default=100_000, help="library size (0: skip)")
    parser.add_argument("--queries", type=int, default=7, help="retrieval queries per store")
    args = parser.parse_args()
    server = start_server()
    try:
        print(f"nproc {os.cpu_count()}, load average {os.getloadavg()[0]:.1f} at the start")
        found = retrieval(server, args.entries, args.queries) if args.entries else []
        load_2 = os.getloadavg()[0]
        rows = throughput(server, args.rfps) if args.rfps else []
        load_1 = os.getloadavg()[0]
    finally:
        server.stop()
        shutil.rmtree(server.root, ignore_errors=True)
    if rows:
        print(f"\nThroughput, {args.rfps} RFPs dropped at once (load average {load_1:.1f} at "
              "the end)\n")  # fmt: skip
        print(
            "| store | runs at once | wall | RFPs/hour | failed | CPU: runs + daemon | "
            "CPU: Postgres server | queue wait | launch | step time per run | "
            "slowest steps (mean) |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for store, runs, f in rows:
            server_cpu = f"{f['postgres_cpu_s']:.0f} s" if store == "postgres" else "-"
            print(
                f"| {store} | {runs} | {f['wall_s']:.0f} s | {f['per_hour']:.0f} | "
                f"{f['failed']} | {f['cpu_s']:.0f} s | {server_cpu} | {f['queue_s']:.0f} s | "
                f"{f['launch_s']:.0f} s | {f['steps_s']:.0f} s | {f['slowest']} |"
            )
    if found:
        print(f"\nRetrieval reading the library from the store (load average {load_2:.1f} "
              "at the end)\n")  # fmt: skip
        print(
            "| store | entries | vector rows | queries | p50 | p95 | read p50 | rank p50 | "
            "client CPU per query | read CPU p50 | rank CPU p50 | server CPU per query |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in found:
            server_cpu = f"{r['server_cpu_s']:.2f} s" if r["store"] == "postgres" else "-"
            print(
                f"| {r['store']} | {r['entries']:,} | {r['rows']:,} | {r['queries']} | "
                f"{r['p50_s']:.2f} s | {r['p95_s']:.2f} s | {r['read_p50_s']:.2f} s | "
                f"{r['rank_p50_s'] * 1000:.0f} ms | {r['client_cpu_s']:.2f} s | "
                f"{r['read_cpu_p50_s']:.2f} s | {r['rank_cpu_p50_s'] * 1000:.0f} ms | "
                f"{server_cpu} |"
            )


if __name__ == "__main__":
    main()
