"""A count of work samples is not a count of past-performance references (new-user trial: a
Tax Court RFQ's "references to one or more source code samples" read as "References
required: 1")."""

from __future__ import annotations

import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.scope import read_scope


@pytest.mark.parametrize(
    ("sentence", "count"),
    [
        (
            "Technical submissions must consist of a technical proposal of no more than four (4) "
            "pages and references to one or more source code samples.",
            None,
        ),
        ("Offerors shall provide two or more references for similar contracts.", 2),
        ("Offerors shall submit three (3) past performance references.", 3),
    ],
)
def test_the_reference_count_counts_references(tmp_path, sentence, count):
    path = tmp_path / "rfq.md"
    path.write_text(
        "# Request for Quotations\n\n## 1. Instructions\n\n" + sentence + "\n", encoding="utf-8"
    )
    assert read_scope(load_document(path)).references_required == count
