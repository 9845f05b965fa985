"""An attachment's label repeated on its later pages is its running label, no new section; a
dash typed between the label and its letter (``ATTACHMENT - B``) still numbers it (issue 13)."""

from __future__ import annotations

from rfp_retrieval.documents.outline import parse_outline

PAGES = [
    [
        "SECTION C - ATTACHMENTS",
        "",
        "ATTACHMENT A MOWING STANDARDS",
        "",
        "The Contractor shall mow weekly.",
        "",
        "More text on the first page here.",
    ],
    [
        "The Contractor shall edge all walks.",
        "",
        "Edging is done with a string trimmer.",
        "",
        "ATTACHMENT A MOWING STANDARDS CONT.",
    ],
    [
        "Mowing runs April to October.",
        "",
        "ATTACHMENT A",
        "Clippings are removed the same day.",
        "",
        "ATTACHMENT - B",
        "",
        "TRIMMING",
        "",
        "Trim around every headstone.",
    ],
]


def test_attachment_running_labels_and_dashed_label():
    lines = [line for page in PAGES for line in page]
    page_of_line = [n for n, page in enumerate(PAGES, start=1) for _ in page]
    sections = parse_outline(lines, "plain", page_of_line)
    assert [(s.level, s.number, s.heading) for s in sections] == [
        (1, "SECTION C", "ATTACHMENTS"),
        (1, "ATTACHMENT A", "MOWING STANDARDS"),
        (1, "ATTACHMENT - B", "TRIMMING"),
    ]
    # the running labels' pages stay in Attachment A's text
    assert "Clippings are removed the same day." in sections[1].body
