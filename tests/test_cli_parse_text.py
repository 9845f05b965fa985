"""``rfp-retrieval parse`` (text output) prints the RFP's own text verbatim: square brackets in
a heading or a question are not Rich markup, and every ask shows its kind."""

from __future__ import annotations

from typer.testing import CliRunner

from rfp_retrieval.cli import app


def test_parse_text_keeps_brackets_and_shows_each_asks_kind(tmp_path):
    rfp = tmp_path / "rfp.md"
    rfp.write_text(
        "# Request for Proposals [Draft]\n\n"
        "## 1. Technical Approach\n\n"
        "Describe your approach to migrating [legacy] case records.\n\n"
        "The Offeror shall submit three past performance references.\n"
    )
    result = CliRunner().invoke(app, ["parse", str(rfp)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Request for Proposals [Draft]"
    asks = [line for line in lines if line.startswith("  q-")]
    assert asks == [
        "  q-001 [question] - (l.5) Describe your approach to migrating [legacy] case records.",
        "  q-002 [requirement] - (l.7) The Offeror shall submit three past performance references.",
    ]
