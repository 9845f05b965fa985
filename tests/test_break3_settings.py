"""Break-it pass 3, ``rfp-retrieval.yaml`` as people edit it: a setting pasted twice, a setting
left blank (which fell back to the bundled sample library), a model name in the wrong case."""

from __future__ import annotations

from pathlib import Path

import pytest

from rfp_retrieval.settings import SettingsError, load_settings


@pytest.fixture
def config(tmp_path, monkeypatch):
    path = tmp_path / "rfp-retrieval.yaml"
    monkeypatch.setenv("RFP_RETRIEVAL_CONFIG", str(path))
    for name in ("RANKING_MODE", "MODEL", "LIBRARY_DIR", "INBOX_DIR"):
        monkeypatch.delenv(f"RFP_RETRIEVAL_{name}", raising=False)
    return path


def _error(tmp_path: Path) -> str:
    with pytest.raises(SettingsError) as info:
        load_settings(tmp_path)
    return str(info.value)


def test_a_setting_given_twice_names_both_lines(tmp_path, config):
    config.write_text(
        "library_dir: library\nmodel: all-MiniLM-L6-v2\nlibrary_dir: old-library\n",
        encoding="utf-8",
    )
    assert _error(tmp_path) == (
        f"{config}: library_dir is set twice (lines 1 and 3); keep one line: only one value "
        "can apply"
    )


@pytest.mark.parametrize("line", ["library_dir:\n", "library_dir: ''\n", "library_dir: ~\n"])
def test_a_blank_setting_is_reported_not_replaced_by_the_sample_library(tmp_path, config, line):
    config.write_text("inbox_dir: inbox\n" + line, encoding="utf-8")
    assert _error(tmp_path) == (
        f"{config}: library_dir has no value; give one (e.g. library_dir: sample/library) or "
        "delete the line to use the default (sample/library)"
    )


def test_a_model_name_in_the_wrong_case_says_how_to_write_it(tmp_path, config, monkeypatch):
    config.write_text("model: all-minilm-l6-v2\n", encoding="utf-8")
    assert _error(tmp_path) == (
        f"{config}: model: all-minilm-l6-v2: model names are case-sensitive; write all-MiniLM-L6-v2"
    )
    config.write_text("library_dir: lib\n", encoding="utf-8")
    monkeypatch.setenv("RFP_RETRIEVAL_MODEL", "ALL-MPNET-BASE-V2")
    assert _error(tmp_path) == (
        "RFP_RETRIEVAL_MODEL=ALL-MPNET-BASE-V2: model names are case-sensitive; write "
        "all-mpnet-base-v2"
    )


def test_settings_that_read_still_load(tmp_path, config):
    config.write_text("library_dir: lib\nmodel: all-MiniLM-L6-v2\n", encoding="utf-8")
    settings = load_settings(tmp_path)
    assert settings.library_dir == tmp_path / "lib"
    assert settings.model == "all-MiniLM-L6-v2"
