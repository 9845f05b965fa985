"""Break-it pass 3: text from the user's files (a file called "RFP [draft].md", a contract
titled "Portal [phase 2]", a rejected cell holding "[/b]") is printed as written by the
commands, never read as console markup (eaten, or a MarkupError crash)."""

from __future__ import annotations

from typer.testing import CliRunner

from rfp_retrieval.cli.app import app

runner = CliRunner()

HEADER = (
    "PP #,Contract Name,Customer,Customer Type,Role,Contract Type,Contract Value,"
    "Period of Performance,Technologies,Domains,Description,Results / Outcomes\n"
)


def test_matrix_names_a_missing_file_with_brackets_as_written(tmp_path):
    for name in ("RFP [draft].md", "RFP [/x] v2.md"):
        missing = tmp_path / name
        result = runner.invoke(app, ["matrix", str(missing), "--out", str(tmp_path / "m.csv")])
        assert result.exit_code == 1
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert name in " ".join(result.output.split())


def test_library_prints_bracketed_titles_and_reasons_as_written(tmp_path):
    (tmp_path / "matrix.csv").write_text(
        HEADER + "PP-1,Portal [phase 2],Agency,Federal - Civilian,Prime,Stand-alone Contract,$3.1M,"
        "2020-01-01 - 2022-12-31,Java,Grants,Built the portal.,Cut processing time 30%\n"
        + "PP-2,Claims,Agency,Federal - Civilian,Prime,Stand-alone Contract,[/b] see contract,"
        "2020-01-01 - 2022-12-31,Java,Grants,Built it.,Cut time 30%\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["library", "--library", str(tmp_path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Portal [phase 2]" in result.output
    assert "rejected matrix.csv row 3: PP-2: Contract Value: " in result.output
    assert "'[/b] see contract'" in result.output
    assert "1 entries, 1 rejected, 0 superseded" in result.output


def test_init_prints_a_folder_with_brackets_and_spaces_as_commands_that_paste(tmp_path):
    folder = tmp_path / "[2026] Navy bid"
    result = runner.invoke(app, ["init", str(folder)], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    config = f"'{folder / 'rfp-retrieval.yaml'}'"
    assert f"rfp-retrieval run --config {config}\n" in result.output
    assert f"rfp-retrieval review --config {config} (or copy" in result.output
    assert f"created {folder / 'inbox'}" in result.output
