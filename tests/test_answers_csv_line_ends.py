"""An answers CSV saved with a classic Mac's line ends (Excel "CSV (Macintosh)": ``\\r`` only)
is read row by row; a file the csv module cannot parse at all is that file's rejected row,
never a crash of the library job (break-it: ``_csv.Error`` stopped every RFP)."""

from __future__ import annotations

from rfp_retrieval.answers.ingest import load_answer_library


def test_carriage_return_line_ends_are_rows(tmp_path):
    (tmp_path / "mac.csv").write_bytes(
        b'question,answer\r"Do you encrypt data at rest?","Yes, AES-256.\rKeys in an HSM."\r'
        b"Do you run a SOC?,Yes: 24x7.\r"
    )
    library = load_answer_library(tmp_path)
    assert [(b.question, b.body, b.row) for b in library.blocks] == [
        ("Do you encrypt data at rest?", "Yes, AES-256. Keys in an HSM.", 2),
        ("Do you run a SOC?", "Yes: 24x7.", 3),
    ]
    assert library.rejected == []


def test_a_file_the_csv_reader_refuses_is_rejected_with_its_reason(tmp_path):
    huge = "x" * 200_000  # one cell past the csv module's field limit (131,072 characters)
    (tmp_path / "broken.csv").write_text(f'question,answer\nq,"{huge}"\n', encoding="utf-8")
    (tmp_path / "good.csv").write_text("question,answer\nDo you use MFA?,Yes.\n", encoding="utf-8")
    library = load_answer_library(tmp_path)
    assert [b.question for b in library.blocks] == ["Do you use MFA?"]
    (rejected,) = library.rejected
    assert rejected.file.endswith("broken.csv")
    assert rejected.reason.startswith("cannot be read as CSV")
