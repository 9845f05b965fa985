"""The answer assets through Dagster: library, rewrite log and passages per RFP partition."""

from __future__ import annotations

import json
import shutil

import dagster as dg
import duckdb
import pytest

from rfp_retrieval.settings import load_settings
from tests.conftest import REPO

pytestmark = pytest.mark.slow

FRANKLIN = "franklin-dhhs-iecms-modernization-rfp.md"
QUESTIONNAIRE = "vendor-security-questionnaire.csv"


@pytest.fixture(scope="module")
def run(tmp_path_factory, shared_data, embedder):
    """Answer library + two RFP partitions (an RFP and a questionnaire), materialized once."""
    from assets import answers, questions, rfp
    from checks import answers as answer_checks
    from definitions import build_definitions

    root = tmp_path_factory.mktemp("answers-project")
    inbox = root / "inbox"
    inbox.mkdir()
    shutil.copy(shared_data / "rfps_synthetic" / FRANKLIN, inbox / "franklin.md")
    shutil.copy(shared_data / "questionnaires_synthetic" / QUESTIONNAIRE, inbox / "vsq.csv")
    settings = load_settings(
        root,
        {
            "inbox_dir": str(inbox),
            "library_dir": str(REPO / "sample" / "library"),
            "answers_dir": str(REPO / "sample" / "answers"),
            "db_path": str(root / "store.duckdb"),
            "output_dir": str(root / "out"),
        },
    )
    resources = build_definitions(settings).resources
    library = [answers.answer_blocks, answers.answer_block_embeddings]
    per_rfp = [
        rfp.rfp_document,
        questions.rfp_questions,
        answers.rewritten_questions,
        answers.question_answers,
    ]
    checks = list(dg.load_asset_checks_from_modules([answer_checks]))
    with dg.instance_for_test() as instance:
        first = dg.materialize([*library, *checks], resources=resources, instance=instance)
        second = dg.materialize(
            library,
            resources=resources,
            instance=instance,
            selection=[answers.answer_block_embeddings],
        )
        instance.add_dynamic_partitions("rfp_documents", ["franklin-md", "vsq-csv"])
        partitions = {}
        for key, name in (("franklin-md", "franklin.md"), ("vsq-csv", "vsq.csv")):
            partitions[key] = dg.materialize(
                [*library, *per_rfp, *checks],
                resources=resources,
                instance=instance,
                partition_key=key,
                selection=[*per_rfp, *[c for c in checks if "question" in c.node_def.name]],
                run_config={"ops": {"rfp_document": {"config": {"path": str(inbox / name)}}}},
            )
        yield settings, first, second, partitions


def _rows(settings, sql, *params):
    con = duckdb.connect(str(settings.db_path), read_only=True)
    try:
        rel = con.execute(sql, list(params))
        cols = [d[0] for d in rel.description]
        return [dict(zip(cols, r, strict=True)) for r in rel.fetchall()]
    finally:
        con.close()


def _metadata(result, asset: str) -> dict:
    for event in result.get_asset_materialization_events():
        if event.materialization.asset_key.to_user_string() == asset:
            return {k: v.value for k, v in event.materialization.metadata.items()}
    raise AssertionError(f"{asset} was not materialized")


def test_library_stores_every_block_and_one_vector_each(run):
    settings, first, _, _ = run
    assert first.success
    counts = _rows(settings, "SELECT count(*) AS n, sum(usable::INT) AS u FROM rfp.answer_blocks")
    assert (counts[0]["n"], counts[0]["u"]) == (164, 164)
    vectors = _rows(
        settings,
        "SELECT count(*) AS n, min(dim) AS d, min(model) AS m FROM rfp.answer_block_embeddings",
    )
    assert (vectors[0]["n"], vectors[0]["d"], vectors[0]["m"]) == (164, 384, "all-MiniLM-L6-v2")


def test_second_embedding_run_reuses_every_vector(run):
    _, _, second, _ = run
    meta = _metadata(second, "answer_block_embeddings")
    assert (meta["embedded"], meta["reused"]) == (0, 164)


def test_library_checks_name_the_stale_blocks(run):
    _, first, _, _ = run
    checks = {c.check_name: c for c in first.get_asset_check_evaluations()}
    assert checks["answer_blocks_unique_ids"].passed
    assert checks["answer_blocks_have_bodies"].passed
    assert checks["answer_blocks_readable"].passed
    assert checks["answer_block_embeddings_match_model"].passed
    reviewed = checks["answer_blocks_reviewed"]
    assert reviewed.severity == dg.AssetCheckSeverity.WARN
    if not reviewed.passed:  # depends on today's date: every block is past 2027-10-19's review
        assert reviewed.metadata["stale_blocks"].value.startswith("AB-146 2022-06-21")


def test_rewrite_log_is_stored_per_question_and_in_metadata(run):
    settings, _, _, partitions = run
    assert partitions["franklin-md"].success
    row = _rows(
        settings,
        "SELECT * FROM rfp.rewritten_questions WHERE rfp_partition = ? AND label = ?",
        "franklin-md",
        "3.4.7",
    )[0]
    assert row["skipped"] is False
    assert row["rewriter"] == "offline"
    assert row["rewrite"].startswith("Describe your approach to Data Migration (")
    assert [q["role"] for q in json.loads(row["queries"])] == [
        "original",
        "rewrite",
        "paraphrase_1",
        "paraphrase_2",
        "paraphrase_3",
    ]
    assert row["steps"][0] == (
        "1 specificity 0.00 (rewrite); no domain noun phrase; short: 0 topical word(s)"
    )
    assert json.loads(row["context"])["heading"] == "Data Migration"
    meta = _metadata(partitions["franklin-md"], "rewritten_questions")
    assert meta["rewriter"] == "offline"
    assert meta["cost_usd"] == 0.0
    assert "3.4.7" in meta["rewrite_log"]


def test_passages_keep_their_rank_under_every_query(run):
    settings, _, _, partitions = run
    rows = _rows(
        settings,
        "SELECT * FROM rfp.question_answers WHERE rfp_partition = ? AND label = ? ORDER BY rank",
        "franklin-md",
        "3.4.7",
    )
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5]
    assert rows[0]["block_id"] == "AB-001"
    assert set(json.loads(rows[0]["query_ranks"])) == {
        "original",
        "rewrite",
        "paraphrase_1",
        "paraphrase_2",
        "paraphrase_3",
    }
    meta = _metadata(partitions["franklin-md"], "question_answers")
    assert "| rank | block | title | per-query ranks |" in meta["top_passages"]


def test_questionnaire_rows_take_their_domain_as_topic(run):
    settings, _, _, partitions = run
    assert partitions["vsq-csv"].success
    row = _rows(
        settings,
        "SELECT rewrite FROM rfp.rewritten_questions WHERE rfp_partition = ? AND label = ?",
        "vsq-csv",
        "KM-02",
    )[0]
    assert row["rewrite"] == "How often are key management rotated?"
    top = _rows(
        settings,
        "SELECT block_id FROM rfp.question_answers WHERE rfp_partition = ? AND label = ? "
        "AND rank = 1",
        "vsq-csv",
        "KM-02",
    )[0]
    assert top["block_id"] == "AB-059"


def test_rewriter_resource_is_offline_without_a_key_and_never_shows_one(monkeypatch):
    from resources.rewriter import QuestionRewriter

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert QuestionRewriter().describe() == "offline"
    with pytest.raises(dg.Failure, match="needs an API key: set ANTHROPIC_API_KEY"):
        QuestionRewriter(mode="anthropic").get()
    keyed = QuestionRewriter(
        mode="anthropic", api_key="sk-never-shown", base_url="http://127.0.0.1:9"
    )
    assert keyed.describe() == "claude-haiku-4-5"
    assert "sk-never-shown" not in repr(keyed.get())


def test_missing_answer_folder_does_not_fail_the_library_job(tmp_path):
    from assets import answers
    from checks import answers as answer_checks
    from definitions import build_definitions

    settings = load_settings(
        tmp_path,
        {"answers_dir": str(tmp_path / "no-answers"), "db_path": str(tmp_path / "s.duckdb")},
    )
    checks = list(dg.load_asset_checks_from_modules([answer_checks]))
    with dg.instance_for_test() as instance:
        result = dg.materialize(
            [answers.answer_blocks, answers.answer_block_embeddings, *checks],
            resources=build_definitions(settings).resources,
            instance=instance,
        )
    assert result.success
    evaluations = {c.check_name: c for c in result.get_asset_check_evaluations()}
    readable = evaluations["answer_blocks_readable"]
    assert readable.passed is False
    assert readable.metadata["unreadable_files"].value == (
        f"{tmp_path / 'no-answers'}: unreadable: answer library folder "
        f"{tmp_path / 'no-answers'} does not exist; create it or set answers_dir"
    )
    assert evaluations["answer_block_embeddings_match_model"].passed
    assert _metadata(result, "answer_blocks")["usable"] == 0


def test_empty_index_marks_every_question_needs_sme():
    import numpy as np

    from rfp_retrieval.retrieval.answers import NEEDS_SME, AnswerIndex
    from rfp_retrieval.rewrite.records import Query

    index = AnswerIndex([], [], [], np.zeros((0, 0)))
    result = index.search([Query("original", "Describe your approach.", 1.0)], np.ones((1, 4)))
    assert (result.passages, result.status) == ([], NEEDS_SME)
