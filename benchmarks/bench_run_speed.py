"""Wall time of ``rfp-retrieval run`` on this machine (issue 15, speed: an RFP in seconds).

Builds a throwaway project in ``--work`` (copies of ``sample/library``, ``sample/answers``; an
empty inbox; store and Dagster home inside it), builds the library once with a first ``run``
(``setup``), then measures, each as a fresh ``python -m rfp_retrieval.cli run`` process (so
imports and model loading count, as they do for a user):

- ``one``: one new RFP (a copy of ``disa-cyber-icam-rfp.md`` under a new name), library unchanged;
- ``ten``: ten new RFPs in one ``run`` (copies of the four sample inbox RFPs, new names);

and where the time goes, in one separate process (``probe``): importing the CLI, the launcher
and the code location; building the ``Launcher`` (definitions + instance); the library job, or
its skip when the library is unchanged (``Launcher.library_is_current``, absent in older code:
then the job runs, as ``run`` did); and each of three new RFPs' ``rfp_job`` runs (the first
loads the embedding model).

``--code DIR`` runs another checkout of the project (e.g. ``git archive <commit>`` extracted
in /tmp) to measure the code as it was. Prints one JSON object (seconds) and a Markdown row.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_run_speed.py --label after
    .venv/bin/python benchmarks/bench_run_speed.py --code /tmp/before --label before
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
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
import json, sys, time
from pathlib import Path
t0 = time.perf_counter()
import rfp_retrieval.cli.app  # noqa: F401  (the CLI the user starts)
import launch
import code_location  # noqa: F401
from rfp_retrieval.settings import load_settings
t_imports = time.perf_counter() - t0
code, config, files = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
settings = load_settings(code, config_file=config)
t = time.perf_counter()
launcher = launch.Launcher(settings, launch.dagster_home(code, config))
t_launcher = time.perf_counter() - t
t = time.perf_counter()
skip = hasattr(launcher, "library_is_current") and launcher.library_is_current()
if not skip:
    assert launcher.run_library().success
t_library = time.perf_counter() - t
from rfp_retrieval.inbox import partition_key_for
per_rfp = []
for f in files:
    t = time.perf_counter()
    assert launcher.run_rfp(partition_key_for(Path(f).name), Path(f)).success
    per_rfp.append(round(time.perf_counter() - t, 2))
print(json.dumps({"imports": round(t_imports, 2), "launcher": round(t_launcher, 2),
                  "library": round(t_library, 2), "library_skipped": skip,
                  "per_rfp": per_rfp}))
"""


def cli_run(code: Path, config: Path, files: list[Path], env: dict[str, str]) -> float:
    """Wall seconds of one ``rfp-retrieval run --json FILES`` process (must succeed), started
    in the config's folder (``python -m`` puts the working directory first on ``sys.path``:
    started in a checkout it would run that checkout, not ``code``)."""
    cmd = [sys.executable, "-m", "rfp_retrieval.cli", "run", "--project", str(code)]
    cmd += ["--config", str(config), "--json", *map(str, files)]
    start = time.perf_counter()
    done = subprocess.run(
        cmd, env=env, cwd=config.parent, capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"run failed ({done.returncode}):\n{done.stdout[-2000:]}{done.stderr}")
    return round(wall, 2)


def copies(inbox: Path, prefix: str, count: int) -> list[Path]:
    """``count`` copies of the sample inbox RFPs in ``inbox`` named ``<prefix>-NN-<name>``."""
    made = []
    for i in range(count):
        name = RFPS[i % len(RFPS)]
        target = inbox / f"{prefix}-{i:02d}-{name}"
        shutil.copy(REPO / "sample" / "inbox" / name, target)
        made.append(target)
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", type=Path, default=REPO, help="project checkout to run")
    parser.add_argument("--work", type=Path, default=None, help="scratch folder (default: tmp)")
    parser.add_argument("--label", default="now")
    args = parser.parse_args()
    code = args.code.resolve()
    work = Path(args.work or tempfile.mkdtemp(prefix="bench-run-speed-")).resolve()
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
    result: dict[str, object] = {"label": args.label, "code": str(code), "load_start": load}
    result["setup"] = cli_run(code, config, copies(work / "inbox", "setup", 1), env)
    one = work / "inbox" / f"one-new-{RFPS[1]}"
    shutil.copy(REPO / "sample" / "inbox" / RFPS[1], one)
    result["one"] = cli_run(code, config, [one], env)
    result["ten"] = cli_run(code, config, copies(work / "inbox", "ten", 10), env)
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
    result["load_end"] = os.getloadavg()[0]
    print(json.dumps(result))
    p = result["probe"]
    library = f"{p['library']} ({'skipped' if p['library_skipped'] else 'ran'})"
    print(
        f"| {args.label} | {result['one']} | {result['ten']} | {p['imports']} | {p['launcher']} "
        f"| {library} | {' / '.join(map(str, p['per_rfp']))} "
        f"| {result['load_start']:.1f}–{result['load_end']:.1f} |"
    )


if __name__ == "__main__":
    main()
