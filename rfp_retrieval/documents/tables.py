"""RfpDocument <-> table rows (the ``rfp_document`` and ``rfp_outline`` tables)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import polars as pl

from rfp_retrieval.documents.records import RfpDocument, Section

DOCUMENT_SCHEMA = {
    "rfp_partition": pl.String,
    "file": pl.String,
    "format": pl.String,
    "title": pl.String,
    "issue_date": pl.Date,
    "summary": pl.String,
    "text": pl.String,
    "pages_without_text": pl.List(pl.Int64),
    "warnings": pl.List(pl.String),
    "section_count": pl.Int64,
}

OUTLINE_SCHEMA = {
    "rfp_partition": pl.String,
    "position": pl.Int64,
    "key": pl.String,
    "number": pl.String,
    "heading": pl.String,
    "level": pl.Int64,
    "parent": pl.String,
    "body": pl.String,
    "line": pl.Int64,
    "page": pl.Int64,
}


def document_frame(partition: str, doc: RfpDocument) -> pl.DataFrame:
    """One-row frame for the ``rfp_document`` table."""
    row = {
        "rfp_partition": partition,
        "file": doc.path,
        "format": doc.format,
        "title": doc.title,
        "issue_date": doc.issue_date,
        "summary": doc.summary,
        "text": doc.text,
        "pages_without_text": list(doc.pages_without_text),
        "warnings": list(doc.warnings),
        "section_count": len(doc.sections),
    }
    return pl.DataFrame([row], schema=DOCUMENT_SCHEMA)


def outline_frame(partition: str, doc: RfpDocument) -> pl.DataFrame:
    """One row per outline section, in document order, for the ``rfp_outline`` table."""
    rows = [
        {
            "rfp_partition": partition,
            "position": i,
            "key": s.key,
            "number": s.number,
            "heading": s.heading,
            "level": s.level,
            "parent": s.parent,
            "body": s.body,
            "line": s.line,
            "page": s.page,
        }
        for i, s in enumerate(doc.sections)
    ]
    return pl.DataFrame(rows, schema=OUTLINE_SCHEMA)


def document_from_frames(document: pl.DataFrame, outline: pl.DataFrame) -> RfpDocument:
    """Rebuild the RfpDocument of one partition from its stored rows.

    Raises:
        ValueError: ``document`` does not hold exactly one row.
    """
    if document.height != 1:
        raise ValueError(f"expected one rfp_document row, found {document.height}")
    row: dict[str, Any] = document.row(0, named=True)
    issue = row.get("issue_date")
    if isinstance(issue, str):
        issue = dt.date.fromisoformat(issue)
    sections = [
        Section(
            key=r["key"],
            number=r["number"],
            heading=r["heading"],
            level=int(r["level"]),
            parent=r["parent"],
            body=r["body"] or "",
            line=int(r["line"]),
            page=r["page"],
        )
        for r in outline.sort("position").iter_rows(named=True)
    ]
    return RfpDocument(
        path=row["file"],
        format=row["format"],
        title=row["title"] or "",
        text=row["text"] or "",
        sections=sections,
        summary=row["summary"] or "",
        issue_date=issue,
        pages_without_text=list(row.get("pages_without_text") or []),
        warnings=list(row.get("warnings") or []),
    )
