"""RfpDocument, questions and compliance matrix <-> table rows (the ``rfp_document``,
``rfp_outline``, ``rfp_questions`` and ``compliance_matrix`` tables).

``document_from_frames(document_frame(k, doc), outline_frame(k, doc))`` gives back ``doc``:
every field of ``RfpDocument`` and ``Section`` has a column (``page_starts`` as a list of
1-based lines, ``source_rows`` as a list of file rows, ``kind`` and ``title`` per section).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import asdict
from typing import Any

import polars as pl

from rfp_retrieval.documents.matrix import MatrixRow
from rfp_retrieval.documents.records import Question, RfpDocument, Section
from rfp_retrieval.inbox import shown_name

DOCUMENT_SCHEMA = {
    "rfp_partition": pl.String,
    "file": pl.String,
    "format": pl.String,
    "title": pl.String,
    "issue_date": pl.Date,
    "issue_date_unread": pl.String,
    "summary": pl.String,
    "text": pl.String,
    "pages_without_text": pl.List(pl.Int64),
    "ocr_pages": pl.String,  # JSON {page: mean OCR word confidence in %}, "{}" when none
    "warnings": pl.List(pl.String),
    "section_count": pl.Int64,
    "page_starts": pl.List(pl.Int64),
    "source_rows": pl.List(pl.Int64),
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
    "kind": pl.String,
    "title": pl.String,
}


def document_frame(partition: str, doc: RfpDocument) -> pl.DataFrame:
    """One-row frame for the ``rfp_document`` table (``file`` and ``title`` through
    ``inbox.shown_name``: a name that is not UTF-8 is stored with U+FFFD)."""
    row = {
        "rfp_partition": partition,
        "file": shown_name(doc.path),
        "format": doc.format,
        "title": shown_name(doc.title),
        "issue_date": doc.issue_date,
        "issue_date_unread": doc.issue_date_unread,
        "summary": doc.summary,
        "text": doc.text,
        "pages_without_text": list(doc.pages_without_text),
        "ocr_pages": json.dumps({str(p): round(c, 1) for p, c in sorted(doc.ocr_pages.items())}),
        "warnings": list(doc.warnings),
        "section_count": len(doc.sections),
        "page_starts": list(doc.page_starts),
        "source_rows": list(doc.source_rows),
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
            "kind": s.kind,
            "title": s.title,
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
            kind=r.get("kind") or "heading",
            title=r.get("title") or "",
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
        issue_date_unread=row.get("issue_date_unread"),
        pages_without_text=list(row.get("pages_without_text") or []),
        ocr_pages={int(p): float(c) for p, c in json.loads(row.get("ocr_pages") or "{}").items()},
        warnings=list(row.get("warnings") or []),
        page_starts=list(row.get("page_starts") or []),
        source_rows=list(row.get("source_rows") or []),
    )


QUESTION_SCHEMA = {
    "rfp_partition": pl.String,
    "id": pl.String,
    "label": pl.String,
    "text": pl.String,
    "section_key": pl.String,
    "section_path": pl.List(pl.String),
    "kind": pl.String,
    "topic": pl.String,
    "context": pl.String,
    "references": pl.List(pl.String),
    "parts": pl.List(pl.String),
    "part_labels": pl.List(pl.String),
    "line": pl.Int64,
    "page": pl.Int64,
    "limit": pl.String,
}
"""Columns of the ``rfp_questions`` table: one row per ``records.Question``."""

MATRIX_SCHEMA = {
    "rfp_partition": pl.String,
    "id": pl.String,
    "label": pl.String,
    "section_path": pl.String,
    "text": pl.String,
    "kind": pl.String,
    "topic": pl.String,
    "page": pl.Int64,
    "line": pl.Int64,
    "limit": pl.String,
}
"""Columns of the ``compliance_matrix`` table (``documents.matrix.MatrixRow`` + partition)."""


def questions_frame(partition: str, questions: list[Question]) -> pl.DataFrame:
    """One row per question, in document order, for the ``rfp_questions`` table."""
    rows = [
        {
            "rfp_partition": partition,
            "id": q.id,
            "label": q.label,
            "text": q.text,
            "section_key": q.section_key,
            "section_path": list(q.section_path),
            "kind": q.kind,
            "topic": q.topic,
            "context": q.context,
            "references": list(q.references),
            "parts": list(q.parts),
            "part_labels": list(q.part_labels),
            "line": q.line,
            "page": q.page,
            "limit": q.limit,
        }
        for q in questions
    ]
    return pl.DataFrame(rows, schema=QUESTION_SCHEMA)


def questions_from_frame(frame: pl.DataFrame) -> list[Question]:
    """The ``records.Question`` items stored in an ``rfp_questions`` frame, in id order."""
    out = []
    for r in frame.sort("id").iter_rows(named=True):
        out.append(
            Question(
                id=r["id"],
                label=r["label"],
                text=r["text"] or "",
                section_key=r["section_key"],
                section_path=list(r["section_path"] or []),
                kind=r["kind"] or "question",
                topic=r["topic"],
                context=r["context"] or "",
                references=list(r["references"] or []),
                parts=list(r["parts"] or []),
                part_labels=list(r.get("part_labels") or []),
                line=r["line"],
                page=r["page"],
                limit=r.get("limit"),
            )
        )
    return out


def matrix_frame(partition: str, rows: list[MatrixRow]) -> pl.DataFrame:
    """One row per compliance-matrix row for the ``compliance_matrix`` table."""
    data = [{"rfp_partition": partition, **asdict(r)} for r in rows]
    return pl.DataFrame(data, schema=MATRIX_SCHEMA)
