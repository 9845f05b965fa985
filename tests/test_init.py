"""``rfp-retrieval init DIR`` and the explicit config file (``RFP_RETRIEVAL_CONFIG``)."""

from __future__ import annotations

import yaml
from typer.testing import CliRunner

from rfp_retrieval.cli.app import app
from rfp_retrieval.settings import DEFAULTS, SettingsError, load_settings
from tests.conftest import REPO

runner = CliRunner()


def test_init_creates_folders_copies_samples_and_a_commented_config(tmp_path):
    folder = tmp_path / "proposals"
    result = runner.invoke(app, ["init", str(folder)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == [
        "answers",
        "golden",
        "inbox",
        "library",
        "overrides",
        "rfp-retrieval.yaml",
        "var",
    ]
    assert (folder / "library" / "past_performance_matrix.csv").read_bytes() == (
        REPO / "sample" / "library" / "past_performance_matrix.csv"
    ).read_bytes()
    assert len(list((folder / "library" / "writeups").glob("*.md"))) == 30
    text = (folder / "rfp-retrieval.yaml").read_text()
    assert yaml.safe_load(text) == {
        "library_dir": "library",
        "answers_dir": "answers",
        "inbox_dir": "inbox",
        "db_path": "var/rfp-retrieval.duckdb",
        "output_dir": "output",
        "model": "all-MiniLM-L6-v2",
        "ranking_mode": "default",
        "overrides_dir": "overrides",
        "golden_dir": "golden",  # the team's own, not a path into the checkout
        "model_cache_dir": "var/models",
        "store": "duckdb",
        "postgres_url_env": "RFP_RETRIEVAL_POSTGRES_URL",
    }
    lines = text.splitlines()
    for name in DEFAULTS:
        above = lines[lines.index(next(line for line in lines if line.startswith(name))) - 1]
        assert above.startswith("# "), name
    assert f"rfp-retrieval run --config {folder / 'rfp-retrieval.yaml'}" in result.output


def test_init_refuses_a_folder_that_already_has_a_config(tmp_path):
    assert runner.invoke(app, ["init", str(tmp_path)]).exit_code == 0
    again = runner.invoke(app, ["init", str(tmp_path)])
    assert again.exit_code == 1
    assert "already exists" in again.output


def test_explicit_config_paths_resolve_against_the_config_folder(tmp_path, monkeypatch):
    runner.invoke(app, ["init", str(tmp_path / "team")])
    monkeypatch.setenv("RFP_RETRIEVAL_CONFIG", str(tmp_path / "team" / "rfp-retrieval.yaml"))
    monkeypatch.delenv("RFP_RETRIEVAL_LIBRARY_DIR", raising=False)
    monkeypatch.setenv("RFP_RETRIEVAL_MODEL", "")
    settings = load_settings(REPO)
    team = (tmp_path / "team").resolve()
    assert settings.project_dir == REPO
    assert settings.library_dir == team / "library"
    assert settings.inbox_dir == team / "inbox"
    assert settings.db_path == team / "var" / "rfp-retrieval.duckdb"
    assert settings.output_dir == team / "output"
    assert settings.model_cache_dir == team / "var" / "models"


def test_environment_still_overrides_the_explicit_config(tmp_path, monkeypatch):
    (tmp_path / "c.yaml").write_text("model: elsewhere\nlibrary_dir: lib\n")
    monkeypatch.setenv("RFP_RETRIEVAL_CONFIG", str(tmp_path / "c.yaml"))
    monkeypatch.setenv("RFP_RETRIEVAL_MODEL", "other-model")
    settings = load_settings(REPO)
    assert (settings.model, settings.library_dir) == ("other-model", tmp_path.resolve() / "lib")


def test_missing_explicit_config_says_how_to_create_one(tmp_path, monkeypatch):
    monkeypatch.setenv("RFP_RETRIEVAL_CONFIG", str(tmp_path / "nope.yaml"))
    try:
        load_settings(REPO)
    except SettingsError as exc:
        assert "rfp-retrieval init DIR" in str(exc)
    else:
        raise AssertionError("expected SettingsError")
    result = runner.invoke(app, ["run", "--config", str(tmp_path / "nope.yaml")])
    assert result.exit_code == 2
    assert "rfp-retrieval init DIR" in result.output


def test_init_into_a_folder_it_cannot_write_exits_2_naming_it_and_leaves_no_half_library(
    tmp_path, monkeypatch
):
    """Break-it: ``init`` under a file, into a read-only folder or onto a full disk ended with a
    traceback, and a copy that failed half-way left a half ``library/`` that the next ``init``
    kept as the team's."""
    import errno
    import shutil

    a_file = tmp_path / "notes.txt"
    a_file.write_text("x", encoding="utf-8")
    res = runner.invoke(app, ["init", str(a_file / "proposals")])
    assert res.exit_code == 2
    assert res.exception is None or isinstance(res.exception, SystemExit)
    said = "".join(res.output.split())  # Rich wraps a long path anywhere
    assert (
        "".join(
            f"{a_file / 'proposals'}: cannot create the project folder (Not a directory); give "
            "a folder you can write".split()
        )
        in said
    )
    real_copy = shutil.copyfile  # what copytree's copy2 calls per file
    copied = []

    def filling(src, dst, **kwargs):
        copied.append(src)
        if len(copied) == 5:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_copy(src, dst, **kwargs)

    folder = tmp_path / "proposals"
    monkeypatch.setattr(shutil, "copyfile", filling)
    res = runner.invoke(app, ["init", str(folder)])
    monkeypatch.undo()
    assert res.exit_code == 2
    said = "".join(res.output.split())
    assert "".join(f"{folder}: cannot create the project folder (".split()) in said
    assert "Nospaceleftondevice;1file(s)notcopied);giveafolderyoucanwrite" in said
    assert sorted(p.name for p in folder.iterdir()) == []  # no library, no .library.partial
    res = runner.invoke(app, ["init", str(folder)])  # room again: a whole project folder
    assert res.exit_code == 0, res.output
    assert len(list((folder / "library" / "writeups").glob("*.md"))) == 30
