"""A web page printed to PDF carries the browser's header and footer on every page (date-time
stamp and page title, page URL and "1/2"): page furniture, never the document's title."""

from __future__ import annotations

from pathlib import Path

from rfp_retrieval.documents.extract import load_document

PAGE_1 = """11/30/26, 2:05 PM Solicitation 26-Q-0042
REQUEST FOR QUOTATION 26-Q-0042
Grounds Maintenance Services

1. Scope. The contractor shall mow all turf areas weekly.
https://procure.example.gov/solicitations/26-Q-0042.html 1/2"""

PAGE_2 = """11/30/26, 2:05 PM Solicitation 26-Q-0042
2. Instructions. Quotations shall not exceed 10 pages.
https://procure.example.gov/solicitations/26-Q-0042.html 2/2"""


def test_browser_print_header_and_footer_are_furniture(tmp_path: Path):
    path = tmp_path / "printed.txt"
    path.write_text(PAGE_1 + "\n\f" + PAGE_2 + "\n", encoding="utf-8")
    doc = load_document(path)
    assert doc.title == "REQUEST FOR QUOTATION 26-Q-0042"
    assert "2:05 PM" not in doc.text
    assert "https://" not in doc.text
    assert "Quotations shall not exceed 10 pages." in doc.text
