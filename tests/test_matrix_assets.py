"""The ``rfp_questions`` and ``compliance_matrix`` assets for one partition, through Dagster."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import duckdb
import pytest
from dagster_duckdb_polars import DuckDBPolarsIOManager

from assets.questions import compliance_matrix, rfp_questions
from assets.rfp import rfp_document
from resources import ProjectPaths
from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.matrix import matrix_rows
from rfp_retrieval.documents.questions import find_questions

DATA = Path(__file__).parents[1] / ".." / "shared" / "data"
TREASURY = DATA / "rfps_synthetic" / "treasury-fiscal-service-dcdis-rfq-2032H5-26-Q-00117.md"


def test_questions_and_matrix_are_stored_in_duckdb_and_exported_per_partition(tmp_path: Path):
    if not TREASURY.is_file():
        pytest.skip(f"{TREASURY} is missing: read in place from ../shared/data")
    db = tmp_path / "store.duckdb"
    out = tmp_path / "out"
    key = "treasury-md"
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("rfp_documents", [key])
        result = dg.materialize(
            [rfp_document, rfp_questions, compliance_matrix],
            partition_key=key,
            instance=instance,
            resources={
                "io_manager": DuckDBPolarsIOManager(database=str(db), schema="rfp"),
                "paths": ProjectPaths(
                    library_dir=str(tmp_path),
                    answers_dir=str(tmp_path),
                    inbox_dir=str(tmp_path),
                    output_dir=str(out),
                ),
            },
            run_config={"ops": {"rfp_document": {"config": {"path": str(TREASURY)}}}},
        )
    assert result.success
    assert (out / key / "compliance_matrix.csv").is_file()
    assert (out / key / "compliance_matrix.xlsx").is_file()
    con = duckdb.connect(str(db), read_only=True)
    try:
        questions = con.execute(
            "SELECT id, label, kind, section_path FROM rfp.rfp_questions "
            "WHERE rfp_partition = ? ORDER BY id",
            [key],
        ).fetchall()
        matrix = con.execute(
            "SELECT count(*), count(DISTINCT id) FROM rfp.compliance_matrix "
            "WHERE rfp_partition = ?",
            [key],
        ).fetchone()
    finally:
        con.close()
    # the stored rows are what the core finds in the file itself (the document round-trips)
    direct = find_questions(load_document(TREASURY))
    assert [(q[0], q[1], q[2], list(q[3])) for q in questions] == [
        (q.id, q.label, q.kind, q.section_path) for q in direct
    ]
    # 31 asks (30 before 6.1's "Technical capability is more important than past performance",
    # an evaluation statement: ask_patterns.EVALUATED); the matrix adds a row for each of the
    # 8 list items of its compound prompts
    direct_rows = matrix_rows(load_document(TREASURY), direct)
    assert sum(len(q.parts) for q in direct) == 8
    assert len(questions) == 31 and matrix == (39, 39) == (len(direct_rows), len(direct_rows))
    q1 = next(q for q in questions if q[1] == "Question 1.")
    assert (q1[0], q1[2], q1[3][1:]) == (
        "q-004",
        "question",
        ["4. Technical Questionnaire", "4.1 Platform and API"],
    )
