"""``rfp-retrieval parse`` (text output) prints the RFP's own text verbatim: square brackets in
a heading or a question are not Rich markup, and every ask shows its kind."""

from __future__ import annotations

import json

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
        "  q-001 [question] 1 (l.5) Describe your approach to migrating [legacy] case records.",
        "  q-002 [requirement] 1 (l.7) The Offeror shall submit three past performance references.",
    ]


PRIME_RFP = (
    "# Test RFP\n\n**Issuing Agency:** Department of Labor\n\n## 2. Scope of Work\n\n"
    "Migrate the claims system to the cloud.\n\n## 3. Past Performance\n\n"
    "Submit three (3) references. References must be for work performed as the prime "
    "contractor. Commercial references will not be accepted.\n"
)


def test_parse_shows_whether_prime_only_applies_and_each_filters_reading(tmp_path):
    rfp = tmp_path / "rfp.md"
    rfp.write_text(PRIME_RFP)
    result = CliRunner().invoke(app, ["parse", str(rfp)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "  require_prime: True" in lines
    assert (
        "  require_prime stated in: Test RFP > 3. Past Performance (prime contractor only)" in lines
    )
    assert (
        "  customer_types stated in: Test RFP > 3. Past Performance (customer type "
        "federal-civilian or federal-defense or state or local)" in lines
    )
    result = CliRunner().invoke(app, ["parse", "--json", str(rfp)])
    assert result.exit_code == 0, result.output
    pp = json.loads(result.output)["past_performance"]
    assert (pp["require_prime"], pp["customer_types"]) == (
        True,
        ["federal-civilian", "federal-defense", "state", "local"],
    )
    rfp.write_text(
        PRIME_RFP.replace("References must be for work performed as the prime contractor. ", "")
    )
    result = CliRunner().invoke(app, ["parse", "--json", str(rfp)])
    assert json.loads(result.output)["past_performance"]["require_prime"] is False


def test_parse_gives_each_item_the_kind_the_compliance_matrix_gives_it(tmp_path):
    from rfp_retrieval.documents.extract import load_document
    from rfp_retrieval.documents.matrix import matrix_rows

    rfp = tmp_path / "rfp.md"
    rfp.write_text(
        "# Request for Quotations\n\n"
        "## 1. Statement of Work\n\n"
        "The Contractor shall maintain the case system around the clock.\n\n"
        "## 2. Evaluation\n\n"
        "Quotations will be evaluated on technical approach and price.\n\n"
        "## 3. Instructions\n\n"
        "The quotation shall include the following:\n\n"
        "- A staffing plan with the hours of each labor category\n"
        "- Three references for similar work\n"
    )
    result = CliRunner().invoke(app, ["parse", "--json", str(rfp)])
    assert result.exit_code == 0, result.output
    questions = json.loads(result.output)["questions"]
    parsed = [(q["text"], q["kind"]) for q in questions] + [
        (p["text"], p["kind"]) for q in questions for p in q["parts"]
    ]
    rows = {(r.text, r.kind) for r in matrix_rows(load_document(rfp))}
    assert set(parsed) == rows
    assert (
        "The Contractor shall maintain the case system around the clock.",
        "work-statement",
    ) in rows
    assert (
        "Quotations will be evaluated on technical approach and price.",
        "procurement-process",
    ) in rows
