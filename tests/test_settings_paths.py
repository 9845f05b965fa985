"""Where relative paths in the settings resolve (README "Settings")."""

from __future__ import annotations

from rfp_retrieval.settings import load_settings


def test_relative_path_in_a_variable_resolves_against_the_working_directory(tmp_path, monkeypatch):
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    project.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("RFP_RETRIEVAL_LIBRARY_DIR", "library")
    monkeypatch.setenv("RFP_RETRIEVAL_RANKING_MODE", "default")
    settings = load_settings(project)
    assert settings.library_dir == (elsewhere / "library").resolve()
    assert settings.ranking_mode == "default"


def test_relative_path_in_the_file_resolves_against_the_files_folder(tmp_path, monkeypatch):
    project = tmp_path / "project"
    project.mkdir()
    (project / "rfp-retrieval.yaml").write_text("library_dir: my-library\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RFP_RETRIEVAL_LIBRARY_DIR", raising=False)
    monkeypatch.delenv("RFP_RETRIEVAL_CONFIG", raising=False)
    assert load_settings(project).library_dir == (project / "my-library").resolve()
