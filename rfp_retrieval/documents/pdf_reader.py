"""A PDF's text lines and typography per page (pdfplumber), with the errors a bad PDF gives
(not a PDF, password-protected, encrypted, corrupt, no text layer)."""

from __future__ import annotations

from pathlib import Path

from rfp_retrieval.documents.encoding import read_bytes
from rfp_retrieval.documents.layout import LineStyle, page_lines
from rfp_retrieval.documents.records import DocumentError


def pdf_pages(
    p: Path,
) -> tuple[list[list[str]], list[int], list[str], list[list[LineStyle | None]]]:
    """Text lines of each PDF page, 1-based pages without text, warnings, and the style of
    each line (``layout.page_lines``: font size, weight, paragraph gaps as blank lines)."""
    name = str(p)
    head = read_bytes(p)[:1024]
    if b"%PDF-" not in head:
        raise DocumentError(
            name,
            "is not a PDF (no %PDF header); it may be an HTML error page or a renamed "
            "file; re-download it",
        )
    password = _pdf_password(p)
    try:
        import pdfplumber
        from pdfminer.pdfdocument import PDFPasswordIncorrect

        pages: list[list[str]] = []
        styles: list[list[LineStyle | None]] = []
        empty: list[int] = []
        with pdfplumber.open(str(p), password=password) as pdf:
            for number, page in enumerate(pdf.pages, start=1):
                found = page_lines(page)
                if not any(text.strip() for text, _ in found):
                    empty.append(number)
                pages.append([text for text, _ in found])
                styles.append([style for _, style in found])
                page.flush_cache()  # keep memory flat on long documents
    except PDFPasswordIncorrect as exc:
        raise DocumentError(
            name,
            "is password-protected; ask the issuer for an unprotected copy or remove the "
            "password (print to PDF) and upload again",
        ) from exc
    except DocumentError:
        raise
    except Exception as exc:  # pdfminer raises PDFSyntaxError, PSEOF, KeyError, ValueError...
        raise DocumentError(
            name,
            f"is corrupt or truncated and cannot be parsed ({type(exc).__name__}: {exc}); "
            "re-download it or re-export it to PDF",
        ) from exc
    if not pages:
        raise DocumentError(name, "has no pages; re-download it or re-export it to PDF")
    if len(empty) == len(pages):
        raise DocumentError(
            name,
            f"has no text layer on any of its {len(pages)} page(s) (scanned images?); run "
            "OCR on it (for example `ocrmypdf in.pdf out.pdf`) and upload the OCR'd PDF",
        )
    warnings = []
    if empty:
        shown = ", ".join(map(str, empty[:10])) + ("..." if len(empty) > 10 else "")
        warnings.append(f"{len(empty)} page(s) without a text layer (not OCR'd): {shown}")
    return pages, empty, warnings, styles


def _pdf_password(p: Path) -> str:
    """ "" for unencrypted PDFs and PDFs that open with an empty user password.

    Raises ``DocumentError`` for a PDF that needs a password.
    """
    name = str(p)
    try:
        from pypdf import PdfReader

        reader = PdfReader(str(p), strict=False)
        if not reader.is_encrypted:
            return ""
        if reader.decrypt(""):
            return ""
    except Exception as exc:  # pypdf raises PdfReadError, DependencyError, ValueError...
        if "crypt" in type(exc).__name__.lower() or "password" in str(exc).lower():
            raise DocumentError(
                name, "is encrypted and cannot be opened; ask the issuer for an unprotected copy"
            ) from exc
        return ""  # let pdfplumber report the corruption
    raise DocumentError(
        name,
        "is password-protected; ask the issuer for an unprotected copy or remove the "
        "password (print to PDF) and upload again",
    )
