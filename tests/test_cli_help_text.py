"""Every command's ``--help`` is written for the user: no developer notes (new-user trial,
session 12: ``run --help`` printed ``launch.Launcher.library_is_current`` and a trial's
timing)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from rfp_retrieval.cli.app import app

COMMANDS = [
    ["run"],
    ["init"],
    ["review"],
    ["ui"],
    ["parse"],
    ["matrix"],
    ["library"],
    ["library", "import-awards"],
    ["eval", "past-performance"],
    ["eval", "answers"],
    ["eval", "parse"],
    ["store", "migrate"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_text_holds_no_developer_notes(command):
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output
    for marker in ("``", "new-user trial", "break-it", "For developers"):
        assert marker not in result.output, (command, marker)


def test_ctrl_c_while_run_starts_says_nothing_was_written_and_exits_130(tmp_path, monkeypatch):
    """Break-it: a Ctrl-C before the first run started ended `run` with exit 130 and not a
    word (typer swallows the KeyboardInterrupt)."""
    from rfp_retrieval.cli import run as run_command

    def interrupted(folder):
        raise KeyboardInterrupt

    config = tmp_path / "rfp-retrieval.yaml"
    (tmp_path / "inbox").mkdir()  # empty: no model helper is started
    config.write_text("db_path: var/store.duckdb\ninbox_dir: inbox\n", encoding="utf-8")
    monkeypatch.setattr(run_command, "import_launcher", interrupted)
    result = CliRunner().invoke(app, ["run", "--config", str(config)], env={"COLUMNS": "120"})
    assert result.exit_code == 130
    assert run_command.STARTUP_INTERRUPTED in result.output
