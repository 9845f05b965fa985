"""Wall time of ``rfp-retrieval run`` on this machine (issue 15, speed: an RFP in seconds).

Builds a throwaway project in ``--work`` (copies of ``sample/library``, ``sample/answers``; an
empty inbox; store and Dagster home inside it), builds the library once with a first ``run``
(``setup``), then measures, each as a fresh ``python -m rfp_retrieval.cli run`` process (so
imports and model loading count, as they do for a user):

- ``one``: one new RFP (a copy of ``disa-cyber-icam-rfp.md`` under a new name), library unchanged;
- ``ten``: ten new RFPs in one ``run`` (copies of the four sample inbox RFPs, new names);

each ``--repeat`` times (new copies each time), reporting the best wall time (``one``,
``ten``), every wall time (``one_all``, ``ten_all``), the CPU seconds (user + system, the
process and its children) of the best (``one_cpu``, ``ten_cpu``) and the 1-minute load
average before each measurement (``one_load``, ``ten_load``). On a shared machine the wall
time mostly measures the neighbours; the CPU seconds are what the command itself costs;

and where the time goes, in one separate process (``probe``): importing the CLI, the launcher
and the code location; building the ``Launcher`` (definitions + instance); the library job, or
its skip when the library is unchanged (``Launcher.library_is_current``, absent in older code:
then the job runs, as ``run`` did); and each of three new RFPs' ``rfp_job`` runs (the first
loads the embedding model), with the seconds of each step of the last one (``steps``, from
the run's event log: STEP_START to STEP_SUCCESS) and the rest of its run (``overhead``).

Then the UI (``--sensor``, on by default): ``rfp-retrieval ui`` on the same project, which
``run`` has just brought up to date. ``first_start_runs``: the runs the inbox sensor requested
on its first tick (nothing changed: 0 is right). Then one new RFP is dropped into the inbox
and ``drop`` splits its drop-to-materialized time (``response_brief`` of its partition):
``to_request`` (drop to the sensor's run request: the file is requested on the second
tick that sees it unchanged, ``sensors/inbox.py``'s settle rule, so one to two tick intervals),
``to_start`` (request to run start: queue + run process launch), ``run`` (run start to
end: imports, code location, model load, steps), ``steps`` (their sum) and ``total``.
When the first start requested runs (older code), the drop is not measured (it would queue
behind them).

``--before COMMIT`` first measures COMMIT (``git archive`` into the scratch folder), then
this checkout, each on its own scratch project: the before/after table in one command.
``--code DIR`` runs another checkout of the project instead of this one. Prints one JSON
object per measured checkout (seconds) and the Markdown rows.

    .venv/bin/python benchmarks/bench_run_speed.py --before d5cfca0 --label after --no-sensor

With ``run_batch`` (newer code) the probe also runs its three files again, renamed, in one
``Launcher.run_batch`` call (``batch``: wall and CPU seconds): what ``run`` does with new files.

The probe also gives the CPU seconds of each stage (``cpu``: imports, launcher, library,
per RFP) and the ``uptime`` line at the start and end of the benchmark (``uptime_start``,
``uptime_end``).
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RFPS = (
    "Miami-Dade 311 RFP.md",
    "disa-cyber-icam-rfp.md",
    "franklin-dhhs-iecms-modernization-rfp.md",
    "usda-fns-snapqcs-rfp.md",
)

PROBE = r"""
import json, resource, sys, time
from pathlib import Path
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
cpus = {}
c0 = cpu()
t0 = time.perf_counter()
import rfp_retrieval.cli.app  # noqa: F401  (the CLI the user starts)
import launch
import code_location  # noqa: F401
from rfp_retrieval.settings import load_settings
t_imports = time.perf_counter() - t0
cpus["imports"] = round(cpu() - c0, 2)
code, config, files = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
settings = load_settings(code, config_file=config)
t, c = time.perf_counter(), cpu()
launcher = launch.Launcher(settings, launch.dagster_home(code, config))
t_launcher = time.perf_counter() - t
cpus["launcher"] = round(cpu() - c, 2)
t, c = time.perf_counter(), cpu()
skip = hasattr(launcher, "library_is_current") and launcher.library_is_current()
if not skip:
    assert launcher.run_library().success
t_library = time.perf_counter() - t
cpus["library"] = round(cpu() - c, 2)
from rfp_retrieval.inbox import partition_key_for
per_rfp, cpus["per_rfp"] = [], []
for f in files:
    t, c = time.perf_counter(), cpu()
    assert launcher.run_rfp(partition_key_for(Path(f).name), Path(f)).success
    per_rfp.append(round(time.perf_counter() - t, 2))
    cpus["per_rfp"].append(round(cpu() - c, 2))
import dagster as dg
last = launcher.instance.get_runs(dg.RunsFilter(job_name="rfp_job"), limit=1)[0]
steps, total = step_seconds(launcher.instance, last.run_id)
batch = None
if hasattr(launcher, "run_batch"):  # the same files again under new names, in one call
    import shutil
    again = []
    for f in files:
        copy = Path(f).with_name("batch-" + Path(f).name)
        shutil.copy(f, copy)
        again.append((partition_key_for(copy.name), copy))
    t, c = time.perf_counter(), cpu()
    assert all(o.success for o in launcher.run_batch(again).values())
    batch = {"files": len(again), "wall": round(time.perf_counter() - t, 2),
             "cpu": round(cpu() - c, 2)}
print(json.dumps({"imports": round(t_imports, 2), "launcher": round(t_launcher, 2),
                  "library": round(t_library, 2), "library_skipped": skip,
                  "per_rfp": per_rfp, "cpu": cpus, "steps": steps,
                  "overhead": round(per_rfp[-1] - sum(steps.values()), 2), "batch": batch}))
"""


def step_seconds(instance, run_id):
    """Seconds of each step of run ``run_id`` (STEP_START to STEP_SUCCESS/FAILURE in its event
    log), slowest first, and their sum."""
    starts, steps = {}, {}
    for entry in instance.all_logs(run_id):
        event = entry.dagster_event
        if event is None:
            continue
        if event.event_type_value == "STEP_START":
            starts[entry.step_key] = entry.timestamp
        elif event.event_type_value in ("STEP_SUCCESS", "STEP_FAILURE"):
            began = starts.get(entry.step_key, entry.timestamp)
            steps[entry.step_key] = round(entry.timestamp - began, 2)
    ordered = dict(sorted(steps.items(), key=lambda kv: -kv[1]))
    return ordered, round(sum(steps.values()), 2)


# the probe runs in another process, on the checkout it measures: it gets the helper's source
PROBE = inspect.getsource(step_seconds) + PROBE


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cli_run(
    code: Path, config: Path, files: list[Path], env: dict[str, str]
) -> tuple[float, float]:
    """Wall and CPU seconds (user + system of the process and the children it waited for)
    of one ``rfp-retrieval run --json FILES`` process (must succeed), started in the config's
    folder (``python -m`` puts the working directory first on ``sys.path``: started in a
    checkout it would run that checkout, not ``code``)."""
    cmd = [sys.executable, "-m", "rfp_retrieval.cli", "run", "--project", str(code)]
    cmd += ["--config", str(config), "--json", *map(str, files)]
    start, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run(
        cmd, env=env, cwd=config.parent, capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"run failed ({done.returncode}):\n{done.stdout[-2000:]}{done.stderr}")
    return round(wall, 2), round(_children_cpu() - cpu, 2)


def best_of(repeat: int, measure) -> dict[str, object]:
    """``measure(i) -> (wall, cpu)`` run ``repeat`` times: the best wall, every wall, the CPU
    seconds of the best and the 1-minute load average before each."""
    walls, cpus, loads = [], [], []
    for i in range(repeat):
        loads.append(round(os.getloadavg()[0], 1))
        wall, cpu = measure(i)
        walls.append(wall)
        cpus.append(cpu)
    best = walls.index(min(walls))
    return {"best": walls[best], "all": walls, "cpu": cpus[best], "load": loads}


def uptime() -> str:
    """The ``uptime`` line (load averages over 1, 5 and 15 minutes)."""
    done = subprocess.run(["uptime"], capture_output=True, text=True, check=False)
    return done.stdout.strip()


def copies(inbox: Path, prefix: str, count: int) -> list[Path]:
    """``count`` copies of the sample inbox RFPs in ``inbox`` named ``<prefix>-NN-<name>``."""
    made = []
    for i in range(count):
        name = RFPS[i % len(RFPS)]
        target = inbox / f"{prefix}-{i:02d}-{name}"
        shutil.copy(REPO / "sample" / "inbox" / name, target)
        made.append(target)
    return made


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _sensor_ticks(instance) -> list:
    """The ticks of ``rfp_inbox_sensor`` on ``instance``, newest first ([] before its first)."""
    for state in instance.all_instigator_state():
        if state.instigator_name == "rfp_inbox_sensor":
            return list(instance.get_ticks(state.instigator_origin_id, state.selector_id))
    return []


def _wait(predicate, timeout_s: float, what: str):
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.5)
    raise SystemExit(f"timed out after {timeout_s:.0f} s waiting for {what}")


def sensor_phase(code: Path, config: Path, work: Path, env: dict[str, str]) -> dict:
    """``rfp-retrieval ui`` on the project ``run`` left up to date: the runs its first sensor
    tick requests, then one dropped RFP's drop-to-materialized time, split (module docstring).
    Stops the UI (SIGTERM to the command, as the README says) before returning."""
    import dagster as dg

    home = work / "var" / "dagster_home"
    port = _free_port()
    cmd = [sys.executable, "-m", "rfp_retrieval.cli", "ui", "--project", str(code)]
    cmd += ["--config", str(config), "--port", str(port)]
    out: dict[str, object] = {}
    start = time.time()
    proc = subprocess.Popen(
        cmd,
        env=env,
        cwd=config.parent,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        with dg.DagsterInstance.from_config(str(home)) as instance:
            before = {r.run_id for r in instance.get_runs()}

            def first_tick():
                done = [
                    t
                    for t in _sensor_ticks(instance)
                    if t.status.value != "STARTED" and t.timestamp >= start
                ]
                return done[-1] if done else None

            tick = _wait(first_tick, 600, "the inbox sensor's first tick")
            out["first_tick_after_start"] = round(tick.timestamp - start, 1)
            out["first_start_runs"] = len(tick.run_ids)
            if tick.run_ids:
                return out
            dropped = work / "inbox" / f"dropped-{RFPS[0]}"
            drop = time.time()
            shutil.copy(REPO / "sample" / "inbox" / RFPS[0], dropped)
            from rfp_retrieval.inbox import partition_key_for

            key = partition_key_for(dropped.name)

            def materialized():
                records = instance.fetch_materializations(
                    dg.AssetRecordsFilter(
                        asset_key=dg.AssetKey("response_brief"), asset_partitions=[key]
                    ),
                    limit=1,
                ).records
                return records[0] if records else None

            record = _wait(materialized, 900, f"response_brief {key}")
            done = time.time()
            run = instance.get_run_record_by_id(record.run_id)
            _wait(lambda: instance.get_run_record_by_id(record.run_id).end_time, 120, "run end")
            run = instance.get_run_record_by_id(record.run_id)
            requested = run.create_timestamp.timestamp()
            steps, steps_total = step_seconds(instance, record.run_id)
            out["drop"] = {
                "to_request": round(requested - drop, 1),
                "to_start": round(run.start_time - requested, 1),
                "run": round(run.end_time - run.start_time, 1),
                "steps": steps_total,
                "total": round(done - drop, 1),
                "step_seconds": steps,
                "new_runs": len({r.run_id for r in instance.get_runs()} - before),
            }
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
    return out


def measure(code: Path, label: str, work: Path, repeat: int, sensor: bool) -> dict:
    """Every figure of the module docstring for the checkout ``code`` on a new scratch
    project in ``work`` (created): one JSON-ready dict (seconds)."""
    work.mkdir(parents=True, exist_ok=True)
    shutil.copytree(REPO / "sample" / "library", work / "library")
    shutil.copytree(REPO / "sample" / "answers", work / "answers")
    (work / "inbox").mkdir()
    config = work / "rfp-retrieval.yaml"
    config.write_text(
        "library_dir: library\nanswers_dir: answers\ninbox_dir: inbox\n"
        "db_path: var/store.duckdb\noutput_dir: out\noverrides_dir: overrides\n",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DAGSTER_", "RFP_"))}
    env["PYTHONPATH"] = str(code)
    load = os.getloadavg()[0]
    result: dict[str, object] = {"label": label, "code": str(code), "load_start": load}
    result["uptime_start"] = uptime()
    result["setup"] = cli_run(code, config, copies(work / "inbox", "setup", 1), env)[0]

    def one_new(i: int) -> tuple[float, float]:
        one = work / "inbox" / f"one-new-{i}-{RFPS[1]}"
        shutil.copy(REPO / "sample" / "inbox" / RFPS[1], one)
        return cli_run(code, config, [one], env)

    def ten_new(i: int) -> tuple[float, float]:
        return cli_run(code, config, copies(work / "inbox", f"ten{i}", 10), env)

    for name, run in (("one", one_new), ("ten", ten_new)):
        figures = best_of(repeat, run)
        result[name] = figures["best"]
        for key in ("all", "cpu", "load"):
            result[f"{name}_{key}"] = figures[key]
    probe = subprocess.run(
        [sys.executable, "-c", PROBE, str(code), str(config)]
        + [str(p) for p in copies(work / "inbox", "probe", 3)],
        env=env,
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    )
    if probe.returncode != 0:
        raise SystemExit(f"probe failed:\n{probe.stderr[-3000:]}")
    result["probe"] = json.loads(probe.stdout.strip().splitlines()[-1])
    result["load_after_run"] = os.getloadavg()[0]
    if sensor:
        result["sensor"] = sensor_phase(code, config, work, env)
    result["load_end"] = os.getloadavg()[0]
    result["uptime_end"] = uptime()
    return result


TABLE_HEAD = (
    "| code | one new RFP: wall (CPU) | ten RFPs: wall (CPU) | imports | launcher | library "
    "| per RFP in one process (1st / 2nd / 3rd) | 3 more in one run_batch | load avg |\n"
    "|---|---:|---:|---:|---:|---:|---|---:|---|"
)


def table_row(result: dict) -> str:
    """The Markdown row of one ``measure`` result (wall seconds, CPU seconds in brackets)."""
    p = result["probe"]
    cpu = p.get("cpu") or {}
    library = f"{p['library']} ({'skipped' if p['library_skipped'] else 'ran'})"
    batch = p.get("batch")
    batched = f"{batch['wall']} ({batch['cpu']})" if batch else "-"
    return (
        f"| {result['label']} | {result['one']} ({result['one_cpu']}) "
        f"| {result['ten']} ({result['ten_cpu']}) "
        f"| {p['imports']} ({cpu.get('imports', '-')}) | {p['launcher']} "
        f"({cpu.get('launcher', '-')}) | {library} "
        f"| {' / '.join(map(str, p['per_rfp']))} ({' / '.join(map(str, cpu.get('per_rfp', [])))}) "
        f"| {batched} "
        f"| {result['load_start']:.1f}–{result['load_end']:.1f} |"
    )


def sensor_row(result: dict) -> str:
    """The Markdown row of one ``measure`` result's UI phase ('' when it was skipped)."""
    sensor = result.get("sensor") or {}
    if not sensor:
        return ""
    drop = sensor.get("drop") or {}
    return (
        f"| {result['label']} | first start: {sensor['first_start_runs']} runs | drop: "
        + (
            f"{drop['total']} s (request {drop['to_request']}, start {drop['to_start']}, "
            f"run {drop['run']} of which steps {drop['steps']})"
            if drop
            else "not measured"
        )
        + f" | load {result['load_end']:.1f} |"
    )


def checkout(commit: str, folder: Path) -> Path:
    """``git archive <commit>`` of this repository extracted into ``folder`` (created)."""
    folder.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", commit], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", type=Path, default=REPO, help="project checkout to run")
    parser.add_argument("--work", type=Path, default=None, help="scratch folder (default: tmp)")
    parser.add_argument("--label", default="now")
    parser.add_argument(
        "--before",
        default=None,
        metavar="COMMIT",
        help="also measure COMMIT (git archive into the scratch folder) first, label 'before'",
    )
    parser.add_argument("--repeat", type=int, default=1, help="best of N for one and ten")
    parser.add_argument(
        "--no-sensor", action="store_true", help="skip the UI / sensor phase (dagster dev)"
    )
    args = parser.parse_args()
    work = Path(args.work or tempfile.mkdtemp(prefix="bench-run-speed-")).resolve()
    plan = [(args.code.resolve(), args.label, work / "project")]
    if args.before:
        code = checkout(args.before, work / "before-code")
        plan.insert(0, (code, f"before ({args.before})", work / "before-project"))
    results = [
        measure(code, label, folder, args.repeat, not args.no_sensor)
        for code, label, folder in plan
    ]
    for result in results:
        print(json.dumps(result))
    print(TABLE_HEAD)
    for result in results:
        print(table_row(result))
    for result in results:
        if sensor_row(result):
            print(sensor_row(result))


if __name__ == "__main__":
    main()
