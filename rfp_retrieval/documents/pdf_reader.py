"""A PDF's text lines and typography per page (pdfplumber), with the errors a bad PDF gives
(not a PDF, password-protected, encrypted, corrupt, no text layer)."""

from __future__ import annotations

import logging
from pathlib import Path

from rfp_retrieval.documents.encoding import read_bytes
from rfp_retrieval.documents.layout import LineStyle, page_lines
from rfp_retrieval.documents.ocr import (
    OCR_MAX_PAGES_ENV,
    ocr_page_cap,
    ocr_pdf_pages,
    tesseract_path,
)
from rfp_retrieval.documents.records import DocumentError


def pdf_pages(
    p: Path,
    ocr: dict[int, float] | None = None,
) -> tuple[list[list[str]], list[int], list[str], list[list[LineStyle | None]]]:
    """Text lines of each PDF page, 1-based pages without text, warnings, and the style of
    each line (``layout.page_lines``: font size, weight, paragraph gaps as blank lines).

    Pages without a text layer are read by OCR when Tesseract is installed
    (``ocr.ocr_pdf_pages``; their lines have no style); ``ocr``, when given, receives
    ``{page: mean word confidence in percent}`` for them. The pages returned as without text
    are those neither layer nor OCR could read.

    Raises:
        DocumentError: not a PDF, password-protected, encrypted, corrupt, no pages, or no
            text on any page (with OCR's outcome in the reason).
    """
    name = str(p)
    head = read_bytes(p)[:1024]
    if b"%PDF-" not in head:
        raise DocumentError(
            name,
            "is not a PDF (no %PDF header); it may be an HTML error page or a renamed "
            "file; re-download it",
        )
    password, damage = _pdf_password(p)
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
    warnings = []
    if damage:  # said once here, never as a stray stderr line of pypdf's
        warnings.append(
            f"the file is damaged ({'; '.join(damage)}); it was read, but check its text "
            "against the original or re-download it"
        )
    cap = ocr_page_cap()
    to_read = empty if cap is None else empty[:cap]
    read = ocr_pdf_pages(p, to_read, password) if to_read else {}
    if read:
        for number, reading in read.items():
            pages[number - 1] = list(reading.lines)
            styles[number - 1] = [None] * len(reading.lines)
        if ocr is not None:
            ocr.update({n: r.confidence for n, r in read.items()})
        mean = sum(r.confidence for r in read.values()) / len(read)
        shown = ", ".join(f"{n} ({r.confidence:.0f}%)" for n, r in list(read.items())[:10])
        warnings.append(
            f"{len(read)} page(s) without a text layer read by OCR (Tesseract), mean word "
            f"confidence {mean:.0f}%: {shown}" + ("..." if len(read) > 10 else "")
        )
        empty = [n for n in empty if n not in read]
    if len(empty) == len(pages):
        tried = (
            "; OCR (Tesseract) found no text on them either"
            if tesseract_path()
            else " and Tesseract is not installed (`apt-get install tesseract-ocr`)"
        )
        raise DocumentError(
            name,
            f"has no text layer on any of its {len(pages)} page(s) (scanned images?){tried}; run "
            "OCR on it (for example `ocrmypdf in.pdf out.pdf`) and upload the OCR'd PDF",
        )
    capped = [n for n in empty if n not in to_read] if read or tesseract_path() else []
    if capped:
        shown = ", ".join(map(str, capped[:10])) + ("..." if len(capped) > 10 else "")
        warnings.append(
            f"{len(capped)} page(s) without a text layer past the OCR cap of {cap} page(s) "
            f"per file were not read: {shown}; set {OCR_MAX_PAGES_ENV}=0 (no cap) or a "
            "higher number to read them, or OCR the file first (`ocrmypdf in.pdf out.pdf`)"
        )
    left = [n for n in empty if n not in capped]
    if left:
        shown = ", ".join(map(str, left[:10])) + ("..." if len(left) > 10 else "")
        warnings.append(f"{len(left)} page(s) without a text layer (not OCR'd): {shown}")
    return pages, empty, warnings, styles


class _Collect(logging.Handler):
    """Keeps pypdf's log messages (``EOF marker not found``...) instead of printing them."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = " ".join(record.getMessage().split())
        if record.levelno >= logging.WARNING and message not in self.messages:
            self.messages.append(message)


def _pdf_password(p: Path) -> tuple[str, list[str]]:
    """("" for unencrypted PDFs and PDFs that open with an empty user password, the damage
    pypdf noticed while opening it: its warnings, each once; pypdf's logger prints nothing).

    Raises ``DocumentError`` for a PDF that needs a password.
    """
    name = str(p)
    logger, collect = logging.getLogger("pypdf"), _Collect()
    propagate = logger.propagate
    logger.addHandler(collect)
    logger.propagate = False
    try:
        from pypdf import PdfReader

        reader = PdfReader(str(p), strict=False)
        if not reader.is_encrypted:
            return "", collect.messages
        if reader.decrypt(""):
            return "", collect.messages
    except Exception as exc:  # pypdf raises PdfReadError, DependencyError, ValueError...
        if "crypt" in type(exc).__name__.lower() or "password" in str(exc).lower():
            raise DocumentError(
                name, "is encrypted and cannot be opened; ask the issuer for an unprotected copy"
            ) from exc
        return "", collect.messages  # let pdfplumber report the corruption
    finally:
        logger.removeHandler(collect)
        logger.propagate = propagate
    raise DocumentError(
        name,
        "is password-protected; ask the issuer for an unprotected copy or remove the "
        "password (print to PDF) and upload again",
    )
