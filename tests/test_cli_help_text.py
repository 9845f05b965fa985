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
