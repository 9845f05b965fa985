"""A saved web page renamed .md/.txt is refused with what to do, not parsed into garbage."""

from __future__ import annotations

import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.records import DocumentError

PAGE = """<!DOCTYPE html>
<html lang="en"><head><title>RFP 2026-01</title>
<style>body { font-family: Arial; }</style>
<script>function gtag(){dataLayer.push(arguments);}</script>
</head><body><h1>Request for Proposals</h1>
<p>Offerors shall submit three references.</p></body></html>
"""


@pytest.mark.parametrize("name", ["rfp.md", "rfp.txt"])
@pytest.mark.parametrize("prefix", ["", "\ufeff", "\n  ", "<!-- saved from url -->\n"])
def test_html_page_with_a_text_extension_is_a_document_error(tmp_path, name, prefix):
    path = tmp_path / name
    path.write_text(prefix + PAGE, encoding="utf-8")
    with pytest.raises(DocumentError) as info:
        load_document(path)
    message = str(info.value)
    assert str(path) in message
    assert "is a web page (HTML) saved with the extension" in message
    assert "save the page as PDF or copy its text into a .md file" in message


def test_markdown_with_inline_html_still_loads(tmp_path):
    path = tmp_path / "rfp.md"
    path.write_text(
        "# Section L\n\n<table><tr><td>L.1</td><td>Three references</td></tr></table>\n\n"
        "Offerors shall submit three references.<br>\n",
        encoding="utf-8",
    )
    doc = load_document(path)
    assert "Three references" in doc.text
