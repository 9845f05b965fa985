"""RFP question assets, one partition per uploaded file: the questions and the compliance matrix."""

import dagster as dg
import polars as pl

from assets.partitions import each_partition, rfp_asset
from assets.previews import markdown_preview
from assets.rfp import source_of_inputs
from resources import ProjectPaths
from rfp_retrieval.documents.matrix import matrix_rows, write_matrix
from rfp_retrieval.documents.questions import find_questions
from rfp_retrieval.documents.tables import (
    document_from_frames,
    matrix_frame,
    questions_frame,
    questions_from_frame,
)
from rfp_retrieval.inbox import structure_warning
from rfp_retrieval.lineage import SOURCE_SHA, with_source


@rfp_asset(
    "rfp",
    description=(
        "Every ask in the RFP: numbered prompts, Describe/Provide/Explain sentences, questions, "
        "shall/must requirements, evaluation criteria and questionnaire rows, each with its "
        "label as written, verbatim text, section path, topic, preceding context, "
        "cross-referenced sections and lettered parts."
    ),
)
def rfp_questions(
    context: dg.AssetExecutionContext, rfp_document: pl.DataFrame, rfp_outline: pl.DataFrame
) -> dg.Output[pl.DataFrame]:
    """Find the questions and requirements of the partition's RFP."""
    return each_partition(
        context, _questions_one, rfp_document=rfp_document, rfp_outline=rfp_outline
    )


def _questions_one(key, rfp_document, rfp_outline):
    sha = source_of_inputs(key, rfp_document=rfp_document, rfp_outline=rfp_outline)
    doc = document_from_frames(rfp_document, rfp_outline)
    frame = with_source(questions_frame(key, find_questions(doc)), sha)
    counts = frame.group_by("kind").len().sort("kind")
    warning = structure_warning(rfp_outline, frame)  # it still runs: the UI says why
    if warning:
        dg.get_dagster_logger().warning(f"partition {key!r}: {warning}")
    return frame, {
        SOURCE_SHA: sha or "not recorded",
        **({"warning": warning} if warning else {}),
        "row_count": frame.height,
        "by_kind": dg.MetadataValue.json(dict(counts.iter_rows())),
        "questions": dg.MetadataValue.md(
            markdown_preview(frame.select(["id", "label", "kind", "text"]))
        ),
    }


@rfp_asset(
    "rfp",
    kinds={"duckdb", "polars", "excel"},
    description=(
        "The compliance matrix: one row per question or requirement (id, label, section path, "
        "text, kind, page or line), stored in DuckDB and written as CSV and XLSX to the "
        "partition's output folder for the proposal team."
    ),
)
def compliance_matrix(
    context: dg.AssetExecutionContext,
    rfp_document: pl.DataFrame,
    rfp_outline: pl.DataFrame,
    rfp_questions: pl.DataFrame,
    paths: ProjectPaths,
) -> dg.Output[pl.DataFrame]:
    """Build the matrix from the stored questions and export it next to the brief."""
    return each_partition(
        context,
        _matrix_one,
        rfp_document=rfp_document,
        rfp_outline=rfp_outline,
        rfp_questions=rfp_questions,
        paths=paths,
    )


def _matrix_one(key, rfp_document, rfp_outline, rfp_questions, paths):
    sha = source_of_inputs(
        key, rfp_document=rfp_document, rfp_outline=rfp_outline, rfp_questions=rfp_questions
    )
    doc = document_from_frames(rfp_document, rfp_outline)
    rows = matrix_rows(doc, questions_from_frame(rfp_questions))
    folder = paths.output_for(key)
    csv_path = write_matrix(rows, folder / "compliance_matrix.csv", doc.title)
    xlsx_path = write_matrix(rows, folder / "compliance_matrix.xlsx", doc.title)
    frame = with_source(matrix_frame(key, rows), sha)
    return frame, {
        SOURCE_SHA: sha or "not recorded",
        "row_count": frame.height,
        "csv": dg.MetadataValue.path(str(csv_path)),
        "xlsx": dg.MetadataValue.path(str(xlsx_path)),
        "matrix": dg.MetadataValue.md(
            markdown_preview(frame.select(["id", "label", "section_path", "kind", "text"]))
        ),
    }
