"""Store I/O benchmark: writing and reading the library's vector table, DuckDB vs Postgres.

Run: ``.venv/bin/python benchmarks/bench_store_io.py [--entries 10000,100000] [--dim 384]``

The table is shaped like ``pp_facet_embeddings`` (id, facet, model, text_sha, dim, vector as
FLOAT[] / ``real[]``): four facets per entry, random unit vectors. For each size it times,
best of ``--repeat``:

- DuckDB: one transaction writing the frame from Arrow (as the DuckDB IO manager does) and
  ``SELECT *`` back to polars (as the partition store reads it);
- Postgres: ``rfp_retrieval.storage.postgres.write_frame`` (lock, binary COPY via ADBC,
  COMMIT) and ``read_frame`` (one snapshot, Arrow out, dtypes restored), on a throwaway
  server started from Debian's binaries (``tests/pg_server.py``) unless ``--url`` names one.

Both read back frames equal to the written one (checked). Figures print as a Markdown table;
they are wall times on a shared machine, so the load average at the start is printed too.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rfp_retrieval.storage import postgres as pg  # noqa: E402

FACETS = ("narrative", "technical", "outcome", "whole")


def vector_table(entries: int, dim: int, seed: int = 7) -> pl.DataFrame:
    """``entries * 4`` rows of unit float32 vectors with the embedding table's columns."""
    rng = np.random.default_rng(seed)
    rows = entries * len(FACETS)
    vectors = rng.standard_normal((rows, dim), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    ids = [f"PP-{i:07d}" for i in range(entries) for _ in FACETS]
    return pl.DataFrame(
        {
            "id": ids,
            "facet": list(FACETS) * entries,
            "model": ["all-MiniLM-L6-v2"] * rows,
            "text_sha": [f"{i:016x}" for i in range(rows)],
            "dim": [dim] * rows,
            "vector": pl.Series(vectors).cast(pl.List(pl.Float32)),
        }
    )


def best(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def duckdb_round(frame: pl.DataFrame, folder: Path, repeat: int) -> tuple[float, float]:
    import duckdb

    path = str(folder / "bench.duckdb")

    def write() -> None:
        con = duckdb.connect(path)
        try:
            con.begin()
            con.execute("CREATE SCHEMA IF NOT EXISTS rfp")
            con.execute("DROP TABLE IF EXISTS rfp.vectors")
            arrow = frame.to_arrow()  # noqa: F841  (read by name below)
            con.execute("CREATE TABLE rfp.vectors AS SELECT * FROM arrow")
            con.commit()
        finally:
            con.close()

    def read() -> pl.DataFrame:
        con = duckdb.connect(path, read_only=True)
        try:
            return con.sql("SELECT * FROM rfp.vectors").pl()
        finally:
            con.close()

    write_s, _ = best(write, repeat)
    read_s, back = best(read, repeat)
    assert back.equals(frame), "DuckDB round trip changed the frame"
    return write_s, read_s


def postgres_round(frame: pl.DataFrame, url: str, repeat: int) -> tuple[float, float]:
    def write() -> None:
        connection = pg.connect(url)
        try:
            with pg.transaction(connection) as cur:
                pg.write_frame(cur, "rfp", "vectors", frame)
        finally:
            connection.close()

    def read() -> pl.DataFrame:
        connection = pg.connect(url)
        try:
            with pg.transaction(connection, read_only=True) as cur:
                return pg.read_frame(cur, "rfp", "vectors")
        finally:
            connection.close()

    write_s, _ = best(write, repeat)
    read_s, back = best(read, repeat)
    assert back.equals(frame), "Postgres round trip changed the frame"
    return write_s, read_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", default="10000,100000", help="library sizes, comma-separated")
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--url", default=None, help="an existing Postgres (default: throwaway)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.entries.split(",")]
    server = None
    url = args.url
    if url is None:
        from tests.pg_server import start_server

        server = start_server()
        url = server.create_database("bench")
    folder = Path(tempfile.mkdtemp(prefix="bench-store-"))
    print(f"load average at start: {os.getloadavg()[0]:.1f}; nproc {os.cpu_count()}")
    print("| entries | rows | DuckDB write | DuckDB read | Postgres write | Postgres read |")
    print("|---:|---:|---:|---:|---:|---:|")
    try:
        for entries in sizes:
            frame = vector_table(entries, args.dim)
            dw, dr = duckdb_round(frame, folder, args.repeat)
            pw, pr = postgres_round(frame, url, args.repeat)
            print(
                f"| {entries:,} | {frame.height:,} | {dw:.2f} s | {dr:.2f} s | "
                f"{pw:.2f} s | {pr:.2f} s |",
                flush=True,
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if server is not None:
            server.stop()
            shutil.rmtree(server.root, ignore_errors=True)


if __name__ == "__main__":
    main()
