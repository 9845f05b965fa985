"""The CLI's seam to Dagster (``launch.py``): settings in, no environment variables read for
settings or written, the instance in the project's Dagster home; the core imports no Dagster."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import dagster as dg

import launch
from rfp_retrieval.settings import load_settings
from tests.conftest import REPO


def ours(environ) -> dict[str, str]:
    """The variables the CLI could set: DAGSTER_HOME and RFP_RETRIEVAL_* (libraries such as
    torch set their own on import)."""
    return {k: v for k, v in environ.items() if k == "DAGSTER_HOME" or k.startswith("RFP_")}


def test_importing_the_cli_imports_neither_dagster_nor_the_launcher():
    code = (
        "import sys; import rfp_retrieval.cli, rfp_retrieval.settings; "
        "print(sorted(m for m in ('dagster', 'launch', 'definitions') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert out.stdout.strip() == "[]"


def test_dagster_home_is_the_variable_then_beside_the_config_then_in_the_project(tmp_path):
    project, config = tmp_path / "project", tmp_path / "team" / "rfp-retrieval.yaml"
    assert launch.dagster_home(project, config, {"DAGSTER_HOME": "/srv/home"}) == Path("/srv/home")
    assert launch.dagster_home(project, config, {}) == tmp_path / "team" / "var" / "dagster_home"
    assert launch.dagster_home(project, None, {}) == project / "var" / "dagster_home"


def test_the_launcher_builds_the_definitions_for_its_settings_without_touching_os_environ(
    tmp_path,
):
    before = ours(os.environ)
    settings = load_settings(
        REPO, {"db_path": str(tmp_path / "store.duckdb"), "ranking_mode": "naive"}
    )
    launcher = launch.Launcher(settings, tmp_path / "home")
    assert ours(os.environ) == before
    assert (tmp_path / "home" / "dagster.yaml").read_text() == (REPO / "dagster.yaml").read_text()
    assert launcher.instance.is_persistent
    assert launcher.instance.root_directory == str(tmp_path / "home")
    graph = launcher.defs.resolve_asset_graph()
    # the ranking fingerprint follows these settings, not the project's at import
    assert graph.get(dg.AssetKey("pp_references")).code_version.startswith("naive-")
    assert launcher.store.database == str(tmp_path / "store.duckdb")
    assert launcher.store.read_only


def test_ctrl_c_during_a_run_is_an_interrupted_outcome(tmp_path):
    launcher = launch.Launcher.__new__(launch.Launcher)

    class Instance:
        def add_dynamic_partitions(self, name, keys):
            assert name == "rfp_documents"

    class Job:
        def execute_in_process(self, **kwargs):
            raise KeyboardInterrupt

    class Defs:
        def resolve_job_def(self, name):
            return Job()

    launcher.instance, launcher.defs = Instance(), Defs()
    launcher.settings = SimpleNamespace(store="duckdb", db_path=tmp_path / "no-store.duckdb")
    outcome = launcher.run_rfp("a-md", tmp_path / "a.md")
    assert (outcome.success, outcome.interrupted) == (False, True)


def test_the_ui_gets_its_environment_explicitly(tmp_path):
    config = tmp_path / "rfp-retrieval.yaml"
    before = ours(os.environ)
    cmd, env = launch.ui_process(REPO, tmp_path / "home", 3111, config, {"PATH": "/bin"})
    assert ours(os.environ) == before
    assert env == {
        "PATH": "/bin",
        "DAGSTER_HOME": str(tmp_path / "home"),
        "RFP_RETRIEVAL_CONFIG": str(config),
    }
    workspace = str(tmp_path / "home" / "workspace.yaml")
    assert cmd[1:] == ["dev", "-w", workspace, "-h", "127.0.0.1", "-p", "3111"]
    assert (tmp_path / "home" / "dagster.yaml").is_file()
