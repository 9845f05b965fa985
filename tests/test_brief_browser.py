"""The brief of a real pipeline run, opened in headless Chromium (Debian's ``chromium``).

``rfp-retrieval run --json`` runs the whole job on a slice of the sample library and the
Miami-Dade 311 RFP; the brief path it prints is loaded in Chromium, the DOM is checked for
the three references and the chart, and a screenshot is kept in ``test-artifacts/``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.small_project import MIAMI_RFP, small_answers, small_library

# the review page's browser test (tests/test_review_browser.py) opens the brief in Chromium on
# every default run; this one (the chart's DOM) runs with `make test-all`
pytestmark = [pytest.mark.slow, pytest.mark.extended]

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def run_output(tmp_path_factory) -> dict:
    """``rfp-retrieval run --json`` on the Miami-Dade RFP (small library), parsed."""
    root = tmp_path_factory.mktemp("brief")
    env = {
        **os.environ,
        "DAGSTER_HOME": str(root / "dagster_home"),
        "RFP_RETRIEVAL_OUTPUT_DIR": str(root / "out"),
        "RFP_RETRIEVAL_INBOX_DIR": str(root / "inbox"),
    }
    (root / "inbox").mkdir()
    cmd = [
        str(Path(sys.executable).with_name("rfp-retrieval")),
        "run",
        "--json",
        "--library",
        str(small_library(root / "library")),
        "--answers",
        str(small_answers(root / "answers")),
        "--db",
        str(root / "store.duckdb"),
        str(MIAMI_RFP),
    ]
    done = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def _chromium(*args: str, user_data: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(CHROMIUM), *CHROMIUM_FLAGS, f"--user-data-dir={user_data}", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_run_json_gives_the_brief_path_and_it_holds_three_references(run_output):
    (rfp,) = run_output["rfps"]
    assert rfp["status"] == "ok"
    brief = Path(rfp["brief"])
    assert brief.name == "brief.html"
    assert brief.parent.name == "miami-dade-311-rfp-md"
    assert brief.with_suffix(".md").is_file()
    page = brief.read_text(encoding="utf-8")
    ids = [r["id"] for r in rfp["references"]]
    assert len(ids) == 3
    assert re.findall(r'class="reference ref" data-id="([^"]+)"', page) == ids


def test_brief_renders_references_and_chart_in_headless_chromium(run_output, tmp_path):
    if not CHROMIUM.exists():
        pytest.skip(
            f"{CHROMIUM} is missing: install Debian's chromium "
            "(`apt-get install -y chromium`; .ci/run does it when run as root)"
        )
    (rfp,) = run_output["rfps"]
    url = Path(rfp["brief"]).resolve().as_uri()
    dom = _chromium("--dump-dom", url, user_data=tmp_path / "profile-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    ids = [r["id"] for r in rfp["references"]]
    assert re.findall(r'class="reference ref" data-id="([^"]+)"', dom.stdout) == ids
    assert dom.stdout.count('<svg xmlns="http://www.w3.org/2000/svg" class="score-chart"') == 1
    bars = re.findall(r'<rect class="part" data-part="([a-z_]+)"', dom.stdout)
    assert len(bars) >= 3
    assert {"weighted_whole", "weighted_outcome"} <= set(bars)
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "brief-miami-dade-311.png"
    shot.unlink(missing_ok=True)
    done = _chromium(
        f"--screenshot={shot}",
        "--window-size=1200,2000",
        url,
        user_data=tmp_path / "profile-shot",
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert shot.stat().st_size > 20_000
