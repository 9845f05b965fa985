"""ScopeQuery filters read from the 15 golden RFP excerpts match ``scopes_truth.jsonl`` exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.scope import read_scope

GOLDEN = Path(__file__).parents[1] / ".." / "shared" / "data" / "pp_golden_dev"
TRUTH = GOLDEN / "scopes_truth.jsonl"


def _truth() -> list[dict]:
    if not TRUTH.is_file():
        return []
    return [json.loads(line) for line in TRUTH.read_text(encoding="utf-8").splitlines() if line]


SCOPES = _truth()
FILTER_FIELDS = (
    "issuer_type",
    "references_required",
    "recency_years",
    "ended_after",
    "started_after",
    "value_min",
    "value_max",
    "customer_types_required",
)
ISSUER_FIELDS = ("issuer_acronym", "parent_agency", "value_approx", "industries_required")


@pytest.fixture(scope="module", autouse=True)
def _need_golden() -> None:
    if not SCOPES:
        pytest.skip(f"{TRUTH} is missing: the golden set is read in place from ../shared/data")


@pytest.mark.parametrize("truth", SCOPES, ids=[t["scope_id"] for t in SCOPES])
def test_scope_filters_match_truth(truth: dict) -> None:
    doc = load_document(GOLDEN / truth["rfp_file"])
    reading = read_scope(doc)
    assert doc.issue_date is not None and doc.issue_date.isoformat() == truth["rfp_date"]
    assert reading.rfp_date == truth["rfp_date"]
    got = {f: getattr(reading, f) for f in FILTER_FIELDS}
    assert got == {f: truth[f] for f in FILTER_FIELDS}


@pytest.mark.parametrize("truth", SCOPES, ids=[t["scope_id"] for t in SCOPES])
def test_scope_issuer_matches_truth(truth: dict) -> None:
    reading = read_scope(load_document(GOLDEN / truth["rfp_file"]))
    assert {f: getattr(reading, f) for f in ISSUER_FIELDS} == {f: truth[f] for f in ISSUER_FIELDS}


@pytest.mark.parametrize("truth", SCOPES, ids=[t["scope_id"] for t in SCOPES])
def test_every_stated_filter_is_traced_to_its_sentence(truth: dict) -> None:
    reading = read_scope(load_document(GOLDEN / truth["rfp_file"]))
    traced = {t["filter"]: t for t in reading.trace}
    assert (
        traced["recency"]["sentence"]
        and truth["recency_text"].split()[-1] in (traced["recency"]["sentence"])
    )
    if truth["value_text"]:
        assert traced["value"]["section"] and traced["value"]["sentence"]
    assert reading.narrative_text.startswith(doc_title(truth))
    assert reading.technical_text and reading.outcome_text


def doc_title(truth: dict) -> str:
    first = (GOLDEN / truth["rfp_file"]).read_text(encoding="utf-8").splitlines()[0]
    return first.lstrip("# ").strip()
