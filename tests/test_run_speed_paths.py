"""The fast paths of ``rfp-retrieval run`` (issue 15, speed): the library job is skipped while
the library, the answers, the settings and the code are those of its last successful run
(``launch.library_fingerprint``, ``Launcher.library_is_current``), the embedding model is
loaded once per process however many runs (one per RFP partition) build an embedder, and the
bundled model is loaded without importing sentence-transformers."""

from __future__ import annotations

import json
import os
import shutil
import sys
import types
from pathlib import Path

import dagster as dg
import pytest
from typer.testing import CliRunner

import launch
from resources import EmbeddingModel
from rfp_retrieval.cli.app import app
from rfp_retrieval.cli.render import print_run_summary
from rfp_retrieval.cli.run import LIBRARY_UNCHANGED
from rfp_retrieval.retrieval import embedding
from rfp_retrieval.settings import load_settings
from tests.conftest import REPO
from tests.small_project import MIAMI_RFP, project_config, small_answers, small_library


def small_settings(tmp_path: Path):
    small_library(tmp_path / "library", rows=4)
    small_answers(tmp_path / "answers", topics=("api",))
    return load_settings(
        REPO,
        {
            "library_dir": str(tmp_path / "library"),
            "answers_dir": str(tmp_path / "answers"),
            "db_path": str(tmp_path / "store.duckdb"),
        },
    )


def test_the_library_fingerprint_changes_with_a_library_file_the_model_or_a_setting(tmp_path):
    settings = small_settings(tmp_path)
    first = launch.library_fingerprint(settings)
    assert sorted(first) == ["answers", "code", "dagster", "library", "model", "settings"]
    assert first["model"] == "all-MiniLM-L6-v2"
    assert launch.library_fingerprint(settings) == first
    matrix = tmp_path / "library" / "past_performance_matrix.csv"
    matrix.write_text(matrix.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    edited = launch.library_fingerprint(settings)
    assert {k for k in first if first[k] != edited[k]} == {"library"}
    other = launch.library_fingerprint(load_settings(REPO, {"model": "all-mpnet-base-v2"}))
    assert other["model"].endswith("all-mpnet-base-v2") and other["model"] != edited["model"]


def test_the_code_fingerprint_reads_python_sources_not_compiled_files(tmp_path):
    (tmp_path / "assets" / "__pycache__").mkdir(parents=True)
    (tmp_path / "assets" / "library.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "jobs.py").write_text("y = 2\n", encoding="utf-8")
    first = launch.code_fingerprint(tmp_path)
    (tmp_path / "assets" / "__pycache__" / "library.cpython-311.pyc").write_bytes(b"\0")
    assert launch.code_fingerprint(tmp_path) == first
    (tmp_path / "assets" / "library.py").write_text("x = 10\n", encoding="utf-8")
    assert launch.code_fingerprint(tmp_path) != first


def test_the_library_is_not_current_without_a_stamp_or_after_another_library_run(tmp_path):
    settings = small_settings(tmp_path)
    settings.db_path.write_bytes(b"")
    launcher = launch.Launcher.__new__(launch.Launcher)
    launcher.settings, launcher.home = settings, tmp_path / "home"
    launcher.home.mkdir()

    class Run:
        def __init__(self, run_id):
            self.run_id, self.is_success = run_id, True

    class Instance:
        runs = [Run("r1")]

        def get_runs(self, filters, limit):
            assert (filters.job_name, limit) == ("library_job", 1)
            return self.runs

    launcher.instance = Instance()
    assert not launcher.library_is_current()  # no stamp yet
    stamp = {"fingerprint": launch.library_fingerprint(settings), "run_id": "r1"}
    (launcher.home / launch.LIBRARY_STAMP).write_text(json.dumps(stamp), encoding="utf-8")
    assert launcher.library_is_current()
    Instance.runs = [Run("r2")]  # the UI or the sensor ran the library job since
    assert not launcher.library_is_current()
    Instance.runs = [Run("r1")]
    settings.db_path.unlink()  # the store was deleted
    assert not launcher.library_is_current()


def test_the_run_summary_says_the_library_was_not_rebuilt():
    from rich.console import Console

    console = Console(width=80, record=True)
    print_run_summary([], out=console, library_note=LIBRARY_UNCHANGED)
    assert console.export_text().splitlines()[1:3] == [
        "Summary: 0 RFP(s) ok, 0 failed",
        "library unchanged: not rebuilt (--rebuild-library to force)",
    ]


def materialization_count(home: Path, asset: str) -> int:
    with dg.DagsterInstance.from_config(str(home)) as instance:
        return len(instance.fetch_materializations(dg.AssetKey(asset), limit=1000).records)


def library_runs(home: Path) -> int:
    with dg.DagsterInstance.from_config(str(home)) as instance:
        return len(instance.get_runs(dg.RunsFilter(job_name="library_job")))


@pytest.mark.slow
def test_a_second_run_skips_the_unchanged_library_and_rfps_and_a_changed_file_reruns_them(
    tmp_path, monkeypatch
):
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    monkeypatch.delenv("RFP_RETRIEVAL_CONFIG", raising=False)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    shutil.copy(MIAMI_RFP, inbox / MIAMI_RFP.name)
    small_library(tmp_path / "library", rows=24)
    small_answers(tmp_path / "answers", topics=("api",))
    config = project_config(tmp_path)
    home = tmp_path / "var" / "dagster_home"
    runner = CliRunner()

    first = runner.invoke(app, ["run", "--config", str(config), "--json"])
    assert first.exit_code == 0, first.output
    assert (materialization_count(home, "pp_entries"), library_runs(home)) == (1, 1)

    second = runner.invoke(app, ["run", "--config", str(config)], env={"COLUMNS": "200"})
    assert second.exit_code == 0, second.output
    assert LIBRARY_UNCHANGED in second.stdout
    assert (materialization_count(home, "pp_entries"), library_runs(home)) == (1, 1)
    # new-user trial: every run re-ran every inbox RFP; an unchanged one is not run again,
    # its stored results are shown
    assert materialization_count(home, "pp_references") == 1
    assert "1 of them unchanged since their last run (--rerun to run them)" in second.stdout
    assert f"{MIAMI_RFP.name}" in second.stdout and " unchanged " in second.stdout
    payload = json.loads(runner.invoke(app, ["run", "--config", str(config), "--json"]).stdout)
    (item,) = payload["rfps"]
    assert (item["status"], item["unchanged"], len(item["references"])) == ("ok", True, 3)
    assert item["references"] == json.loads(first.stdout)["rfps"][0]["references"]
    assert materialization_count(home, "pp_references") == 1
    # an override file, an edited RFP file and --rerun each run it again
    overrides = tmp_path / "overrides"
    overrides.mkdir()
    picks = [r["id"] for r in item["references"]]
    (overrides / f"{item['partition']}.yaml").write_text(
        f"- replace: {picks[0]}\n  with: {picks[0]}\n  by: test\n  reason: keep it\n",
        encoding="utf-8",
    )
    runner.invoke(app, ["run", "--config", str(config), "--json"])
    assert materialization_count(home, "pp_references") == 2
    (overrides / f"{item['partition']}.yaml").unlink()
    rfp = inbox / MIAMI_RFP.name
    rfp.write_text(rfp.read_text(encoding="utf-8") + "\nAddendum 1: no change.\n", "utf-8")
    again = json.loads(runner.invoke(app, ["run", "--config", str(config), "--json"]).stdout)
    assert again["rfps"][0]["unchanged"] is False
    assert materialization_count(home, "pp_references") == 3
    runner.invoke(app, ["run", "--config", str(config), "--json"])
    assert materialization_count(home, "pp_references") == 3
    runner.invoke(app, ["run", "--config", str(config), "--rerun", "--json"])
    assert materialization_count(home, "pp_references") == 4
    assert (materialization_count(home, "pp_entries"), library_runs(home)) == (1, 1)

    matrix = tmp_path / "library" / "past_performance_matrix.csv"
    stat = matrix.stat()
    matrix.write_text(matrix.read_text(encoding="utf-8"), encoding="utf-8")
    os.utime(matrix, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    third = runner.invoke(app, ["run", "--config", str(config)], env={"COLUMNS": "200"})
    assert third.exit_code == 0, third.output
    assert LIBRARY_UNCHANGED not in third.stdout
    assert (materialization_count(home, "pp_entries"), library_runs(home)) == (2, 2)
    assert materialization_count(home, "pp_references") == 5  # a new library: every RFP runs

    forced = runner.invoke(app, ["run", "--config", str(config), "--rebuild-library", "--json"])
    assert forced.exit_code == 0, forced.output
    assert (materialization_count(home, "pp_entries"), library_runs(home)) == (3, 3)


def test_the_embedding_model_is_loaded_once_across_the_runs_of_one_process(tmp_path, monkeypatch):
    """Each ``execute_in_process`` (one per RFP partition) builds a fresh ``EmbeddingModel``
    resource; the loaded model is shared through ``embedding._LOADED`` (keyed by the model's
    resolved folder), so only the first run pays for loading it."""
    loads: list[str] = []

    class FakeSentenceTransformer:
        def __init__(self, path, device):
            loads.append(path)

    fake = types.ModuleType("sentence_transformers")
    fake.SentenceTransformer = FakeSentenceTransformer
    monkeypatch.setitem(sys.modules, "sentence_transformers", fake)
    monkeypatch.setattr(embedding, "_LOADED", {})
    model_dir = tmp_path / "my-model"
    model_dir.mkdir()
    seen = []

    @dg.asset
    def uses_the_model(embedding_model: EmbeddingModel) -> None:
        seen.append(embedding_model.embedder.load())

    resources = {"embedding_model": EmbeddingModel(model=str(model_dir))}
    with dg.instance_for_test() as instance:
        for _ in range(3):
            assert dg.materialize([uses_the_model], resources=resources, instance=instance).success
    assert loads == [str(model_dir)]
    assert len(seen) == 3 and seen[0] is seen[1] is seen[2]
    # another model is another entry
    other = tmp_path / "other-model"
    other.mkdir()
    embedding.Embedder(model=str(other)).load()
    assert loads == [str(model_dir), str(other)]


def test_the_bundled_model_encodes_without_importing_sentence_transformers():
    """``rfp-retrieval run`` with the bundled model pays for torch + tokenizers only
    (``bert_encoder``): encoding in a fresh process never imports sentence-transformers,
    transformers or scikit-learn (about 7 CPU-seconds of imports per process)."""
    import subprocess

    probe = (
        "import sys, json\n"
        "from rfp_retrieval.retrieval.embedding import Embedder\n"
        "v = Embedder(precision='fp32').encode(['Cloud migration for a state agency'])\n"
        "heavy = ['sentence_transformers', 'transformers', 'sklearn']\n"
        "print(json.dumps([v.shape[1], [m for m in heavy if m in sys.modules]]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [384, []]
