"""Throughput of RFPs dropped into the inbox at once: Postgres with 4 concurrent runs, Postgres
with 1, and the DuckDB single-writer default, in one invocation, with where the time goes.

Each configuration is a fresh project (the first 24 rows of the sample library, two answer
topics), its library built first (not timed), then ``--rfps`` RFPs (the 4 sample RFPs, then
the dev past-performance excerpts in ``../shared/data``) renamed into the inbox at once. The
daemon (``dagster-daemon run``, from the Dagster home, as ``rfp-retrieval ui`` runs it) does
the rest: the inbox sensor requests one run per file, the queue starts them (4 or 1 at a
time), each run is its own process. Postgres is a throwaway server (``tests/pg_server.py``).

Printed per configuration: wall time from the drop to the last run's end, RFPs per hour, the
CPU seconds of every process the daemon started (its session: code server, run processes;
sampled every 0.5 s), and where a run's time goes, as means over its runs from the event
log: waiting in the queue (created to started), launching (started to its first step:
process start, imports, loading the code location) and the three slowest steps, plus the sum
of step time against the wall.

    .venv/bin/python benchmarks/bench_parallel.py --rfps 20
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import dagster as dg  # noqa: E402

import launch  # noqa: E402
from instance_config import instance_yaml  # noqa: E402
from rfp_retrieval.inbox import partition_key_for  # noqa: E402
from rfp_retrieval.settings import load_settings  # noqa: E402
from tests.pg_server import start_server  # noqa: E402
from tests.small_project import project_config, small_answers, small_library  # noqa: E402

CLOCK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    """Fields of ``/proc/<pid>/stat`` after the command name (index 0 = state), or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


class CpuSampler(threading.Thread):
    """CPU seconds (user + system) of the processes ``wanted(pid, fields)`` selects, sampled
    every ``interval`` seconds: the last reading of each process (pid, start time) counts, so
    up to ``interval`` of each process's last moments is missed. ``reaped`` adds the CPU a
    process reports for its waited-for children (Postgres' postmaster reaps its backends)."""

    def __init__(self, wanted: Callable[[int, list[str]], bool], reaped: int | None = None):
        super().__init__(daemon=True)
        self.wanted, self.reaped = wanted, reaped
        self.seen: dict[tuple[int, str], float] = {}
        self.children = 0.0
        self.interval = 0.5
        self._halt = threading.Event()

    def sample(self) -> None:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            fields = _stat(int(entry))
            if fields is None or not self.wanted(int(entry), fields):
                continue
            self.seen[(int(entry), fields[19])] = (int(fields[11]) + int(fields[12])) / CLOCK
            if self.reaped == int(entry):
                self.children = (int(fields[13]) + int(fields[14])) / CLOCK

    def run(self) -> None:
        while not self._halt.is_set():
            self.sample()
            self._halt.wait(self.interval)

    def stop(self) -> float:
        """Stop sampling; the CPU seconds counted."""
        self._halt.set()
        self.join(timeout=10)
        self.sample()
        return sum(self.seen.values()) + self.children


SHARED = ROOT.parent / "shared" / "data"
CONFIGS = (("postgres", 4), ("postgres", 1), ("duckdb", 1))
TIMEOUT_S = 3 * 3600


def rfp_files(count: int) -> list[Path]:
    files = sorted((ROOT / "sample" / "inbox").iterdir())
    for folder in ("pp_golden_dev", "pp_golden_dev2"):
        files += sorted((SHARED / folder).glob("S*.md"))
    if len(files) < count:
        raise SystemExit(f"only {len(files)} RFPs found (is {SHARED} there?)")
    return files[:count]


def run_config(store: str, runs: int, files: list[Path], folder: Path, url: str | None) -> dict:
    """Process ``files`` on a fresh project with ``store`` and ``runs`` at once; figures."""
    small_library(folder / "library")
    small_answers(folder / "answers")
    inbox = folder / "inbox"
    inbox.mkdir()
    config = project_config(folder)
    config.write_text(config.read_text() + f"store: {store}\n")
    home = folder / "home"
    home.mkdir()
    (home / "dagster.yaml").write_text(instance_yaml(store, max_concurrent_runs=runs))
    env = {
        k: v
        for k, v in os.environ.items()
        if k != "PYTHONPATH" and not k.startswith(("RFP_RETRIEVAL_", "DAGSTER_"))
    }
    env.update({"DAGSTER_HOME": str(home), "RFP_RETRIEVAL_CONFIG": str(config)})
    os.environ["RFP_RETRIEVAL_CONFIG"] = str(config)
    if url:
        env["RFP_RETRIEVAL_POSTGRES_URL"] = os.environ["RFP_RETRIEVAL_POSTGRES_URL"] = url
    settings = load_settings(ROOT, config_file=config)
    launcher = launch.Launcher(settings, home)
    assert launcher.run_library().success, "library run failed"

    staged = folder / "staged"
    staged.mkdir()
    for source in files:
        shutil.copy(source, staged / source.name)
    workspace = launch.home_workspace(home, ROOT)
    daemon = subprocess.Popen(
        [str(Path(sys.executable).with_name("dagster-daemon")), "run", "-w", str(workspace)],
        cwd=home,
        env=env,
        stdout=(home / "daemon.log").open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    cpu = CpuSampler(lambda pid, fields: int(fields[3]) == daemon.pid)  # its session
    cpu.start()
    try:
        dropped = time.time()
        for path in sorted(staged.iterdir()):
            path.replace(inbox / path.name)
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            records = launcher.instance.get_run_records(dg.RunsFilter(job_name="rfp_job"))
            finished = [r for r in records if r.dagster_run.is_finished]
            if len(finished) >= len(files) and len(finished) == len(records):
                break
            if time.monotonic() > deadline or daemon.poll() is not None:
                raise SystemExit((home / "daemon.log").read_text()[-3000:])
            time.sleep(2)
    finally:
        if daemon.poll() is None:
            os.killpg(daemon.pid, signal.SIGTERM)
            daemon.wait(timeout=60)
        cpu_s = cpu.stop()
    return {**figures(launcher.instance, finished, dropped, len(files)), "cpu_s": cpu_s}


def figures(instance, records, dropped: float, count: int) -> dict:
    """Wall time, throughput and where the time went, from the runs' event logs."""
    failed = [r for r in records if r.dagster_run.status != dg.DagsterRunStatus.SUCCESS]
    queue, launch_s, steps = [], [], defaultdict(list)
    for record in records:
        queue.append(record.start_time - record.create_timestamp.timestamp())
        events = instance.get_records_for_run(record.dagster_run.run_id).records
        started: dict[str, float] = {}
        first_step = None
        for event in events:
            dagster_event = event.event_log_entry.dagster_event
            if dagster_event is None:
                continue
            at = event.event_log_entry.timestamp
            kind = dagster_event.event_type_value
            if kind == "STEP_START":
                started[dagster_event.step_key] = at
                first_step = at if first_step is None else min(first_step, at)
            elif kind in ("STEP_SUCCESS", "STEP_FAILURE") and dagster_event.step_key in started:
                steps[dagster_event.step_key].append(at - started[dagster_event.step_key])
        if first_step is not None:
            launch_s.append(first_step - record.start_time)
    wall = max(r.end_time for r in records) - dropped
    step_total = sum(sum(v) for v in steps.values()) / max(len(records), 1)
    slowest = sorted(((sum(v) / len(v), k) for k, v in steps.items()), reverse=True)[:3]
    return {
        "rfps": count,
        "failed": len(failed),
        "wall_s": wall,
        "per_hour": count / wall * 3600,
        "queue_s": sum(queue) / len(queue),
        "launch_s": sum(launch_s) / max(len(launch_s), 1),
        "steps_s": step_total,
        "slowest": ", ".join(f"{k} {s:.1f} s" for s, k in slowest),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rfps", type=int, default=20, help="RFPs dropped at once")
    args = parser.parse_args()
    files = rfp_files(args.rfps)
    keys = sorted(partition_key_for(p.name) for p in files)
    assert len(set(keys)) == len(keys)
    server = start_server()
    rows = []
    try:
        for store, runs in CONFIGS:
            url = server.create_database() if store == "postgres" else None
            with tempfile.TemporaryDirectory(prefix="rfp-bench-parallel-") as tmp:
                print(f"{store}, {runs} at once: {len(files)} RFPs ...", flush=True)
                rows.append((store, runs, run_config(store, runs, files, Path(tmp), url)))
    finally:
        server.stop()
        shutil.rmtree(server.root, ignore_errors=True)
    load = os.getloadavg()[0]
    print(f"\nnproc {os.cpu_count()}, load average {load:.1f} at the end; {len(files)} RFPs\n")
    print(
        "| store | runs at once | wall | RFPs/hour | failed | CPU | queue wait | launch | "
        "step time per run | slowest steps (mean) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for store, runs, f in rows:
        print(
            f"| {store} | {runs} | {f['wall_s']:.0f} s | {f['per_hour']:.0f} | {f['failed']} | "
            f"{f['cpu_s']:.0f} s | "
            f"{f['queue_s']:.0f} s | {f['launch_s']:.0f} s | {f['steps_s']:.0f} s | "
            f"{f['slowest']} |"
        )


if __name__ == "__main__":
    main()
