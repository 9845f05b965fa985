"""Report assets per RFP partition: the response brief a proposal writer opens in a browser."""

import json

import dagster as dg
import polars as pl

from assets.partitions import each_partition, rfp_asset
from assets.rfp import source_of_inputs
from resources import ProjectPaths
from resources.partition_store import DuckDBPartitionStore
from rfp_retrieval.documents.tables import document_from_frames
from rfp_retrieval.library.quality import vague_outcome_ids
from rfp_retrieval.lineage import SOURCE_SHA, with_source
from rfp_retrieval.report.brief import (
    brief_html,
    brief_markdown,
    cover_lines,
    notes_by_reference,
    notes_record,
    question_views,
    reference_facts,
)
from rfp_retrieval.report.reasons import relevance_criteria, rfp_scope_sections
from rfp_retrieval.retrieval.overrides import (
    NOT_APPLIED,
    override_path,
    override_problem,
    ranker_picks,
    rejected_id_reasons,
)

# Answer-pipeline tables read when they exist (the brief still renders without them).
QUESTION_TABLES = ("rewritten_questions", "question_answers")


def _rfp_context(duckdb: DuckDBPartitionStore, key: str) -> tuple[dict, dict | None]:
    """The RFP's relevance-criteria sentences and scope units, and its ``document`` facts for
    the brief (outline headings, OCR'd and empty pages; ``brief.document_warnings``), read
    from its stored document (``({"relevance": [], "sections": None}, None)`` when the
    document tables are not stored)."""
    document = duckdb.read_partition("rfp_document", key)
    outline = duckdb.read_partition("rfp_outline", key)
    if document is None or outline is None or document.height != 1:
        return {"relevance": [], "sections": None}, None
    doc = document_from_frames(document, outline)
    facts = {
        "headings": [s.heading for s in doc.sections if s.heading][:60],
        "cover": cover_lines(doc.text or ""),
        "ocr_pages": doc.ocr_pages,
        "pages_without_text": list(doc.pages_without_text),
    }
    context = {"relevance": relevance_criteria(doc), "sections": rfp_scope_sections(doc)}
    return context, facts


def _override_problem(duckdb: DuckDBPartitionStore, paths: ProjectPaths, key, pp_references):
    """Why this RFP's override file was not applied (``overrides.override_problem``, with
    the library's rejected rows named), None when it applied or there is none."""
    path = override_path(paths.overrides_dir, key)
    if not path.is_file():
        return None
    entries = duckdb.read_table("pp_entries", ["id"])
    known = set(entries["id"].to_list()) if entries is not None else set()
    rejected = rejected_id_reasons(duckdb.read_table("pp_rejected_entries"))
    problem = override_problem(path, known, ranker_picks(pp_references), key, rejected)
    return f"{problem}; {NOT_APPLIED}" if problem else None


@rfp_asset(
    "report",
    kinds={"duckdb", "polars", "html"},
    deps=[dg.AssetKey(t) for t in QUESTION_TABLES],
    description=(
        "The response brief for this RFP, written as brief.html (open it in a browser; no "
        "internet needed) and brief.md in the partition's output folder: the ScopeQuery as "
        "read from the RFP and each filter in plain English with the sentence it was read "
        "from, the three references with a labelled bar chart of their score components, "
        "why to cite each (the RFP's relevance criteria and scope section it matches, the "
        "outcome metric to quote) and what to check before citing it (sub role, funded value "
        "under the floor, end date near the recency cut-off, vague outcomes, weak pick), and "
        "every question with its rewrite, query set, top passages and 'needs SME' flag."
    ),
)
def response_brief(
    context: dg.AssetExecutionContext,
    scope_query: pl.DataFrame,
    pp_references: pl.DataFrame,
    pp_entries: pl.DataFrame,
    paths: ProjectPaths,
    duckdb: DuckDBPartitionStore,
) -> dg.Output[pl.DataFrame]:
    """Render and write the brief; one row with the file paths and ``reference_notes`` (JSON
    of ``brief.notes_record``: why cite and check before citing per reference id)."""
    return each_partition(
        context,
        _brief_one,
        scope_query=scope_query,
        pp_references=pp_references,
        pp_entries=pp_entries,
        paths=paths,
        duckdb=duckdb,
    )


def _brief_one(key, scope_query, pp_references, pp_entries, paths, duckdb):
    scope = scope_query.row(0, named=True)
    references = pp_references.to_dicts()
    vague = set(vague_outcome_ids(pp_entries))
    tables = {t: duckdb.read_partition(t, key) for t in QUESTION_TABLES}
    sha = source_of_inputs(key, scope_query=scope_query, pp_references=pp_references, **tables)
    questions = question_views(
        tables["rewritten_questions"],
        tables["question_answers"],
        duckdb.read_partition("rfp_questions", key),
    )
    ids = [r["id"] for r in references if r.get("id")]
    facts = reference_facts(pp_entries, ids)
    entries = {row["id"]: row for row in pp_entries.filter(pl.col("id").is_in(ids)).to_dicts()}
    context, document = _rfp_context(duckdb, key)
    notes = {"entries": entries, **context}
    record = notes_record(notes_by_reference(references, scope, vague, **notes))
    header = {
        "document": document,
        "override_problem": _override_problem(duckdb, paths, key, pp_references),
    }
    markdown = brief_markdown(scope, references, vague, questions, facts, **notes, **header)
    folder = paths.output_for(key)
    html_path, md_path = folder / "brief.html", folder / "brief.md"
    page = brief_html(scope, references, vague, questions, facts, **notes, **header)
    html_path.write_text(page, encoding="utf-8")
    md_path.write_text(markdown, encoding="utf-8")
    frame = pl.DataFrame(
        {
            "rfp_partition": [key],
            "html_path": [str(html_path)],
            "markdown_path": [str(md_path)],
            "questions": [len(questions) if questions is not None else None],
            "needs_sme": [sum(q["needs_sme"] for q in questions) if questions else 0],
            "reference_notes": [json.dumps(record)],
        },
        schema={
            "rfp_partition": pl.String,
            "html_path": pl.String,
            "markdown_path": pl.String,
            "questions": pl.Int64,
            "needs_sme": pl.Int64,
            "reference_notes": pl.String,
        },
    )
    return with_source(frame, sha), {
        SOURCE_SHA: sha or "not recorded",
        "html": dg.MetadataValue.path(str(html_path)),
        "markdown": dg.MetadataValue.path(str(md_path)),
        "preview": dg.MetadataValue.md(markdown[:20_000]),
    }
