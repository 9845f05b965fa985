"""Answer-library ingest: Markdown blocks, Q/A spreadsheets, and every problem named."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from rfp_retrieval.answers.frames import (
    answer_embeddings_frame,
    blocks_frame,
    blocks_from_frame,
    stale_blocks,
)
from rfp_retrieval.answers.ingest import block_text, load_answer_library
from tests.conftest import REPO

SAMPLE = REPO / "sample" / "answers"


def _block(folder: Path, name: str, front: str, body: str = "Body text of the block.") -> None:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\n{front}\n---\n\n{body}\n", encoding="utf-8")


def test_sample_library_reads_all_164_blocks_without_problems():
    library = load_answer_library(SAMPLE)
    assert len(library.blocks) == 164
    assert library.rejected == []
    assert [b.id for b in library.blocks if b.problems] == []
    pam = next(b for b in library.blocks if b.id == "AB-063")
    assert pam.title == "Privileged Access Management"
    assert pam.topic == "Security: Identity, Authentication, and Access"
    assert pam.tags[:3] == ["privileged access", "PAM", "just-in-time access"]
    assert pam.last_reviewed == dt.date(2024, 6, 5)
    assert pam.owner == "Chief Information Security Officer"
    assert pam.body.startswith("Administrative access to Calloway-managed infrastructure")
    assert block_text(pam).splitlines()[0] == "Privileged Access Management"


def test_review_date_is_one_year_after_last_review_and_stale_after_it():
    pam = next(b for b in load_answer_library(SAMPLE).blocks if b.id == "AB-063")
    assert pam.review_due() == dt.date(2025, 6, 5)
    assert pam.is_stale(dt.date(2025, 6, 6)) is True
    assert pam.is_stale(dt.date(2025, 6, 5)) is False
    assert pam.review_due(interval_days=730) == dt.date(2026, 6, 5)


def test_stale_blocks_as_of_the_data_date(tmp_path):
    frame = blocks_frame(load_answer_library(SAMPLE))
    stale = stale_blocks(frame, dt.date(2026, 11, 30))
    assert stale.height == 130  # last reviewed before 2025-11-30
    assert stale.sort("review_due")["id"][0] == "AB-146"  # reviewed 2021-06-21


def test_duplicate_ids_keep_the_most_recently_reviewed_copy(tmp_path):
    _block(tmp_path, "a/old.md", "id: AB-900\ntitle: Old\nlast_reviewed: 2023-01-01")
    _block(tmp_path, "b/new.md", "id: AB-900\ntitle: New\nlast_reviewed: 2025-01-01")
    library = load_answer_library(tmp_path)
    old, new = library.blocks
    assert (old.title, old.problems, old.usable) == ("Old", ["duplicate-id"], False)
    assert old.duplicate_of == str(tmp_path / "b" / "new.md")
    assert (new.problems, new.usable) == ([], True)
    assert [b.title for b in library.usable()] == ["New"]


def test_empty_body_unreadable_and_idless_files_are_named(tmp_path):
    _block(tmp_path, "empty.md", "id: AB-901\ntitle: Empty\nlast_reviewed: 2025-01-01", body="")
    _block(tmp_path, "noid.md", "title: No id")
    _block(tmp_path, "badyaml.md", "id: AB-902\ntitle: [unclosed")
    (tmp_path / "plain.md").write_text("# Just a note\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("How to write blocks\n", encoding="utf-8")
    library = load_answer_library(tmp_path)
    assert [(b.id, b.problems) for b in library.blocks] == [("AB-901", ["empty-body"])]
    reasons = {Path(r.file).name: r.reason for r in library.rejected}
    assert sorted(reasons) == ["badyaml.md", "noid.md", "plain.md"]
    assert reasons["noid.md"] == "front matter has no id; add 'id: AB-###'"
    assert reasons["badyaml.md"].startswith("front matter is not valid YAML")
    assert reasons["plain.md"].startswith("no YAML front matter")


def test_files_the_library_cannot_read_are_rejected_with_what_to_do(tmp_path):
    _block(tmp_path, "ok.md", "id: AB-906\ntitle: Fine\nlast_reviewed: 2025-01-01")
    _block(tmp_path, "sub/UPPER.MD", "id: AB-907\ntitle: Upper\nlast_reviewed: 2025-01-01")
    (tmp_path / "old answers.xls").write_bytes(b"\xd0\xcf\x11\xe0")
    (tmp_path / "sub" / "notes.docx").write_bytes(b"PK\x03\x04")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "x.txt").write_text("cache", encoding="utf-8")
    (tmp_path / "~$answers.xlsx").write_bytes(b"lock")
    library = load_answer_library(tmp_path)
    assert [b.id for b in library.blocks] == ["AB-906", "AB-907"]
    reasons = {Path(r.file).name: (r.row, r.reason) for r in library.rejected}
    assert reasons == {
        "old answers.xls": (
            None,
            "not read: the old Excel format (.xls) is not read: save it as .xlsx (a library "
            "reads .csv and .xlsx spreadsheets and Markdown (.md) files)",
        ),
        "notes.docx": (
            None,
            "not read: a Word file (.docx) is not read: save it as Markdown (.md) (a library "
            "reads .csv and .xlsx spreadsheets and Markdown (.md) files)",
        ),
    }


def test_missing_and_unreadable_review_dates_are_problems(tmp_path):
    _block(tmp_path, "a.md", "id: AB-903\ntitle: A")
    _block(tmp_path, "b.md", "id: AB-904\ntitle: B\nlast_reviewed: next spring")
    a, b = load_answer_library(tmp_path).blocks
    assert (a.problems, a.usable, a.is_stale(dt.date(2020, 1, 1))) == (
        ["no-review-date"],
        True,
        True,
    )
    assert b.problems == ["unreadable-review-date"]


def test_qa_csv_rows_become_blocks_and_bad_rows_are_rejected_with_row_numbers(tmp_path):
    (tmp_path / "past.csv").write_text(
        "Question,Answer,Topic,Last Reviewed\n"
        "Do you encrypt backups?,Yes; AES-256 with KMS keys.,Encryption,2025-03-01\n"
        ",An answer without its question,Encryption,2025-03-01\n"
        "Do you have a SOC 2 report?,,Attestations,2025-03-01\n",
        encoding="utf-8",
    )
    library = load_answer_library(tmp_path)
    first, unanswered = library.blocks
    assert first.id == "QA-past-2"
    assert (first.kind, first.title, first.body, first.topic) == (
        "qa-pair",
        "Do you encrypt backups?",
        "Yes; AES-256 with KMS keys.",
        "Encryption",
    )
    assert (first.row, first.last_reviewed) == (2, dt.date(2025, 3, 1))
    assert (unanswered.row, unanswered.problems) == (4, ["empty-body"])
    assert [(r.row, r.reason) for r in library.rejected] == [
        (3, "no question in this row; fill it or delete it")
    ]


def test_semicolon_csv_and_us_review_dates_are_read(tmp_path):
    """break-it: a semicolon-delimited export was rejected whole and 11/30/2026 refused; the
    library's delimiter rule and the project's date rule (US numeric order) now read both."""
    (tmp_path / "export.csv").write_text(
        "Question;Answer;Topic;Last Reviewed\n"
        "Do you encrypt backups?;Yes, AES-256 with KMS keys.;Encryption;11/30/2026\n"
        "Do you have a SOC 2 report?;Yes, Type II, yearly.;Attestations;03/04/2025\n"
        "Who owns incident response?;The CISO.;Security;30/11/2026\n",
        encoding="utf-8",
    )
    library = load_answer_library(tmp_path)
    assert library.rejected == []
    rows = [(b.row, b.title, b.body, b.topic, b.last_reviewed, b.problems) for b in library.blocks]
    assert rows == [
        (
            2,
            "Do you encrypt backups?",
            "Yes, AES-256 with KMS keys.",
            "Encryption",
            dt.date(2026, 11, 30),
            [],
        ),
        (
            3,
            "Do you have a SOC 2 report?",
            "Yes, Type II, yearly.",
            "Attestations",
            dt.date(2025, 3, 4),
            [],
        ),
        (
            4,
            "Who owns incident response?",
            "The CISO.",
            "Security",
            None,
            ["unreadable-review-date"],
        ),
    ]


def test_qa_xlsx_header_below_a_title_row(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Past questionnaire answers (2025)"])
    sheet.append(["ID", "Topic", "Question", "Response", "Owner"])
    sheet.append(["QA-7", "Backup", "How often are backups taken?", "Hourly snapshots.", "Ops"])
    book.save(tmp_path / "answers.xlsx")
    (block,) = load_answer_library(tmp_path).blocks
    assert (block.id, block.topic, block.body, block.owner, block.row) == (
        "QA-7",
        "Backup",
        "Hourly snapshots.",
        "Ops",
        3,
    )


def test_qa_xlsx_topic_merged_down_over_its_questions_is_each_row_s(tmp_path):
    """The library's merged-range rule (``spreadsheet_rows.with_merged_values``) in the
    answer library: a topic merged over its three questions is the topic of each."""
    import openpyxl

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["Topic", "Question", "Answer"])
    sheet.append(["Encryption", "Do you encrypt backups?", "Yes, AES-256."])
    sheet.append([None, "Do you encrypt data in transit?", "Yes, TLS 1.2 or later."])
    sheet.append([None, "Who holds the keys?", "The customer, in its KMS."])
    sheet.append(["Staffing", "How many staff are cleared?", "Forty."])
    sheet.merge_cells("A2:A4")
    workbook.save(tmp_path / "questionnaire.xlsx")

    blocks = load_answer_library(tmp_path).blocks

    assert [(b.row, b.topic, b.title) for b in blocks] == [
        (2, "Encryption", "Do you encrypt backups?"),
        (3, "Encryption", "Do you encrypt data in transit?"),
        (4, "Encryption", "Who holds the keys?"),
        (5, "Staffing", "How many staff are cleared?"),
    ]


def test_spreadsheet_without_question_and_answer_columns_is_rejected_whole(tmp_path):
    (tmp_path / "notes.csv").write_text("Name,Value\nx,1\n", encoding="utf-8")
    library = load_answer_library(tmp_path)
    assert library.blocks == []
    assert library.rejected[0].row is None
    assert library.rejected[0].reason.startswith("no header row with a 'question'")


def test_missing_folder_names_it():
    with pytest.raises(FileNotFoundError, match="answer library folder /nope/answers"):
        load_answer_library("/nope/answers")


def test_blocks_frame_lists_unreadable_files_as_rows(tmp_path):
    _block(tmp_path, "ok.md", "id: AB-905\ntitle: Fine\nlast_reviewed: 2025-01-01")
    _block(tmp_path, "noid.md", "title: No id")
    frame = blocks_frame(load_answer_library(tmp_path))
    assert frame.select("id", "usable", "kind").rows() == [
        ("AB-905", True, "block"),
        (None, False, "unreadable"),
    ]
    assert frame["problems"][1].to_list() == [
        "unreadable: front matter has no id; add 'id: AB-###'"
    ]
    assert [b.id for b in blocks_from_frame(frame)] == ["AB-905"]


class _CountingEmbedder:
    """Deterministic 4-d unit vectors from text length; counts what it embeds."""

    def __init__(self, model_id: str = "fake-4"):
        self.model_id = model_id
        self.seen: list[str] = []

    def encode(self, texts: list[str]) -> np.ndarray:
        self.seen.extend(texts)
        rows = np.array([[len(t), 1.0, 0.0, 0.0] for t in texts], dtype=np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_embeddings_reuse_unchanged_blocks_and_reembed_changed_ones(tmp_path):
    _block(tmp_path, "a.md", "id: AB-1\ntitle: A\nlast_reviewed: 2025-01-01", body="alpha")
    _block(tmp_path, "b.md", "id: AB-2\ntitle: B\nlast_reviewed: 2025-01-01", body="beta")
    blocks = load_answer_library(tmp_path).blocks
    first_embedder = _CountingEmbedder()
    first, counts = answer_embeddings_frame(blocks, first_embedder)
    assert counts == {"embedded": 2, "reused": 0}
    assert first["dim"].to_list() == [4, 4]
    _block(tmp_path, "b.md", "id: AB-2\ntitle: B\nlast_reviewed: 2025-01-01", body="beta v2")
    again = _CountingEmbedder()
    second, counts = answer_embeddings_frame(load_answer_library(tmp_path).blocks, again, first)
    assert counts == {"embedded": 1, "reused": 1}
    assert again.seen == ["B\nbeta v2"]
    other_model, counts = answer_embeddings_frame(blocks, _CountingEmbedder("other"), second)
    assert counts == {"embedded": 2, "reused": 0}
    assert other_model["model"].unique().to_list() == ["other"]
    assert second.schema["vector"] == pl.List(pl.Float32)
