"""Writer overrides, their golden-set export and the vague-outcome review (no model involved)."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace
from types import SimpleNamespace

import dagster as dg
import numpy as np
import polars as pl
import pytest

from assets.retrieval import pp_reference_review, pp_references
from resources import EmbeddingModel, ProjectPaths
from rfp_retrieval.library.frames import ENTRY_SCHEMA
from rfp_retrieval.retrieval.config import RankingConfig
from rfp_retrieval.retrieval.overrides import (
    OverrideError,
    apply_overrides,
    load_overrides,
    override_golden_lines,
    override_problem,
    ranker_picks,
    vague_outcome_review,
)
from rfp_retrieval.retrieval.past_performance import rank_references
from rfp_retrieval.retrieval.prepared import PreparedLibrary
from rfp_retrieval.retrieval.records import EntryVectors, ScopeFilters, ScopeQuery
from rfp_retrieval.retrieval.references import references_frame
from rfp_retrieval.retrieval.scope_query import scope_query_frame

AS_OF = dt.date(2026, 6, 8)
# Facet cosine of each entry with the query (the same on every facet, so facet score = cosine).
SIMS = {"PP-1": 0.9, "PP-2": 0.8, "PP-3": 0.7, "PP-4": 0.6, "PP-5": 0.5}
KNOWN = set(SIMS)
FACET = RankingConfig(mode="facet")
OVERRIDE_YAML = """\
overrides:
  - replace: PP-2
    with: PP-5
    by: Dana Writer
    at: 2026-06-10
    reason: The CO asked for the commercial claims work.
"""


def _entries() -> pl.DataFrame:
    rows = []
    for pp_id in SIMS:
        rows.append(
            {
                "id": pp_id,
                "title": f"Title {pp_id}",
                "role": "prime",
                "customer_type": "commercial" if pp_id == "PP-5" else "federal-civilian",
                "value_min": 12_000_000,
                "value_max": 12_000_000,
                "start_date": dt.date(2021, 1, 1),
                "ongoing": True,
                "vehicle_type": "standalone",
                "outcome_metrics": ["Improved service"] if pp_id in ("PP-2", "PP-3") else [],
                "outcome_narrative": f"Outcome of {pp_id}.",
                "outcome_vague": pp_id in ("PP-2", "PP-3"),
                "source": "past_performance_matrix.csv",
                "source_row": int(pp_id[-1]) + 1,
                "updated_by": "jdoe",
            }
        )
    return pl.DataFrame(rows, schema=ENTRY_SCHEMA)


def _vectors() -> EntryVectors:
    ids = sorted(SIMS)
    matrix = np.asarray([[SIMS[i], np.sqrt(1 - SIMS[i] ** 2)] for i in ids], dtype=np.float32)
    return EntryVectors(
        ids=ids, matrices={f: matrix for f in ("narrative", "technical", "outcome", "whole")}
    )


def _scope() -> ScopeQuery:
    e0 = np.array([1.0, 0.0], dtype=np.float32)
    filters = ScopeFilters(customer_types=("federal-civilian",))
    vectors = {f: e0 for f in ("narrative", "technical", "outcome", "whole")}
    return ScopeQuery(filters, AS_OF, vectors)


def _ranked(overrides):
    entries, vectors, scope = _entries(), _vectors(), _scope()
    result = rank_references(entries, vectors, scope, FACET)
    frame = references_frame("rfp-a", result)
    return apply_overrides(frame, overrides, result, entries, vectors, scope, FACET)


def test_override_wins_and_keeps_the_replaced_pick_flagged(tmp_path):
    path = tmp_path / "rfp-a.yaml"
    path.write_text(OVERRIDE_YAML, encoding="utf-8")
    frame = _ranked(load_overrides(path, KNOWN))
    assert frame["id"].to_list() == ["PP-1", "PP-5", "PP-3", "PP-2"]
    assert frame["rank"].to_list() == [1, 2, 3, None]
    assert frame["overridden_by"].to_list() == [None, None, None, "PP-5"]
    new = frame.row(1, named=True)
    assert (new["override_by"], new["override_at"]) == ("Dana Writer", "2026-06-10")
    assert new["override_reason"] == "The CO asked for the commercial claims work."
    # Components computed like any other candidate; the missed filter is labelled.
    assert new["score"] == pytest.approx(0.5, abs=1e-6)
    # these entries state no technical text: its weight is shared out (issue 18 defect 6)
    assert new["weighted_outcome"] == pytest.approx(0.5 * 0.5 / 0.7, abs=1e-6)
    assert new["relaxed"] == ["customer_type"]
    assert new["candidate_count"] == 4
    replaced = frame.row(3, named=True)
    assert replaced["score"] == pytest.approx(0.8, abs=1e-6)
    assert replaced["override_by"] is None


def test_no_override_file_only_adds_empty_columns(tmp_path):
    frame = _ranked(load_overrides(tmp_path / "missing.yaml", KNOWN))
    assert frame["id"].to_list() == ["PP-1", "PP-2", "PP-3"]
    assert frame["overridden_by"].null_count() == 3


def test_override_becomes_a_golden_set_line(tmp_path):
    path = tmp_path / "overrides" / "rfp-a.yaml"
    path.parent.mkdir()
    path.write_text(OVERRIDE_YAML, encoding="utf-8")
    frame = _ranked(load_overrides(path, KNOWN))
    other = _ranked([])  # a partition without overrides exports nothing
    frame = pl.concat([frame, other.with_columns(pl.lit("rfp-b").alias("rfp_partition"))])
    lines = override_golden_lines(
        frame,
        {"rfp-a": AS_OF, "rfp-b": AS_OF},
        {"rfp-a": tmp_path / "inbox" / "rfp-a.md", "rfp-b": tmp_path / "inbox" / "rfp-b.md"},
        tmp_path / "out" / "golden" / "overrides.jsonl",
    )
    assert [json.loads(line) for line in lines] == [
        {
            "scope_id": "rfp-a",
            "rfp_file": "../../inbox/rfp-a.md",
            "as_of": "2026-06-08",
            "ideal": ["PP-1", "PP-5", "PP-3"],
            "why": {
                "PP-5": "The CO asked for the commercial claims work. "
                "(override by Dana Writer, 2026-06-10)"
            },
        }
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("overrides:\n  - replace: PP-2\n    with: [unclosed\n", "not valid YAML"),
        (OVERRIDE_YAML.replace("with: PP-5", "with: PP-999"), "names PP-999, which the library"),
        (OVERRIDE_YAML.replace("    by: Dana Writer\n", ""), "override 1 lacks by"),
        (OVERRIDE_YAML.replace("2026-06-10", "next week"), "'at' must be a date"),
    ],
)
def test_bad_override_file_error_names_the_file(tmp_path, text, message):
    path = tmp_path / "rfp-a.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(OverrideError) as error:
        load_overrides(path, KNOWN)
    assert str(error.value).startswith(f"{path}: ")
    assert message in str(error.value)


def test_every_faulty_override_of_a_file_is_named_not_only_the_first(tmp_path):
    path = tmp_path / "rfp-a.yaml"
    second = (
        "  - replace: PP-3\n    with: PP-998\n    by: Dana Writer\n    at: soon\n"
        "    reason: A second fault.\n"
    )
    third = "  - replace: PP-1\n    with: PP-4\n    at: 2026-06-11\n    reason: No author.\n"
    path.write_text(
        OVERRIDE_YAML.replace("with: PP-5", "with: PP-999") + second + third, encoding="utf-8"
    )
    with pytest.raises(OverrideError) as error:
        load_overrides(path, KNOWN)
    lines = str(error.value).splitlines()
    assert lines[0] == f"{path}: 3 overrides need fixing:"
    assert lines[1].startswith("  - override 1 names PP-999, which the library does not hold")
    assert lines[2].startswith("  - override 2 names PP-998, which the library does not hold")
    assert lines[3].startswith("  - override 3 lacks by;")
    assert len(lines) == 4


def test_replacing_an_id_that_was_not_chosen_is_an_error(tmp_path):
    path = tmp_path / "rfp-a.yaml"
    path.write_text(OVERRIDE_YAML.replace("replace: PP-2", "replace: PP-4"), encoding="utf-8")
    with pytest.raises(
        OverrideError,
        match=r"PP-4 is not among the references chosen for rfp-a "
        r"\(PP-1, PP-2, PP-3\)",
    ):
        _ranked(load_overrides(path, KNOWN))


def test_review_lists_cited_picks_with_vague_outcomes(tmp_path):
    path = tmp_path / "rfp-a.yaml"
    path.write_text(OVERRIDE_YAML, encoding="utf-8")
    review = vague_outcome_review(_ranked(load_overrides(path, KNOWN)), _entries())
    # PP-2 is vague too, but the writer replaced it, so it is no longer cited.
    assert review.to_dicts() == [
        {
            "rfp_partition": "rfp-a",
            "rank": 3,
            "id": "PP-3",
            "title": "Title PP-3",
            "outcome_metrics": "Improved service",
            "outcome_narrative": "Outcome of PP-3.",
            "source": "past_performance_matrix.csv",
            "source_row": 4,
            "updated_by": "jdoe",
        }
    ]


def _scope_query_frame() -> pl.DataFrame:
    reading = SimpleNamespace(customer_types_required=["federal-civilian"])
    texts = {f: "scope" for f in ("narrative", "technical", "outcome", "whole")}
    vectors = np.tile(np.array([1.0, 0.0], dtype=np.float32), (4, 1))
    return scope_query_frame("rfp-a", "RFP A", reading, texts, vectors, "toy", AS_OF, "test")


def _facet_frame() -> pl.DataFrame:
    vectors = _vectors()
    rows = [
        {"id": pp_id, "facet": facet, "model": "toy", "vector": vectors.matrices[facet][i].tolist()}
        for facet in vectors.matrices
        for i, pp_id in enumerate(vectors.ids)
    ]
    return pl.DataFrame(rows)


def test_assets_apply_the_override_file_and_list_the_vague_pick(tmp_path):
    overrides = tmp_path / "overrides"
    overrides.mkdir()
    (overrides / "rfp-a.yaml").write_text(OVERRIDE_YAML, encoding="utf-8")
    paths = ProjectPaths(
        library_dir=str(tmp_path),
        answers_dir=str(tmp_path),
        inbox_dir=str(tmp_path),
        output_dir=str(tmp_path),
        ranking_mode="facet",
        overrides_dir=str(overrides),
    )
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("rfp_documents", ["rfp-a"])
        context = dg.build_asset_context(partition_key="rfp-a", instance=instance)
        output = pp_references(
            context,
            scope_query=_scope_query_frame(),
            pp_entries=_entries(),
            pp_facet_embeddings=_facet_frame(),
            pp_rejected_entries=REJECTED_ROWS.clear(),
            paths=paths,
            embedding_model=EmbeddingModel(model="toy"),  # the vectors' model: never loaded
        )
    assert output.value["id"].to_list() == ["PP-1", "PP-5", "PP-3", "PP-2"]
    assert output.metadata["overrides"].value == 1
    review = pp_reference_review(pp_references=output.value, pp_entries=_entries())
    assert review.value["id"].to_list() == ["PP-3"]
    assert review.metadata["vague_references"].value == 1
    assert "| 3 | PP-3 | Title PP-3 | Improved service | Outcome of PP-3. |" in (
        review.metadata["review"].value
    )


REJECTED_ROWS = pl.DataFrame(
    {
        "file": ["past_performance_matrix.csv"],
        "row": [152],
        "reason": ["no title: give the entry a title"],
        "raw": [json.dumps({"ID": "PP-951", "Client": "Somewhere"})],
    }
)


def _references_with_override_file(tmp_path, text: str, rejected: pl.DataFrame | None = None):
    (tmp_path / "rfp-a.yaml").write_text(text, encoding="utf-8")
    paths = ProjectPaths(
        library_dir=str(tmp_path),
        answers_dir=str(tmp_path),
        inbox_dir=str(tmp_path),
        output_dir=str(tmp_path),
        ranking_mode="facet",
        overrides_dir=str(tmp_path),
    )
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("rfp_documents", ["rfp-a"])
        context = dg.build_asset_context(partition_key="rfp-a", instance=instance)
        return pp_references(
            context,
            scope_query=_scope_query_frame(),
            pp_entries=_entries(),
            pp_facet_embeddings=_facet_frame(),
            pp_rejected_entries=REJECTED_ROWS.clear() if rejected is None else rejected,
            paths=paths,
            embedding_model=EmbeddingModel(model="toy"),  # the vectors' model: never loaded
        )


def test_a_bad_override_file_keeps_the_ranker_picks_and_says_why(tmp_path):
    """break-it: a bad override file no longer fails the RFP's references and brief."""
    output = _references_with_override_file(tmp_path, "overrides: [")
    assert output.value["id"].to_list() == ["PP-1", "PP-2", "PP-3"]
    assert output.metadata["overrides"].value == 0
    assert output.metadata["overrides_not_applied"].value.startswith(
        f"{tmp_path / 'rfp-a.yaml'}: not valid YAML"
    )


def test_an_unknown_id_in_an_override_is_named_and_the_picks_stay(tmp_path):
    text = OVERRIDE_YAML.replace("with: PP-5", "with: PP-175")
    output = _references_with_override_file(tmp_path, text)
    assert output.value["id"].to_list() == ["PP-1", "PP-2", "PP-3"]
    assert output.metadata["overrides_not_applied"].value == (
        f"{tmp_path / 'rfp-a.yaml'}: override 1 names PP-175, which the library does not "
        "hold (no library id is close to it); `rfp-retrieval library` lists every "
        "id; the references are the ranker's "
        "picks without the file's overrides"
    )
    problem = override_problem(tmp_path / "rfp-a.yaml", KNOWN, ["PP-1", "PP-2", "PP-3"], "rfp-a")
    assert problem == (
        f"{tmp_path / 'rfp-a.yaml'}: override 1 names PP-175, which the library does not "
        "hold (no library id is close to it); `rfp-retrieval library` lists every "
        "id"
    )


def test_the_references_metadata_names_a_rejected_library_row_not_not_held(tmp_path):
    """issue 15: ``pp_references`` said "which the library does not hold" for an override to
    a library row the library had rejected; it now names the row and why."""
    text = OVERRIDE_YAML.replace("with: PP-5", "with: PP-951")
    output = _references_with_override_file(tmp_path, text, REJECTED_ROWS)
    assert output.value["id"].to_list() == ["PP-1", "PP-2", "PP-3"]
    assert output.metadata["overrides_not_applied"].value == (
        f"{tmp_path / 'rfp-a.yaml'}: override 1 names PP-951, rejected: "
        "past_performance_matrix.csv row 152: no title: give the entry a title; fix the "
        "library row (or pick another entry) and re-run; the references are the ranker's "
        "picks without the file's overrides"
    )


@pytest.mark.parametrize(
    ("typed", "known", "closest"),
    [
        # one typing mistake away, ranked by mistakes then by the nearest number
        (
            "PP-175",
            {"PP-1", "PP-5", "PP-17", "PP-15", "PP-157", "PP-185", "PP-2"},
            ["PP-185", "PP-157", "PP-17"],
        ),
        ("PP-715", {"PP-175", "PP-71", "PP-7150", "PP-1"}, ["PP-175", "PP-71", "PP-7150"]),
        ("pp 12", {"PP-13", "PP-11", "PP-21"}, ["PP-11", "PP-13", "PP-21"]),
        # a shared prefix is not closeness
        ("PP-175", {"PP-1", "PP-2", "PP-3", "PP-4", "PP-5"}, []),
    ],
)
def test_closest_ids_rank_typing_mistakes_not_shared_prefixes(typed, known, closest):
    from rfp_retrieval.retrieval.overrides import closest_ids

    assert closest_ids(typed, known) == closest


def test_ids_in_an_override_are_matched_as_the_library_matches_them(tmp_path):
    """break-it: ``replace: pp-2`` (lower case, as typed from a printout) failed the RFP."""
    text = OVERRIDE_YAML.replace("replace: PP-2", "replace: pp-2").replace(
        "with: PP-5", "with: pp 5"
    )
    (tmp_path / "rfp-a.yaml").write_text(text, encoding="utf-8")
    loaded = load_overrides(tmp_path / "rfp-a.yaml", KNOWN)
    assert [(o.replace_id, o.with_id) for o in loaded] == [("PP-2", "PP-5")]
    output = _references_with_override_file(tmp_path, text)
    assert output.value["id"].to_list() == ["PP-1", "PP-5", "PP-3", "PP-2"]
    assert "overrides_not_applied" not in output.metadata
    assert ranker_picks(output.value) == ["PP-1", "PP-3", "PP-2"]
    picks = ranker_picks(output.value)
    assert override_problem(tmp_path / "rfp-a.yaml", KNOWN, picks, "rfp-a") is None


def test_override_golden_lines_asset_reads_the_store_and_writes_jsonl(tmp_path):
    import duckdb

    from assets.evaluation import override_golden_lines as golden_asset
    from resources.partition_store import DuckDBPartitionStore

    path = tmp_path / "rfp-a.yaml"
    path.write_text(OVERRIDE_YAML, encoding="utf-8")
    references = _ranked(load_overrides(path, KNOWN))
    scope = _scope_query_frame()
    document = pl.DataFrame({"rfp_partition": ["rfp-a"], "file": [str(tmp_path / "inbox/a.md")]})
    store = tmp_path / "store.duckdb"
    con = duckdb.connect(str(store))
    con.execute("CREATE SCHEMA rfp")
    for name, frame in (("pp_references", references), ("scope_query", scope)):
        con.register("frame", frame.to_arrow())
        con.execute(f"CREATE TABLE rfp.{name} AS SELECT * FROM frame")
        con.unregister("frame")
    con.register("frame", document.to_arrow())
    con.execute("CREATE TABLE rfp.rfp_document AS SELECT * FROM frame")
    con.close()
    paths = ProjectPaths(
        library_dir=str(tmp_path),
        answers_dir=str(tmp_path),
        inbox_dir=str(tmp_path),
        output_dir=str(tmp_path / "out"),
    )
    output = golden_asset(duckdb=DuckDBPartitionStore(database=str(store)), paths=paths)
    written = (tmp_path / "out" / "golden" / "overrides.jsonl").read_text(encoding="utf-8")
    assert output.value["scope_id"].to_list() == ["rfp-a"]
    assert json.loads(written) == {
        "scope_id": "rfp-a",
        "rfp_file": "../../inbox/a.md",
        "as_of": "2026-06-08",
        "ideal": ["PP-1", "PP-5", "PP-3"],
        "why": {
            "PP-5": "The CO asked for the commercial claims work. "
            "(override by Dana Writer, 2026-06-10)"
        },
    }


class _Store:
    def __init__(self, references: pl.DataFrame):
        self.references = references

    def read_table(self, table, columns=None):
        return _entries().select(columns) if table == "pp_entries" else None

    def read_partition(self, table, key):
        return self.references if table == "pp_references" and key == "rfp-a" else None


def test_the_run_output_lists_an_override_file_that_was_not_applied(tmp_path):
    from rfp_retrieval.cli.run import override_problems

    path = tmp_path / "rfp-a.yaml"
    path.write_text(OVERRIDE_YAML.replace("with: PP-5", "with: PP-175"), encoding="utf-8")
    outcomes = [{"status": "ok", "partition": "rfp-a"}, {"status": "ok", "partition": "rfp-b"}]
    found = override_problems(_Store(_ranked([])), tmp_path, outcomes)
    assert found == [
        {
            "file": str(path),
            "reason": "override 1 names PP-175, which the library does not hold (no library "
            "id is close to it); `rfp-retrieval library` lists every id; the "
            "references are the ranker's picks without "
            "the file's overrides",
        }
    ]
    path.write_text(OVERRIDE_YAML, encoding="utf-8")
    applied = _ranked(load_overrides(path, KNOWN))
    assert override_problems(_Store(applied), tmp_path, outcomes) == []


def test_an_unknown_id_far_from_every_library_id_gets_no_guess(tmp_path):
    """The hint names only library ids one typing mistake from what was typed, and says
    so when there is none."""
    path = tmp_path / "rfp-a.yaml"
    path.write_text(OVERRIDE_YAML.replace("with: PP-5", "with: Contract-Q"), encoding="utf-8")
    problem = override_problem(path, KNOWN, ["PP-1", "PP-2", "PP-3"], "rfp-a")
    assert problem == (
        f"{path}: override 1 names Contract-Q, which the library does not hold (no library id "
        "is close to it); `rfp-retrieval library` lists every id"
    )


def test_the_override_file_of_an_rfp_that_did_not_run_to_the_end_is_listed(tmp_path):
    """Break-it: the override file of an RFP whose run failed was not listed under "Override
    files not applied" (nothing was applied)."""
    from rfp_retrieval.cli.run import override_problems

    path = tmp_path / "rfp-a.yaml"
    path.write_text(OVERRIDE_YAML, encoding="utf-8")
    outcomes = [
        {"status": "failed", "partition": "rfp-a", "file": "/inbox/a.md"},
        {"status": "failed", "partition": "rfp-b", "file": "/inbox/b.md"},  # no override file
    ]
    assert override_problems(_Store(_ranked([])), tmp_path, outcomes) == [
        {
            "file": str(path),
            "reason": "the RFP a.md did not run to the end (failed); it is applied when the "
            "RFP next runs",
        }
    ]


def test_a_runner_up_brought_in_by_an_override_keeps_its_runner_up_score_and_components():
    """New-user trial: a runner-up at 0.451 showed 0.508 once a writer picked it, because the
    lexical match (BM25 over the library, divided by its best entry) was computed with the
    entry alone, so it was its own best. Scored in its library, it keeps its score."""
    from rfp_retrieval.retrieval.overrides import score_entry

    words = {
        "PP-1": "claims adjudication workflow modernization",
        "PP-2": "claims intake portal",
        "PP-3": "payroll system",
        "PP-4": "claims appeals tracking",
        "PP-5": "grants portal",
    }
    entries = _entries().with_columns(
        pl.col("id").replace_strict(words).alias("narrative"),
        pl.lit("federal-civilian").alias("customer_type"),
    )
    vectors = _vectors()
    scope = replace(_scope(), text="Modernize the claims adjudication and appeals workflow")
    config = RankingConfig(mode="default", top_k=3)
    ranked = rank_references(entries, vectors, scope, config, depth=5).references
    runner_up = next(r for r in ranked if r.id == "PP-4")
    assert [r.id for r in ranked].index("PP-4") >= 3  # not a pick: a runner-up
    assert runner_up.components["lexical_match"] < 1.0
    alone = score_entry(entries, vectors, scope, config, "PP-4")
    assert alone.components == pytest.approx(runner_up.components, abs=1e-9)
    assert alone.score == pytest.approx(runner_up.score, abs=1e-9)
    assert alone.relaxed == []
    prepared = PreparedLibrary(entries, vectors)  # the ranking's own prepared library
    try:
        again = score_entry(entries, vectors, scope, config, "PP-4", prepared)
    finally:
        prepared.close()
    assert again.score == pytest.approx(runner_up.score, abs=1e-9)


def test_a_broken_override_file_of_an_rfp_that_did_not_run_is_not_promised_to_apply(tmp_path):
    """Break-it: after a Ctrl-C, an override file naming an id the library does not hold was
    reported as "it is applied when the RFP next runs"."""
    from rfp_retrieval.cli.run import override_problems

    path = tmp_path / "rfp-a.yaml"
    path.write_text(OVERRIDE_YAML.replace("with: PP-5", "with: PP-175"), encoding="utf-8")
    outcomes = [{"status": "interrupted", "partition": "rfp-a", "file": "/inbox/a.md"}]
    [found] = override_problems(_Store(_ranked([])), tmp_path, outcomes)
    assert found["reason"].startswith(
        "the RFP a.md did not run to the end (interrupted), and this file would not apply "
        "when it runs: override 1 names PP-175, which the library does not hold"
    )
