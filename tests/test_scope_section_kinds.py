"""The one section classifier: each kind, and the named disagreements kept for a later change."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.section_kinds import SectionKinds
from rfp_retrieval.scope import EMPHASIS_WEIGHTS, as_of_for
from rfp_retrieval.scope.as_of import FILE_DATE_SOURCE, ISSUE_DATE_SOURCE
from rfp_retrieval.scope.emphasis import domain_emphasis

RFP = """# Request for Proposals: Case Management Modernization

## 1. Introduction

The Department seeks a vendor to modernize its case management system.

## 2. Scope of Work

### 2.1 Background

The current system is twenty years old.

### 2.2 Program Evaluation

The Contractor shall evaluate program outcomes and build dashboards.

### 2.3 Claims Pricing

The Contractor shall price claims.

## 3. Instructions to Offerors

Offerors shall submit three (3) references.

## 4. Evaluation Criteria

Proposals will be evaluated on technical approach.

## 5. Past Performance

Each reference shall describe similar work.

## 6. Clauses

FAR 52.212-4 applies.
"""


def _doc(tmp_path: Path):
    path = tmp_path / "rfp.md"
    path.write_text(RFP, encoding="utf-8")
    doc = load_document(path)
    return doc, SectionKinds(doc), {s.heading: s for s in doc.sections}


def test_kinds_of_a_small_rfp(tmp_path):
    _, kinds, by = _doc(tmp_path)
    assert kinds.is_statement_of_work(by["Scope of Work"])
    assert kinds.is_work_unit(by["Scope of Work"])
    assert kinds.is_instructions(by["Instructions to Offerors"])
    assert kinds.is_administration(by["Instructions to Offerors"])
    assert kinds.is_evaluation(by["Evaluation Criteria"])
    assert kinds.is_evaluation_emphasis(by["Evaluation Criteria"])
    assert kinds.is_past_performance(by["Past Performance"])
    assert not kinds.is_past_performance(by["Scope of Work"])
    assert kinds.is_clauses(by["Clauses"])
    assert kinds.is_background(by["Background"])


def test_background_under_scope_is_statement_of_work_but_not_a_work_unit(tmp_path):
    # rule 2 (CONTEXT_UNDER_SCOPE): left out of the technical text, still gives domain weight
    _, kinds, by = _doc(tmp_path)
    assert kinds.is_statement_of_work(by["Background"])
    assert not kinds.is_work_unit(by["Background"])


def test_program_evaluation_is_work_and_also_section_m(tmp_path):
    # rule 3 (EVALUATION_WORD_IN_WORK_HEADING)
    _, kinds, by = _doc(tmp_path)
    section = by["Program Evaluation"]
    assert kinds.is_work_unit(section)
    assert kinds.is_evaluation_emphasis(section)
    assert kinds.is_evaluation(section)
    assert not kinds.is_statement_of_work(section)


def test_claims_pricing_is_a_work_unit_but_not_statement_of_work(tmp_path):
    # rule 4: NOT_STATEMENT_OF_WORK reads single words, NOT_WORK phrases and whole headings
    _, kinds, by = _doc(tmp_path)
    assert kinds.is_work_unit(by["Claims Pricing"])
    assert not kinds.is_statement_of_work(by["Claims Pricing"])


def test_as_of_is_the_file_date_when_the_rfp_states_no_issue_date(tmp_path):
    doc, _, _ = _doc(tmp_path)
    stamp = dt.datetime(2024, 3, 5, 12, 0).timestamp()
    os.utime(doc.path, (stamp, stamp))
    assert doc.issue_date is None
    assert as_of_for(doc) == (dt.date(2024, 3, 5), FILE_DATE_SOURCE)


def test_as_of_is_the_stated_issue_date(tmp_path):
    path = tmp_path / "dated.md"
    path.write_text("# RFP 123\n\nIssue Date: June 8, 2026\n\n## 1. Scope\n\nWork.\n")
    doc = load_document(path)
    assert as_of_for(doc) == (dt.date(2026, 6, 8), ISSUE_DATE_SOURCE)


def test_emphasis_weights_count_title_scope_and_section_m():
    # title 2.0 + 2 scope mentions x 0.5 + 1 Section M mention x 0.75 = 3.75 for payroll
    emphasized, weights = domain_emphasis("Payroll System", "payroll payroll", "payroll")
    assert EMPHASIS_WEIGHTS.title == 2.0
    assert emphasized == ["payroll"]
    assert weights == {"payroll": 1.0}
    assert domain_emphasis("Nothing here", "", "") == ([], {})
