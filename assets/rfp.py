"""RFP assets, one partition per uploaded file: document, outline and ScopeQuery."""

import json
from pathlib import Path

import dagster as dg
import polars as pl

from assets.partitions import (
    OWNERS,
    PARTITION_META,
    concat_partitions,
    each_partition,
    rfp_asset,
    rfp_partitions,
)
from assets.previews import markdown_preview
from resources import EmbeddingModel, ProjectPaths
from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.records import DocumentError
from rfp_retrieval.documents.tables import document_frame, document_from_frames, outline_frame
from rfp_retrieval.inbox import find_in_inbox
from rfp_retrieval.lineage import SOURCE_SHA, LineageError, common_source, file_sha, with_source
from rfp_retrieval.retrieval.scope_query import (
    build_scope_query,
    domain_weights_metadata,
    filters_metadata,
)
from rfp_retrieval.scope import as_of_for


class RfpDocumentConfig(dg.Config):
    """``path``: read this file instead of looking the partition up in the inbox (a run of
    one partition); ``paths``: ``{partition key: file}`` for a run over several partitions
    (``launch.Launcher.run_batch``). A partition in neither is looked up in the inbox."""

    path: str = ""
    paths: dict[str, str] = {}


def _source_path(key: str, config: RfpDocumentConfig, inbox: str) -> Path:
    if config.paths.get(key):
        return Path(config.paths[key])
    if config.path:
        return Path(config.path)
    found = find_in_inbox(Path(inbox), key)
    if found is None:
        raise dg.Failure(
            description=(
                f"no file in the inbox {inbox} has partition key {key!r}; "
                "it was moved or renamed. Put it back or delete the partition."
            )
        )
    return found


def source_of_inputs(partition: str, **inputs: pl.DataFrame | None) -> str | None:
    """The ``source_sha`` the partition inputs share (``lineage.common_source``, inputs in
    pipeline order); the RFP file is named from ``rfp_document`` when it is an input.

    Raises:
        dg.Failure: the inputs were built from different versions of the RFP file.
    """
    document = inputs.get("rfp_document")
    file = document["file"][0] if document is not None and document.height else None
    try:
        return common_source(inputs, partition, file)
    except LineageError as exc:
        raise dg.Failure(description=str(exc), metadata={"partition": partition}) from exc


@dg.multi_asset(
    partitions_def=rfp_partitions,
    group_name="rfp",
    outs={
        "rfp_document": dg.AssetOut(
            kinds={"duckdb", "polars", "python"},
            owners=OWNERS,
            metadata=PARTITION_META,
            description=(
                "The uploaded RFP as clean text: title, issue date, a one-paragraph summary, "
                "and the pages that had no text layer. A file that cannot be read fails only "
                "its own partition."
            ),
        ),
        "rfp_outline": dg.AssetOut(
            kinds={"duckdb", "polars"},
            owners=OWNERS,
            metadata=PARTITION_META,
            description=(
                "The RFP's outline: numbered sections (3.4.7, C.3.2, L.4.2.1, IV.B.2...) with "
                "heading, level, parent and body text, in document order."
            ),
        ),
    },
)
def rfp_document(context: dg.AssetExecutionContext, config: RfpDocumentConfig, paths: ProjectPaths):
    """Extract text and outline from each partition's RFP file (Markdown, text, DOCX, PDF)."""
    keys = list(context.partition_keys)
    documents, outlines = [], []
    for key in keys:
        document, outline, doc_meta, outline_meta = _read_rfp(key, config, paths)
        documents.append(document)
        outlines.append(outline)
        if len(keys) > 1:
            context.add_asset_metadata(doc_meta, asset_key="rfp_document", partition_key=key)
            context.add_asset_metadata(outline_meta, asset_key="rfp_outline", partition_key=key)
    single = len(keys) == 1
    yield dg.Output(
        concat_partitions(documents),
        output_name="rfp_document",
        metadata=doc_meta if single else None,
    )
    yield dg.Output(
        concat_partitions(outlines),
        output_name="rfp_outline",
        metadata=outline_meta if single else None,
    )


def _read_rfp(key: str, config: RfpDocumentConfig, paths: ProjectPaths):
    """``(document frame, outline frame, document metadata, outline metadata)`` of partition
    ``key``'s file. Raises ``dg.Failure`` naming the file when it cannot be read."""
    path = _source_path(key, config, paths.inbox_dir)
    try:
        doc = load_document(path)
    except DocumentError as exc:
        raise dg.Failure(description=str(exc), metadata={"file": str(path)}) from exc
    try:
        sha = file_sha(path)
    except OSError as exc:
        raise dg.Failure(
            description=f"cannot read {path}: {exc}; check the file and re-run the partition",
            metadata={"file": str(path)},
        ) from exc
    document = with_source(document_frame(key, doc), sha)
    doc_meta = {
        "file": str(path),
        SOURCE_SHA: sha,
        "title": doc.title,
        "issue_date": str(doc.issue_date) if doc.issue_date else "not stated",
        "characters": len(doc.text),
        "pages_without_text": str(doc.pages_without_text or "none"),
        "summary": dg.MetadataValue.md(doc.summary or "_no summary_"),
    }
    outline = with_source(outline_frame(key, doc), sha)
    preview = outline.select(["number", "heading", "level", "parent"])
    outline_meta = {
        SOURCE_SHA: sha,
        "row_count": outline.height,
        "outline": dg.MetadataValue.md(markdown_preview(preview, limit=40)),
    }
    return document, outline, doc_meta, outline_meta


@rfp_asset(
    "rfp",
    description=(
        "The ScopeQuery read from the RFP's own text: issuing agency and type, the "
        "past-performance hard filters (recency window, value band in USD, customer types), "
        "the ranking texts and their vectors, and where in the RFP each filter was stated."
    ),
)
def scope_query(
    context: dg.AssetExecutionContext,
    rfp_document: pl.DataFrame,
    rfp_outline: pl.DataFrame,
    embedding_model: EmbeddingModel,
) -> dg.Output[pl.DataFrame]:
    """Read the scope and embed its narrative, technical, outcome and whole texts."""
    return each_partition(
        context,
        _scope_query_one,
        rfp_document=rfp_document,
        rfp_outline=rfp_outline,
        embedder=embedding_model.embedder,
    )


def _scope_query_one(key, rfp_document, rfp_outline, embedder):
    sha = source_of_inputs(key, rfp_document=rfp_document, rfp_outline=rfp_outline)
    doc = document_from_frames(rfp_document, rfp_outline)
    as_of = as_of_for(doc)
    built = build_scope_query(doc, embedder, as_of, key)
    frame, row, sections, reading = built.frame, built.row, built.sections, built.reading
    return with_source(frame, sha), {
        SOURCE_SHA: sha or "not recorded",
        "filters": dg.MetadataValue.json(filters_metadata(row)),
        "as_of_source": as_of.source,
        "trace": dg.MetadataValue.json(json.loads(row["trace"])),
        "scope_sections": dg.MetadataValue.md(
            "\n".join(f"- {h}" for h, _ in sections) or "_none found_"
        ),
        "emphasized_domains": ", ".join(row["emphasized_domains"]) or "none",
        # scope weighting (seed: ambiguous scopes): title, scope-section length, Section M
        "domain_weights": dg.MetadataValue.json(domain_weights_metadata(reading)),
    }
