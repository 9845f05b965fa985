"""Each instruction sentence of a paragraph is its own ask: a sentence ending in a lettered
part ("... (Attachment B).", "... in Exhibit C.") ends there; it is not an initial (new-user
trial 16: "The Technical Proposal shall not exceed 30 pages, excluding ... (Attachment B). The
Offeror shall describe its approach ..." was one matrix row, the second instruction lost)."""

from __future__ import annotations

from pathlib import Path

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.matrix import matrix_rows
from rfp_retrieval.documents.text import split_sentences

LIMIT = "The technical volume shall not exceed 20 pages, excluding forms (Attachment B)."
APPROACH = "The Offeror shall describe its approach to configuring the grant programs."
FORM = "Offerors shall complete the price form in Exhibit C."
SIGN = "The Offeror shall sign the form."


def test_a_lettered_part_at_a_sentence_end_ends_the_sentence():
    assert split_sentences(f"{LIMIT} {APPROACH}") == [LIMIT, APPROACH]
    assert split_sentences(f"{FORM} {SIGN}") == [FORM, SIGN]
    # initials and abbreviations still do not end a sentence
    assert split_sentences("Send questions to John F. Smith by e-mail.") == [
        "Send questions to John F. Smith by e-mail."
    ]
    assert split_sentences("Register with the U.S. Small Business Administration.") == [
        "Register with the U.S. Small Business Administration."
    ]


def test_each_instruction_sentence_of_a_paragraph_is_a_matrix_row(tmp_path: Path):
    path = tmp_path / "rfp.md"
    path.write_text(
        "# Request for Proposals\n\n## L. Instructions\n\n"
        f"L.2 {LIMIT} {APPROACH}\n\nL.3 {FORM} {SIGN}\n",
        encoding="utf-8",
    )
    rows = [(r.label, r.text, r.kind, r.limit) for r in matrix_rows(load_document(path))]
    assert rows == [
        ("L.2", LIMIT, "requirement", "20 pages"),
        ("L.2", APPROACH, "question", None),
        ("L.3", FORM, "requirement", None),
        ("L.3", SIGN, "requirement", None),
    ]
