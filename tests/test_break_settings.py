"""Bad project settings fail with a SettingsError naming the file (or variable) and the fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rfp_retrieval.cli.app import app
from rfp_retrieval.settings import SettingsError, load_settings


@pytest.fixture
def config(tmp_path, monkeypatch):
    path = tmp_path / "rfp-retrieval.yaml"
    monkeypatch.setenv("RFP_RETRIEVAL_CONFIG", str(path))
    for name in ("RANKING_MODE", "MODEL", "LIBRARY_DIR"):
        monkeypatch.delenv(f"RFP_RETRIEVAL_{name}", raising=False)
    return path


def _error(tmp_path: Path) -> str:
    with pytest.raises(SettingsError) as info:
        load_settings(tmp_path)
    return str(info.value)


def test_yaml_syntax_error_names_the_file_and_line(tmp_path, config):
    config.write_text("library_dir: library\nmodel: [all-MiniLM\n", encoding="utf-8")
    message = _error(tmp_path)
    assert str(config) in message
    assert "not valid YAML at line 2 (a '[' opened at line 2, column 8 is never closed)" in message


def test_an_unclosed_quote_names_the_line_that_opened_it(tmp_path, config):
    """break-it: 'library_dir: "library' was reported at line 3, the end of the file."""
    config.write_text('inbox_dir: inbox\nlibrary_dir: "library\nmodel: x\n', encoding="utf-8")
    assert "not valid YAML at line 2 (a quote opened at line 2, column 14 is never closed)" in (
        _error(tmp_path)
    )


def test_tab_indentation_is_a_settings_error_not_a_traceback(tmp_path, config):
    config.write_text("library_dir:\tlibrary\n", encoding="utf-8")
    assert "not valid YAML at line 1, column 13" in _error(tmp_path)


def test_utf16_config_says_to_save_as_utf8(tmp_path, config):
    config.write_text("library_dir: library\n", encoding="utf-16")
    assert "re-save it as UTF-8" in _error(tmp_path)


def test_number_where_a_name_belongs_is_refused(tmp_path, config):
    config.write_text("model: 12\n", encoding="utf-8")
    assert "model: expected a name, got 12" in _error(tmp_path)


def test_list_where_a_path_belongs_is_refused(tmp_path, config):
    config.write_text("library_dir: [a, b]\n", encoding="utf-8")
    assert "library_dir: expected a path, got ['a', 'b']" in _error(tmp_path)


def test_unknown_ranking_mode_in_the_file_fails_at_load(tmp_path, config):
    config.write_text("ranking_mode: fancy\n", encoding="utf-8")
    message = _error(tmp_path)
    assert str(config) in message
    assert "unknown ranking mode; use one of naive, facet, facet+bumps, default" in message


def test_unknown_ranking_mode_in_the_environment_names_the_variable(tmp_path, config, monkeypatch):
    config.write_text("ranking_mode: default\n", encoding="utf-8")
    monkeypatch.setenv("RFP_RETRIEVAL_RANKING_MODE", "Default")
    assert "RFP_RETRIEVAL_RANKING_MODE=Default: unknown ranking mode" in _error(tmp_path)


def test_valid_config_still_loads(tmp_path, config):
    config.write_text("ranking_mode: facet\nmodel: all-MiniLM-L6-v2\nlibrary_dir: lib\n")
    settings = load_settings(tmp_path)
    assert settings.ranking_mode == "facet"
    assert settings.library_dir == (tmp_path / "lib").resolve()


def test_cli_prints_the_settings_error_without_a_traceback(tmp_path, config):
    config.write_text("ranking_mode: fancy\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["library"])
    assert result.exit_code == 2
    assert "Settings error:" in result.output
    assert "Traceback" not in result.output


def test_eval_and_library_report_missing_files_without_a_traceback(tmp_path, config):
    config.write_text("ranking_mode: default\n", encoding="utf-8")
    bad = tmp_path / "golden.jsonl"
    bad.write_text('{"bad json\n', encoding="utf-8")
    runner = CliRunner()
    missing = runner.invoke(app, ["eval", "past-performance", "--golden", str(tmp_path / "no")])
    assert missing.exit_code == 2
    assert "no such golden-set file" in " ".join(missing.output.replace("│", " ").split())
    malformed = runner.invoke(app, ["eval", "past-performance", "--golden", str(bad)])
    assert malformed.exit_code == 1
    assert "golden.jsonl:1: bad golden-set line" in " ".join(malformed.output.split())
    assert not isinstance(malformed.exception, ValueError)
    nolib = runner.invoke(app, ["library", "--library", str(tmp_path / "nolib")])
    assert nolib.exit_code == 1
    assert "does not exist; pass --library or set library_dir" in " ".join(nolib.output.split())


def test_db_path_that_is_a_folder_is_refused_before_any_work(tmp_path, config, monkeypatch):
    config.write_text("ranking_mode: default\n", encoding="utf-8")
    (tmp_path / "dbdir").mkdir()
    monkeypatch.setenv("RFP_RETRIEVAL_DB_PATH", str(tmp_path / "dbdir"))
    message = _error(tmp_path)
    assert f"db_path {tmp_path / 'dbdir'} is a folder; name the DuckDB file itself" in message


def test_library_command_reads_the_project_folder_given_by_config(tmp_path, monkeypatch):
    # `--config` sets both variables in os.environ; registering them with monkeypatch first
    # restores them afterwards, so later tests do not read this project
    monkeypatch.setenv("RFP_RETRIEVAL_CONFIG", "")
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    project = tmp_path / "proposals"
    (project / "my-library").mkdir(parents=True)
    (project / "my-library" / "matrix.csv").write_text(
        "PP #,Contract Name,Customer,Customer Type,Role,Contract Type,Contract Value,"
        "Period of Performance,Technologies,Domains,Description,Results / Outcomes\n"
        "PP-777,Grants Portal,State of Ohio,State,Prime,Task Order,$2M,01/2022 - 12/2024,AWS,"
        "Cloud Migration,Moved the grants portal to AWS.,Cut processing time 40%.\n",
        encoding="utf-8",
    )
    config = project / "rfp-retrieval.yaml"
    config.write_text("library_dir: my-library\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["library", "--config", str(config), "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert [e["id"] for e in payload["entries"]] == ["PP-777"], payload["rejected"]


def test_an_environment_variable_one_slip_from_a_setting_is_an_error(tmp_path, monkeypatch):
    """Break-it: RFP_RETRIEVAL_LIBRARYDIR was silently ignored (the sample library was used)
    while an unknown key in the file is an error; a variable close to no setting and the
    prefixed variables read elsewhere (config, Postgres URL, OCR) are left alone."""
    monkeypatch.setenv("RFP_RETRIEVAL_OCR_LANG", "eng")
    monkeypatch.setenv("RFP_RETRIEVAL_SOMETHING_ELSE", "x")
    load_settings(tmp_path)  # no error
    monkeypatch.setenv("RFP_RETRIEVAL_LIBRARYDIR", str(tmp_path))
    with pytest.raises(SettingsError) as info:
        load_settings(tmp_path)
    assert str(info.value).startswith(
        "RFP_RETRIEVAL_LIBRARYDIR is not a setting; did you mean RFP_RETRIEVAL_LIBRARY_DIR?"
    )


@pytest.mark.parametrize("text", ["", "\n\n", "# settings come later\n"])
def test_an_empty_config_file_is_an_error_not_the_bundled_sample_library(tmp_path, config, text):
    """Break-it: an empty rfp-retrieval.yaml ran the checkout's sample library and inbox."""
    config.write_text(text, encoding="utf-8")
    message = _error(tmp_path)
    assert message.startswith(f"{config}: holds no settings, so every folder would be the")
    assert "(sample/library, sample/inbox)" in message
    assert "`rfp-retrieval init DIR` writes a full one" in message


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"SQLite format 3\x00" + bytes(100), "is a SQLite database, not a DuckDB file"),
        (b"name,value\nx,1\n", "is not a DuckDB database file"),
        (b"", "is empty, not a DuckDB database file"),
    ],
)
def test_a_store_file_that_is_not_duckdb_is_a_settings_error_at_once(
    tmp_path, config, content, problem
):
    """Break-it: a SQLite file as db_path made DuckDB try to download an extension from the
    network minutes into the run; a text file failed the library job with library advice."""
    store = tmp_path / "store.duckdb"
    store.write_bytes(content)
    config.write_text(f"db_path: {store}\n", encoding="utf-8")
    assert _error(tmp_path).startswith(f"db_path {store} {problem}; point db_path at the")


def test_a_duckdb_store_and_a_store_not_made_yet_are_accepted(tmp_path, config):
    import duckdb

    made = tmp_path / "made.duckdb"
    duckdb.connect(str(made)).close()
    for path in (made, tmp_path / "new.duckdb"):
        config.write_text(f"db_path: {path}\n", encoding="utf-8")
        assert load_settings(tmp_path).db_path == path
