"""Issue 18, lead 1: a tool name the RFP shares with an entry shows the environment, not the
mission (``lexical.TOOL_NAME_RULE``).

A new user's federal task order for cloud data platforms, data pipelines and analytics names
its environment (AWS GovCloud, Terraform, Python, PostgreSQL, GitHub Actions). Every tool of an
HR talent-marketplace entry of the sample library is in that list, so with tool names counted
like any word its lexical match was the library's best, and a records-digitization entry on the
same cloud took the third pick from a data-ingestion platform.
"""

import datetime as dt
from pathlib import Path

import pytest

from rfp_retrieval.retrieval.config import RankingConfig
from rfp_retrieval.retrieval.lexical import split_tool_names, tool_name_pattern

REPO = Path(__file__).resolve().parents[1]

TRIAL_RFP = """# Cloud Data Platforms, Data Pipelines and Analytics Task Order

**Issuing Agency:** Department of the Interior, Office of the Chief Information Officer
**Issue Date:** September 14, 2026
**Type:** Task order request under a multiple-award IT services vehicle

## 1. Scope of Work

### 1.1 Cloud Data Platform
The contractor shall engineer and operate the department's cloud data platform in AWS \
GovCloud, using Terraform, Python and PostgreSQL, with GitHub Actions for continuous delivery.

### 1.2 Data Pipelines
Build and operate data pipelines that load program data into AWS GovCloud, with automated \
data quality checks and reconciliation against each source.

### 1.3 Analytics
Provide dashboards and analytics for program managers.

## 2. Past Performance

Provide three (3) references for federal government contracts performed within the last \
five (5) years.
"""


def test_tool_names_are_found_as_whole_names_longest_first():
    pattern = tool_name_pattern(["aws-govcloud", "aws", "github-actions", "r"], ["PostgreSQL"])
    topic, tools = split_tool_names(
        "Run pipelines in AWS GovCloud and AWS with GitHub Actions, PostgreSQL and R; "
        "drawing on prior experience.",
        pattern,
    )
    assert tools == "AWS GovCloud AWS GitHub Actions PostgreSQL"
    # a one-letter tag is never a name ("R" stays, as does the "r" inside words)
    assert topic.split() == [
        "Run", "pipelines", "in", "and", "with", ",", "and", "R;", "drawing", "on",
        "prior", "experience.",
    ]  # fmt: skip
    assert split_tool_names("no tools here", None) == ("no tools here", "")
    assert tool_name_pattern([], []) is None


@pytest.fixture(scope="module")
def trial(embedder, tmp_path_factory):
    from rfp_retrieval.documents.extract import load_document
    from rfp_retrieval.eval.past_performance import embed_library
    from rfp_retrieval.library.frames import entries_frame
    from rfp_retrieval.library.ingest import load_library
    from rfp_retrieval.retrieval.scope_query import build_scope_query
    from rfp_retrieval.scope import AsOf

    path = tmp_path_factory.mktemp("trial") / "cloud_data_task_order.md"
    path.write_text(TRIAL_RFP, encoding="utf-8")
    entries = entries_frame(load_library(REPO / "sample" / "library").entries)
    vectors = embed_library(entries, embedder)
    as_of = AsOf(dt.date(2026, 9, 14), "golden as_of")
    query = build_scope_query(load_document(path), embedder, as_of, "trial").query
    return entries, vectors, query


def _ranked(trial, config, depth=20):
    from rfp_retrieval.retrieval.past_performance import rank_references

    entries, vectors, query = trial
    return rank_references(entries, vectors, query, config, depth=depth).references


@pytest.mark.slow
def test_a_shared_tool_name_does_not_outrank_the_mission(trial):
    config = RankingConfig()
    assert config.lexical_tool_weight == 0.25
    refs = _ranked(trial, config)
    by_id = {r.id: r for r in refs}
    # the two data-pipeline platforms first, then the data-ingestion platform (was PP-064,
    # records digitization on AWS GovCloud, carried by its tool names)
    assert [r.id for r in refs[:3]] == ["PP-115", "PP-171", "PP-035"]
    # the HR talent marketplace (AWS GovCloud, Python, Terraform, PostgreSQL, GitHub Actions)
    # no longer has the library's best lexical match; the data-quality entry beats it
    lexical = {pp_id: r.components["lexical_match"] for pp_id, r in by_id.items()}
    assert lexical["PP-115"] == pytest.approx(config.lexical_weight)
    assert lexical["PP-045"] == pytest.approx(0.080, abs=1e-3)
    assert lexical["PP-112"] > lexical["PP-045"]
    # counted like any other word (the old rule), the tool names decide the lexical match
    old = {r.id: r for r in _ranked(trial, RankingConfig(lexical_tool_weight=1.0))}
    assert old["PP-045"].components["lexical_match"] == pytest.approx(config.lexical_weight)
    assert [r.id for r in list(old.values())[:3]] == ["PP-115", "PP-171", "PP-064"]
