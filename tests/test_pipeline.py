"""The whole graph for real RFP partitions, through Dagster, with the bundled model."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import dagster as dg
import duckdb
import pytest

from rfp_retrieval.retrieval.config import RankingConfig
from rfp_retrieval.settings import load_settings
from tests.conftest import REPO

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory, shared_data):
    """Library + two RFP partitions materialized once for the module."""
    root = tmp_path_factory.mktemp("project")
    inbox = root / "inbox"
    inbox.mkdir()
    shutil.copy(shared_data / "pp_golden_dev" / "S01.md", inbox / "S01.md")
    shutil.copy(shared_data / "pp_golden_dev" / "S09.md", inbox / "S09.md")
    (inbox / "broken.pdf").write_bytes(b"%PDF-1.4 truncated")
    answers = root / "answers"
    answers.mkdir()
    for block in sorted((REPO / "sample" / "answers" / "data-conversion").glob("*.md"))[:2]:
        (answers / block.name).write_text(block.read_text(encoding="utf-8"), encoding="utf-8")
    settings = load_settings(
        root,
        {
            "inbox_dir": str(inbox),
            "library_dir": str(REPO / "sample" / "library"),
            "answers_dir": str(answers),
            "db_path": str(root / "store.duckdb"),
            "output_dir": str(root / "out"),
        },
    )
    from definitions import build_definitions

    defs = build_definitions(settings)
    with dg.instance_for_test() as instance:
        library = defs.resolve_job_def("library_job").execute_in_process(instance=instance)
        keys = ["s01-md", "s09-md", "broken-pdf"]
        instance.add_dynamic_partitions("rfp_documents", keys)
        job = defs.resolve_job_def("rfp_job")
        results = {
            key: job.execute_in_process(instance=instance, partition_key=key, raise_on_error=False)
            for key in keys
        }
        yield settings, library, results, instance


def _rows(settings, sql, *params):
    con = duckdb.connect(str(settings.db_path), read_only=True)
    try:
        rel = con.execute(sql, list(params))
        cols = [d[0] for d in rel.description]
        return [dict(zip(cols, r, strict=True)) for r in rel.fetchall()]
    finally:
        con.close()


def test_library_job_stores_entries_rejected_rows_and_four_vectors_per_entry(pipeline):
    settings, library, _, _ = pipeline
    assert library.success
    counts = _rows(settings, "SELECT count(*) AS n FROM rfp.pp_entries")[0]["n"]
    assert counts == 180
    vectors = _rows(
        settings,
        "SELECT facet, count(*) AS n, min(dim) AS d, min(model) AS m "
        "FROM rfp.pp_facet_embeddings GROUP BY facet ORDER BY facet",
    )
    assert [(v["facet"], v["n"], v["d"], v["m"]) for v in vectors] == [
        (f, 180, 384, "all-MiniLM-L6-v2") for f in ("narrative", "outcome", "technical", "whole")
    ]
    superseded = _rows(settings, "SELECT id FROM rfp.pp_superseded_entries")
    assert [r["id"] for r in superseded] == ["PP-122"]


def test_library_checks_flag_known_defects_and_vague_outcomes(pipeline):
    _, library, _, _ = pipeline
    checks = {e.check_name: e for e in library.get_asset_check_evaluations()}
    suite = checks["pp_entries_quality_suite"]
    assert not suite.passed
    assert "PP-044" in suite.metadata["start before end"].value
    assert "PP-164" in suite.metadata["start before end"].value
    vague = checks["pp_entries_vague_outcomes"]
    assert "PP-001" in vague.metadata["vague_ids"].value
    assert checks["pp_facet_embeddings_match_model"].passed


def test_scope_query_reads_the_rfps_own_filters(pipeline):
    settings, _, results, _ = pipeline
    assert results["s01-md"].success
    row = _rows(settings, "SELECT * FROM rfp.scope_query WHERE rfp_partition = ?", "s01-md")[0]
    assert row["customer_types"] == ["federal-civilian"]
    assert (row["value_min"], row["value_max"]) == (10_000_000, 30_000_000)
    assert str(row["ended_after"]) == "2021-06-08"
    assert str(row["as_of"]) == "2026-06-08"
    assert len(row["vec_outcome"]) == 384
    # scope weighting (seed: ambiguous scopes) is visible in the UI, largest share first
    meta = results["s01-md"].asset_materializations_for_node("scope_query")[0].metadata
    assert meta["domain_weights"].value == {
        "data-analytics": 0.583,
        "cloud-migration": 0.333,
        "legacy-modernization": 0.083,
    }
    assert list(meta["domain_weights"].value) == [
        "data-analytics",
        "cloud-migration",
        "legacy-modernization",
    ]


def test_references_have_every_component_and_a_trace(pipeline):
    settings, _, results, _ = pipeline
    rows = _rows(
        settings,
        "SELECT * FROM rfp.pp_references WHERE rfp_partition = ? ORDER BY rank",
        "s01-md",
    )
    assert [r["rank"] for r in rows] == [1, 2, 3]
    added = (
        "weighted_whole",
        "weighted_outcome",
        "weighted_section_max",
        "domain_match",
        "lexical_match",
        "recency_bump",
        "age_penalty",
        "agency_bump",
        "sector_bump",
        "issuer_bump_cap",
        "vague_penalty",
        "value_penalty",
        "role_penalty",
        "industry_penalty",
    )
    for r in rows:
        assert r["mode"] == "default"
        assert r["ranking_config"] == RankingConfig().fingerprint()
        for component in ("whole", "outcome", "section_max", *added):
            assert r[component] is not None
        assert r["score"] == pytest.approx(sum(r[c] for c in added), abs=1e-5)
    trace = json.loads(rows[0]["filter_trace"])
    assert [t["filter"] for t in trace][:4] == ["library", "customer_type", "value", "recency"]
    assert trace[2]["soft_penalty"] == RankingConfig().penalty_value
    assert rows[0]["candidate_count"] == trace[-1]["remaining"]


def test_a_bad_file_fails_only_its_own_partition(pipeline):
    _, _, results, _ = pipeline
    assert results["s01-md"].success and results["s09-md"].success
    assert not results["broken-pdf"].success


# tests/test_bad_input_corpus.py runs `run --json` over good and bad files on every default run
@pytest.mark.extended
def test_cli_run_json_reports_each_file_and_never_stops_on_a_bad_one(tmp_path, shared_data):
    bad = tmp_path / "empty.pdf"
    bad.write_bytes(b"")
    env_db = tmp_path / "cli.duckdb"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "rfp_retrieval.cli",
            "run",
            "--json",
            "--db",
            str(env_db),
            "--project",
            str(REPO),
            str(shared_data / "pp_golden_dev" / "S35.md"),
            str(bad),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env={**__import__("os").environ, "DAGSTER_HOME": str(tmp_path / "home")},
    )
    assert proc.returncode == 1, proc.stderr[-2000:]  # one file failed; the other still ran
    payload = json.loads(proc.stdout)
    ok, failed = payload["rfps"]
    assert ok["status"] == "ok" and ok["partition"] == "s35-md"
    assert ok["scope_query"]["customer_types"] == ["local"]
    assert ok["scope_query"]["value_min"] == 2_000_000
    assert ok["scope_query"]["references_required"] == 3
    assert (ok["scope_query"]["require_prime"], ok["scope_query"]["industries"]) == (False, [])
    assert len(ok["references"]) == 3
    assert set(ok["references"][0]["components"]) >= {"whole", "outcome", "section_max"}
    assert failed["status"] == "failed" and "empty.pdf" in failed["error"]
