"""The report asset gives the brief its header facts (issue 15): the RFP's headings and OCR'd
pages from the stored document, and why its override file was not applied, with a rejected
library row named (no model, no Dagster run)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import polars as pl

from assets.report import _override_problem, _rfp_context
from rfp_retrieval.documents.records import RfpDocument, Section
from rfp_retrieval.documents.tables import document_frame, outline_frame


class _Store:
    """The two reads the report asset makes, over in-memory frames."""

    def __init__(self, tables: dict[str, pl.DataFrame], partitions: dict[str, pl.DataFrame]):
        self.tables, self.partitions = tables, partitions

    def read_table(self, table, columns=None):
        frame = self.tables.get(table)
        return frame.select(columns) if frame is not None and columns else frame

    def read_partition(self, table, key):
        return self.partitions.get(table)


def test_the_stored_document_gives_headings_and_ocr_pages():
    sections = [
        Section("s1", None, "STATE OF NEBRASKA", 0, None, "", 1),
        Section("s2", None, "Request for Proposal 1234 — Case Management", 1, "s1", "", 3),
    ]
    doc = RfpDocument(
        "scan.pdf", "pdf", "STATE OF NEBRASKA", "STATE OF NEBRASKA\n\n# RFP 1234\n", sections, "",
        ocr_pages={2: 80.0},
    )
    store = _Store(
        {}, {"rfp_document": document_frame("k", doc), "rfp_outline": outline_frame("k", doc)}
    )
    _, facts = _rfp_context(store, "k")
    assert facts == {
        "headings": ["STATE OF NEBRASKA", "Request for Proposal 1234 — Case Management"],
        "cover": ["STATE OF NEBRASKA", "RFP 1234"],  # the first lines, for brief_title
        "ocr_pages": {2: 80.0},
        "pages_without_text": [],
    }


def test_an_override_file_that_cannot_apply_is_reported_with_the_rejected_row(tmp_path):
    (tmp_path / "k.yaml").write_text(
        "overrides:\n  - replace: PP-1\n    with: PP-951\n    by: Dana\n    at: 2026-06-10\n"
        "    reason: The CO asked for it.\n",
        encoding="utf-8",
    )
    store = _Store(
        {
            "pp_entries": pl.DataFrame({"id": ["PP-1", "PP-2"]}),
            "pp_rejected_entries": pl.DataFrame(
                {
                    "file": ["matrix.csv"],
                    "row": [152],
                    "reason": ["no title"],
                    "raw": [json.dumps({"ID": "PP-951"})],
                }
            ),
        },
        {},
    )
    refs = pl.DataFrame({"rfp_partition": ["k"], "id": ["PP-1"], "rank": [1]})
    paths = SimpleNamespace(overrides_dir=str(tmp_path))
    problem = _override_problem(store, paths, "k", refs)
    assert problem == (
        f"{tmp_path / 'k.yaml'}: override 1 names PP-951, rejected: matrix.csv row 152: no "
        "title; fix the library row (or pick another entry) and re-run; the references are "
        "the ranker's picks without the file's overrides"
    )
    assert (
        _override_problem(store, SimpleNamespace(overrides_dir=str(tmp_path / "none")), "k", refs)
        is None
    )
