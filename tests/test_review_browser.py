"""The writer's loop in a real browser: ``run --json`` on a small project, the brief and the
review page in Debian's chromium (driven by Playwright, never ``playwright install``), a
reference swapped on the page, the partition re-run through Dagster, and the updated brief
and ``run --json`` showing the override.

One module (the costly project run is shared): the facts ``run --json`` reports per reference
(why cite, check before citing, the override mark) are checked here on real runs too.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rfp_retrieval.cli.shapes import RunItem
from rfp_retrieval.report.caveats import CAVEAT_KINDS
from tests.conftest import REPO
from tests.small_project import MIAMI_RFP, project_config, small_answers, small_library
from tests.test_brief_browser import ARTIFACTS, CHROMIUM, CHROMIUM_FLAGS
from tests.test_cli_json_shapes import problems

pytestmark = pytest.mark.slow

KEY = "miami-dade-311-rfp-md"
CLI = str(Path(sys.executable).with_name("rfp-retrieval"))
WAIT_MS = 600_000  # a re-run loads the model and runs rfp_job: slow on a busy machine


def _env(root: Path) -> dict[str, str]:
    """The caller's environment without RFP_RETRIEVAL_* / DAGSTER_HOME (the config decides)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RFP_RETRIEVAL_")}
    env.pop("DAGSTER_HOME", None)
    return env


def _run_json(config: Path, root: Path) -> dict:
    done = subprocess.run(
        [CLI, "run", "--json", "--config", str(config)],
        cwd=REPO,
        env=_env(root),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (item,) = json.loads(done.stdout)["rfps"]
    assert item["status"] == "ok", item["error"]
    assert problems(item, RunItem) == []  # the declared shape, override marks included
    return item


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> dict:
    """A small project folder, run once: ``{"root", "config", "first"}`` (the RunItem)."""
    root = tmp_path_factory.mktemp("review")
    small_library(root / "library")
    small_answers(root / "answers", topics=("case-management",))
    (root / "inbox").mkdir()
    (root / "inbox" / MIAMI_RFP.name).write_bytes(MIAMI_RFP.read_bytes())
    config = project_config(root)
    return {"root": root, "config": config, "first": _run_json(config, root)}


@pytest.fixture(scope="module")
def server(project):
    """``rfp-retrieval review --port 0`` on the project; yields its base URL."""
    proc = subprocess.Popen(
        [CLI, "review", "--port", "0", "--config", str(project["config"])],
        cwd=REPO,
        env=_env(project["root"]),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert found, f"no URL in {line!r}: {proc.stderr.read()[-2000:] if proc.poll() else ''}"
        yield found.group(0)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_run_json_gives_the_brief_notes_of_each_reference(project):
    first = project["first"]
    page = Path(first["brief"]).read_text(encoding="utf-8")
    assert len(first["references"]) == 3
    for ref in first["references"]:
        assert ref["override"] is None
        assert ref["why_cite"], ref["id"]  # every pick has a reason drawn from RFP and entry
        # the very lines the brief shows under this reference (one record, read back)
        block = page.split(f'data-id="{ref["id"]}"', 1)[1].split('class="reference', 1)[0]
        for line in ref["why_cite"]:
            assert f"<li>{html.escape(line)}</li>" in block
        for check in ref["check_before_citing"]:
            assert check["kind"] in CAVEAT_KINDS
            assert f'data-kind="{check["kind"]}">{html.escape(check["text"])}</li>' in block


def test_swap_a_reference_in_chromium_and_see_the_override(project, server, tmp_path):
    if not CHROMIUM.exists():
        pytest.skip(
            f"{CHROMIUM} is missing: install Debian's chromium "
            "(`apt-get install -y chromium`; .ci/run does it when run as root)"
        )
    from playwright.sync_api import sync_playwright

    first = project["first"]
    ids = [r["id"] for r in first["references"]]
    old = first["references"][2]
    overrides = project["root"] / "overrides" / f"{KEY}.yaml"
    flags = [f for f in CHROMIUM_FLAGS if f != "--headless"]  # Playwright sets headless
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=flags)
        page = browser.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(Path(first["brief"]).resolve().as_uri())
        assert page.locator(".reference").evaluate_all("els => els.map(e => e.dataset.id)") == ids
        assert page.locator(".reference[data-override]").count() == 0

        page.goto(server)
        page.click(f"a[href='/review/{KEY}']")
        rows = page.locator(".review-ref")
        assert rows.evaluate_all("els => els.map(e => e.dataset.id)") == ids
        form = page.locator(f".review-ref[data-id='{old['id']}'] form")
        # Bad input first: an id the library does not hold changes nothing.
        form.locator("input[name=with_id]").fill("PP-NOPE")
        form.locator("input[name=reason]").fill("Closer to the contact-centre scope.")
        form.locator("button").click()
        assert "PP-NOPE is not an entry id of the library" in page.locator(".message").inner_text()
        assert not overrides.exists()

        form = page.locator(f".review-ref[data-id='{old['id']}'] form")
        options = form.locator("select[name=with_choice] option").evaluate_all(
            "els => els.map(e => e.value).filter(v => v)"
        )
        assert options and not set(options) & set(ids)
        new_id = options[0]
        form.locator("select[name=with_choice]").select_option(new_id)
        form.locator("input[name=reason]").fill("Closer to the contact-centre scope.")
        form.locator("input[name=by]").fill("Dana Writer")
        form.locator("button").click()  # writes the file, re-runs the partition, redirects
        message = page.locator(".message")
        assert message.inner_text().startswith(f"{new_id} now replaces {old['id']}")
        assert page.locator(".review-ref").evaluate_all("els => els.map(e => e.dataset.id)") == [
            ids[0],
            ids[1],
            new_id,
        ]

        brief = page.frame_locator("iframe.brief")
        marked = brief.locator(f".reference[data-id='{new_id}'][data-override='yes']")
        note = marked.locator(".override")
        assert note.get_attribute("data-replaced") == old["id"]
        assert f"in place of {old['id']} (score {old['score']:.3f})" in note.inner_text()
        assert "Chosen by Dana Writer" in note.inner_text()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "review-after-swap.png"), full_page=True)
        browser.close()
    (written,) = yaml.safe_load(overrides.read_text(encoding="utf-8"))["overrides"]
    assert (written["replace"], written["with"], written["by"]) == (
        old["id"],
        new_id,
        "Dana Writer",
    )

    # run --json reports the same override, with the replaced pick's own score.
    again = _run_json(project["config"], project["root"])
    mark = again["references"][2]["override"]
    assert again["references"][2]["id"] == new_id
    assert mark["replaced"] == {"id": old["id"], "title": old["title"], "score": old["score"]}
    assert (mark["by"], mark["reason"]) == ("Dana Writer", "Closer to the contact-centre scope.")
