"""A million entries on one worker (issue 17): exact vs prescreened ranking in one process.

Run: ``.venv/bin/python benchmarks/bench_million.py [--entries PARQUET | --size N]
[--scopes 12] [--rounds 2]``

The library is a ``pp_entries`` frame: ``--entries`` a parquet file written from
``load_library_frame`` (``bench_scale.py``'s generated library CSV, as ``--ingest`` writes it),
else ``--size`` rows tiled from ``bench_scale``'s generated 100,000-entry library with new ids.
Vectors are random unit float32 rows, generated 65,536 rows at a time (no float64 copy), for
the two facets the ``default`` mode's cosines read (``whole``, ``outcome``); the query vectors
of the other facets are drawn from ``whole`` (a scope with section vectors never reads the
``technical`` or ``narrative`` matrices in that mode), so memory is what one worker ranking
in the default mode holds: the frame, two float32 matrices, their int8 copy
(``PreparedLibrary.compact``) and the prepared columns.

Per round, the scopes are ranked without the int8 copy (exact scoring of every candidate),
with it (prescreen), both with pass 1's constraint columns forgotten before each call
(``PreparedLibrary.forget_constraint_columns``: every mask computed, as for a scope whose
constraints the library has not seen), then with it again keeping the columns of the calls
before (``prescreen, kept columns``: a worker ranking scopes that state constraints seen
before), on one ``PreparedLibrary``; every result (ids, ranks, scores, components,
relaxations, unknowns, missing facets, candidate count, filter trace) must be identical, or
the script fails. Figures: wall and CPU (``time.thread_time``) p50 / p95 per
path, the p50 of every stage in CPU ms (``PreparedLibrary.stage_ms`` taken with the thread's
CPU clock, so the machine's load inflates it little), the candidates, how many the exact pass
rescored, the ``numpy`` top-10 floor (one product over the whole ``whole`` matrix and an
``argpartition``), build times and the peak RSS (``VmHWM``).

``--store postgres`` writes the two facet matrices to a throwaway Postgres server on
127.0.0.1 (``tests/pg_server.py``: Debian's binaries; or ``--pg-url``) as ``real[]``
``pp_facet_embeddings`` rows (``storage.postgres.write_frame`` / ``append_frame``, 100,000
entries per COPY), frees them, and ranks on the matrices read back with
``storage.postgres.read_vectors`` (streamed) by a second process that holds only the ids and
the matrices (a worker's read, not this process' frame and allocator pages: its peak RSS is
the read's own) and hands them over as ``.npy`` files; it prints the write and read times,
the read's peak RSS, and fails unless the read matrices are bit for bit the written ones.

``--ingest N`` instead times ``load_library_frame`` on a generated N-entry CSV (CPU seconds,
peak RSS above the start) and writes its frame as the parquet ``--entries`` reads.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import bench_scale as bs  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from rfp_retrieval.library.ingest import load_library_frame  # noqa: E402
from rfp_retrieval.retrieval import prepared as prepared_module  # noqa: E402
from rfp_retrieval.retrieval import scoring  # noqa: E402
from rfp_retrieval.retrieval.config import PRODUCT_DEFAULT  # noqa: E402
from rfp_retrieval.retrieval.past_performance import rank_references  # noqa: E402
from rfp_retrieval.retrieval.prepared import PreparedLibrary  # noqa: E402
from rfp_retrieval.retrieval.records import EntryVectors  # noqa: E402

ROWS = 65_536
KEPT = "prescreen, kept columns"


def unit_rows(rng: np.random.Generator, n: int, dim: int = bs.DIM) -> np.ndarray:
    """``n`` random unit float32 rows, generated ``ROWS`` at a time."""
    out = np.empty((n, dim), dtype=np.float32)
    for start in range(0, n, ROWS):
        block = rng.standard_normal((min(ROWS, n - start), dim), dtype=np.float32)
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        out[start : start + len(block)] = block
    return out


def ingest(size: int, out: Path) -> None:
    """Time ``load_library_frame`` on a generated ``size``-entry CSV; write its frame."""
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        bs.write_library_csv(folder / "library.csv", size)
        start_mb = bs._rss_mb("VmRSS")
        bs._reset_peak()
        start, cpu = time.perf_counter(), time.process_time()
        load = load_library_frame(folder)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        peak = bs._rss_mb("VmHWM")
    print(
        f"ingest {size:,}: {wall:.0f} s wall, {cpu:.0f} s CPU ({size / cpu:,.0f} entries/CPU-s), "
        f"peak RSS {peak:,.0f} MB (start {start_mb:,.0f} MB), rows {load.entries.height:,}, "
        f"rejected {len(load.rejected)}, load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    load.entries.write_parquet(out)


def tiled(size: int) -> pl.DataFrame:
    """``size`` entries tiled from the generated 100,000-entry library, ids made unique."""
    with tempfile.TemporaryDirectory() as work:
        bs.write_library_csv(Path(work) / "library.csv", min(size, 100_000))
        one = load_library_frame(work).entries
    tiles = -(-size // one.height)
    parts = [one.with_columns(pl.col("id") + ("" if t == 0 else f"-T{t}")) for t in range(tiles)]
    return pl.concat(parts).head(size)


def result_key(result) -> tuple:
    """Everything a ranking returns, for the identity check."""
    refs = [
        (r.rank, r.id, r.score, r.components, r.relaxed, r.unknown, r.missing)
        for r in result.references
    ]
    return (refs, result.candidate_count, result.filter_trace, result.relaxed, result.reason)


def cpu_laps(library: PreparedLibrary, stage: str | None = None) -> None:
    """``PreparedLibrary.lap`` on the thread's CPU clock (ms)."""
    now = time.thread_time()
    if stage is None:
        library.stage_ms = {}
    else:
        library.stage_ms[stage] = (now - library._lap_start) * 1000
    library._lap_start = now


def through_postgres(
    ids: list[str], matrices: dict[str, np.ndarray], url: str | None
) -> dict[str, np.ndarray]:
    """Write ``matrices`` to Postgres, free them, read them back streamed (module docstring).

    Raises:
        SystemExit: a matrix read back differs from the one written.
    """
    import gc
    import shutil

    from rfp_retrieval.storage import postgres as pg

    server = None
    if url is None:
        from tests.pg_server import start_server

        server = start_server()
        server.create_database("bench_million")
        url = server.url("bench_million")
    try:
        start = time.perf_counter()
        connection = pg.connect(url)
        held = EntryVectors(ids, matrices)
        try:
            with pg.transaction(connection) as cursor:
                for first in range(0, len(ids), bs.PG_BATCH):
                    rows = bs.facet_rows(held, first, min(first + bs.PG_BATCH, len(ids)))
                    if first == 0:
                        pg.write_frame(cursor, bs.PG_SCHEMA, bs.PG_TABLE, rows)
                    else:
                        pg.append_frame(cursor, bs.PG_SCHEMA, bs.PG_TABLE, rows)
                    del rows
        finally:
            connection.close()
        write_s = time.perf_counter() - start
        digests = {f: bs._digest(m) for f, m in matrices.items()}
        facets = list(matrices)
        del held, matrices
        gc.collect()
        with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as work:
            pl.DataFrame({"id": ids}).write_parquet(Path(work) / "ids.parquet")
            start = time.perf_counter()
            command = [sys.executable, __file__, "--read-vectors", url, "--work", work]
            subprocess.run([*command, "--facets", ",".join(facets)], check=True)
            read_s = time.perf_counter() - start
            read = {f: np.load(Path(work) / f"{f}.npy") for f in facets}
    finally:
        if server is not None:
            server.stop()
            shutil.rmtree(server.root, ignore_errors=True)
    same = all(bs._digest(read[f]) == digests[f] for f in facets)
    print(
        f"postgres: wrote {len(ids):,} x {len(facets)} real[] rows in {write_s:.0f} s; the "
        f"reading process took {read_s:.0f} s wall in all; identical: {same}",
        flush=True,
    )
    if not same:
        raise SystemExit("the vectors read from Postgres differ from the ones written")
    return read


def read_vectors_alone(url: str, work: Path, facets: list[str]) -> None:
    """The reading process of ``--store postgres``: only the ids (``work/ids.parquet``) and
    the matrices ``read_vectors`` fills are held, so its peak RSS is the read's own; prints
    it and the read's wall and CPU time, and saves each matrix as ``work/<facet>.npy``."""
    from rfp_retrieval.storage import postgres as pg

    ids = pl.read_parquet(work / "ids.parquet")["id"].to_list()
    before = bs._rss_mb("VmRSS")
    start, cpu = time.perf_counter(), time.process_time()
    connection = pg.connect(url)
    try:
        with pg.transaction(connection, read_only=True) as cursor:
            read = pg.read_vectors(cursor, bs.PG_SCHEMA, bs.PG_TABLE, ids, facets)
    finally:
        connection.close()
    read_s, read_cpu = time.perf_counter() - start, time.process_time() - cpu
    matrix_mb = sum(m.nbytes for m in read.values()) / 2**20
    print(
        f"postgres read (a process holding only the ids): {read_s:.0f} s wall, {read_cpu:.1f} "
        f"s client CPU; RSS before {before:,.0f} MB, peak {bs._rss_mb('VmHWM'):,.0f} MB "
        f"(the matrices {matrix_mb:,.0f} MB)",
        flush=True,
    )
    for facet, matrix in read.items():
        np.save(work / f"{facet}.npy", matrix)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=Path, help="pp_entries parquet (from --ingest)")
    parser.add_argument("--size", type=int, default=1_000_000, help="entries when tiled")
    parser.add_argument("--scopes", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=2, help="exact/prescreen alternations")
    parser.add_argument("--ingest", type=int, default=0, help="time the ingest of N entries")
    parser.add_argument("--out", type=Path, default=Path("entries.parquet"))
    parser.add_argument("--store", choices=("memory", "postgres"), default="memory")
    parser.add_argument("--pg-url", help="an existing server (default: start a throwaway one)")
    parser.add_argument("--read-vectors", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--facets", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.read_vectors:  # the reading process of --store postgres
        read_vectors_alone(args.read_vectors, args.work, args.facets.split(","))
        return
    print(bs.machine(), flush=True)
    if args.ingest:
        ingest(args.ingest, args.out)
        return
    start = time.perf_counter()
    entries = pl.read_parquet(args.entries) if args.entries else tiled(args.size)
    ids = sorted(entries["id"].to_list())
    rng = np.random.default_rng(len(ids))
    matrices = {f: unit_rows(rng, len(ids)) for f in prepared_module.COMPACT_FACETS}
    if args.store == "postgres":
        matrices = through_postgres(ids, matrices, args.pg_url)
    vectors = EntryVectors(ids, matrices)
    # query vectors of every facet for synthetic_scopes; the ranker reads whole and outcome
    drawn = EntryVectors(ids, {f: matrices["whole"] for f in ("narrative", "technical")})
    drawn.matrices.update(matrices)
    scopes = bs.synthetic_scopes(entries, drawn, args.scopes)
    print(
        f"library {len(ids):,} entries, vectors in {time.perf_counter() - start:.0f} s", flush=True
    )
    start = time.perf_counter()
    library = PreparedLibrary(entries, vectors)
    prepare_s = time.perf_counter() - start
    PreparedLibrary.lap = cpu_laps  # stage times on the CPU clock
    config = PRODUCT_DEFAULT
    rank_references(entries, vectors, scopes[0], config, prepared=library)  # warm-up
    paths = ("exact", "prescreen", KEPT)
    figures: dict[str, dict[str, list[float]]] = {path: {} for path in paths}
    results: dict[str, list[tuple]] = {path: [] for path in paths}
    kept: list[int] = []
    original = scoring._exact_section_cosines

    def counting(lib, idx, keep, scope):
        kept.append(len(keep))
        return original(lib, idx, keep, scope)

    scoring._exact_section_cosines = counting
    compact_s = 0.0
    counts = []
    for round_ in range(args.rounds):
        for path in paths:
            if path != "exact" and library._compact is None:
                start = time.perf_counter()
                library.compact()
                compact_s = time.perf_counter() - start
            saved = library._compact
            if path == "exact":
                library._compact = None
            out = figures[path]
            for scope in scopes:
                if path != KEPT:  # pass 1 computes every constraint column
                    library.forget_constraint_columns()
                start, cpu = time.perf_counter(), time.thread_time()
                result = rank_references(entries, vectors, scope, config, prepared=library)
                out.setdefault("wall", []).append((time.perf_counter() - start) * 1000)
                out.setdefault("cpu", []).append((time.thread_time() - cpu) * 1000)
                for name, ms in library.stage_ms.items():
                    out.setdefault(name, []).append(ms)
                if round_ == 0:
                    results[path].append(result_key(result))
                    counts.append(result.candidate_count)
            library._compact = saved
    scoring._exact_section_cosines = original
    same = results["exact"] == results["prescreen"] == results[KEPT]
    whole = matrices["whole"]
    floor = []
    for scope in scopes:
        start = time.perf_counter()
        np.argpartition(-(whole @ scope.vectors["whole"]), 10)[:10]
        floor.append((time.perf_counter() - start) * 1000)
    p50 = statistics.median
    print(
        f"prepare {prepare_s:.1f} s, int8 copy {compact_s:.1f} s; median candidates "
        f"{int(p50(counts[: len(scopes)])):,}; exact pass rescored p50 {int(p50(kept or [0])):,} "
        f"(max {max(kept or [0]):,}); numpy top-10 p50 {p50(floor):.1f} ms wall; "
        f"peak RSS {bs._rss_mb('VmHWM'):,.0f} MB; load average {os.getloadavg()[0]:.1f}"
    )
    for path, out in figures.items():
        stages = ", ".join(f"{k} {p50(v):.1f}" for k, v in out.items() if k not in ("wall", "cpu"))
        print(
            f"{path}: wall p50 {p50(out['wall']):.1f} / p95 {np.quantile(out['wall'], 0.95):.1f} "
            f"ms, CPU p50 {p50(out['cpu']):.1f} / p95 {np.quantile(out['cpu'], 0.95):.1f} ms; "
            f"CPU ms by stage: {stages}"
        )
    print("identical results (exact vs prescreen vs kept columns, every scope):", same)
    if not same:
        raise SystemExit("prescreened ranking differs from exact scoring")


if __name__ == "__main__":
    main()
