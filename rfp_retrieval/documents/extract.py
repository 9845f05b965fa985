"""Read an RFP file (Markdown, text, DOCX, PDF) into an ``RfpDocument``.

Text is cleaned the same way for every format: zero-width characters removed, whitespace
normalised, blank-line runs collapsed. PDFs (and text files paged with form feeds) additionally
lose their running page headers and footers and bare page numbers (``pages.clean_pages``), and
get line-end hyphenation repaired (``modern-`` / ``ization`` -> ``modernization``, while
``firm-`` / ``fixed-price`` stays ``firm-fixed-price``). DOCX is
rendered as Markdown-flavoured text (``#`` headings from Word heading styles, Word's automatic
numbers rebuilt from the numbering definitions (``docx_numbering``), bold-only paragraphs as
``**text**``, tables as rows of cells joined with `` | ``) so Markdown and Word versions of one
RFP outline the same way.

Every failure to read a file raises ``DocumentError`` naming the file and saying what to do; no
other exception type escapes ``load_document`` for a bad input file.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from rfp_retrieval.documents.docx_reader import docx_lines
from rfp_retrieval.documents.encoding import decode_text, read_bytes
from rfp_retrieval.documents.front_matter import (
    bare_date_line,
    find_issue_date,
    find_issuer_text,
    find_title,
    find_unread_issue_date,
)
from rfp_retrieval.documents.headings import is_atx_heading
from rfp_retrieval.documents.layout import LineStyle
from rfp_retrieval.documents.markdown_reader import clean_markdown
from rfp_retrieval.documents.outline import parse_outline
from rfp_retrieval.documents.pages import clean_pages
from rfp_retrieval.documents.pdf_reader import pdf_pages
from rfp_retrieval.documents.questionnaire import QUESTIONNAIRE_FORMATS, load_questionnaire
from rfp_retrieval.documents.records import DocumentError, RfpDocument
from rfp_retrieval.documents.summary import summarize

FORMATS = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".text": "text",
    ".docx": "docx",
    ".pdf": "pdf",
}
"""File extension -> ``RfpDocument.format``."""

_UNSUPPORTED_HINTS = {
    ".doc": "old Word .doc files are not read; save it as .docx or PDF",
    ".rtf": "save it as .docx or PDF",
    ".odt": "save it as .docx or PDF",
    ".xls": "old Excel .xls files are not read; save it as .xlsx or CSV",
    ".html": "save the page as PDF or copy its text into a .md file",
    ".htm": "save the page as PDF or copy its text into a .md file",
}


# A whole HTML document (a saved web page renamed .md or .txt), not Markdown with inline HTML.
def _is_pdf(p: Path) -> bool:
    """True when ``p`` starts as a PDF file does: ``%PDF-`` within its first 1024 bytes (the
    PDF specification's header rule), whatever its extension."""
    try:
        with p.open("rb") as fh:
            return b"%PDF-" in fh.read(1024)
    except OSError:
        return False  # read_bytes names the failure


def _is_docx(p: Path) -> bool:
    """True when ``p`` is a Word document whatever its extension: a ZIP archive (it starts with
    ``PK\\x03\\x04``) holding ``word/document.xml`` (the Office Open XML main part)."""
    try:
        with p.open("rb") as fh:
            if fh.read(4) != b"PK\x03\x04":
                return False
        with zipfile.ZipFile(p) as archive:
            return "word/document.xml" in archive.namelist()
    except (zipfile.BadZipFile, OSError):
        return False  # read as text: decode_text names a binary file


_HTML_PAGE = re.compile(r"\A\ufeff?\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html)\b", re.I | re.S)
# A Rich Text file (saved from Word or WordPad, renamed .md or .txt): the RTF specification's
# header is "{\rtf" followed by the version number.
_RTF_FILE = re.compile(r"\A\ufeff?\s*\{\\rtf\d?")


# Size limits per format (bytes). Real solicitations here are at most a few MB of text; a
# larger text file is almost always an export accident and would tie up a run for minutes.
MAX_FILE_BYTES = {
    "pdf": 200 * 2**20,
    "docx": 100 * 2**20,
    "default": 20 * 2**20,
}
# Office files are ZIP archives: refuse ones that inflate far beyond their size (zip bombs).
_ZIP_FORMATS = (".docx", ".xlsx", ".xlsm")
MAX_UNZIPPED_BYTES = 200 * 2**20
MAX_COMPRESSION_RATIO = 200


def _check_zip(path: Path, name: str) -> None:
    """Refuse an Office archive that would inflate beyond the limits (a file that is not a
    ZIP at all is left to the format's reader, which says so).

    Raises:
        DocumentError: uncompressed size > 200 MB or compression ratio > 200.
    """
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError):
        return
    total = sum(m.file_size for m in members)
    packed = max(sum(m.compress_size for m in members), 1)
    if total > MAX_UNZIPPED_BYTES or total / packed > MAX_COMPRESSION_RATIO:
        raise DocumentError(
            name,
            f"refused: it would inflate to {total / 2**20:.0f} MB uncompressed "
            f"(ratio {total / packed:.0f}:1), which looks like a zip bomb; re-save the "
            "document from Word or Excel",
        )


def _looks_like_markdown(raw: str) -> bool:
    """Whether a text file is Markdown: at least two ATX headings ("# Title", "## 2. Scope")."""
    return sum(map(is_atx_heading, raw.splitlines())) >= 2


def load_document(path: str | Path) -> RfpDocument:
    """Extract text, outline, title, issue date and summary from one RFP file.

    Supported: ``.md``/``.markdown``, ``.txt``, ``.docx``, ``.pdf``, and questionnaires as
    ``.csv``/``.xlsx``/``.json`` (see ``documents.questionnaire``). Returns an ``RfpDocument``
    whose ``text`` is the clean text and whose ``sections`` are the outline in document order.
    Raises ``DocumentError`` (with the path and what to do) for a missing, empty, unsupported,
    corrupt or password-protected file, and for a PDF or DOCX with no text at all.
    """
    p = Path(path)
    name = str(p)
    if not p.exists():
        raise DocumentError(name, "file not found; check the path and that the file was uploaded")
    if p.is_dir():
        raise DocumentError(name, "is a folder, not a file; pass the RFP file itself")
    if not p.is_file():  # break-it: a pipe or a device was called a folder
        raise DocumentError(
            name, "is not a regular file (a pipe, socket or device); save the RFP as a file"
        )
    ext = p.suffix.lower()
    fmt = FORMATS.get(ext) or QUESTIONNAIRE_FORMATS.get(ext)
    if fmt is None:
        hint = _UNSUPPORTED_HINTS.get(
            ext, "save it as PDF, DOCX, Markdown (.md), text (.txt), or a CSV/XLSX questionnaire"
        )
        raise DocumentError(name, f"unsupported file type '{ext or '(no extension)'}': {hint}")
    try:
        size = p.stat().st_size
    except OSError as exc:
        raise DocumentError(name, f"cannot read the file ({exc}); check its permissions") from exc
    if size == 0:
        raise DocumentError(name, "file is empty (0 bytes); re-download or re-export it")
    limit = MAX_FILE_BYTES.get(fmt, MAX_FILE_BYTES["default"])
    if size > limit:
        raise DocumentError(
            name,
            f"file is too large ({size / 2**20:.0f} MB; the limit for {fmt} is "
            f"{limit / 2**20:.0f} MB); split it or remove attachments and upload it again",
        )
    if ext in _ZIP_FORMATS:
        _check_zip(p, name)
    if fmt in QUESTIONNAIRE_FORMATS.values():
        return load_questionnaire(p, fmt)

    warnings: list[str] = []
    pages_without_text: list[int] = []
    furniture: list[str] = []
    page_of_line: list[int] | None = None
    style_of_line: list[LineStyle | None] | None = None
    ocr_pages: dict[int, float] = {}
    if fmt in ("text", "markdown") and _is_pdf(p):
        fmt = "pdf"  # a PDF saved as .md/.txt: its streams would be read as requirements
        warnings.append(f"{name} is a PDF file saved with the extension '{ext}': read as PDF")
    elif fmt in ("text", "markdown") and _is_docx(p):
        _check_zip(p, name)
        fmt = "docx"  # break-it: a DOCX saved as .md/.txt was refused as "a binary file"
        warnings.append(
            f"{name} is a Word (DOCX) file saved with the extension '{ext}': read as DOCX"
        )
    if fmt == "pdf":
        pages, pages_without_text, pdf_warnings, page_styles = pdf_pages(p, ocr_pages)
        warnings += pdf_warnings
        lines, page_of_line, furniture, style_of_line = clean_pages(pages, page_styles)
    elif fmt == "docx":
        lines = clean_markdown(docx_lines(p))
    else:
        raw, enc_warnings = decode_text(read_bytes(p), name)
        warnings += enc_warnings
        if _HTML_PAGE.match(raw):
            raise DocumentError(
                name,
                f"is a web page (HTML) saved with the extension '{ext}': its styles and "
                "scripts would be read as requirements; " + _UNSUPPORTED_HINTS[".html"],
            )
        if _RTF_FILE.match(raw):  # break-it: "{\rtf1\ansi..." was parsed as the RFP's text
            raise DocumentError(
                name,
                f"is a Rich Text (RTF) file saved with the extension '{ext}': its control words "
                "would be read as requirements; " + _UNSUPPORTED_HINTS[".rtf"],
            )
        if fmt == "text" and "\f" not in raw and _looks_like_markdown(raw):
            fmt = "markdown"  # Markdown saved as .txt: read its "#" outline and tables
            warnings.append(f"{name} has Markdown headings: read as Markdown")
        if fmt == "markdown":
            lines = clean_markdown(raw.splitlines())
        else:
            page_texts = raw.split("\f")
            if len(page_texts) > 1:
                lines, page_of_line, furniture, _ = clean_pages(
                    [t.splitlines() for t in page_texts]
                )
            else:
                lines, page_of_line, _, _ = clean_pages([raw.splitlines()])
                page_of_line = None
    if not any(line.strip() for line in lines):
        raise DocumentError(name, "contains no text; check that the right file was uploaded")

    mode = "markdown" if fmt in ("markdown", "docx") else "plain"
    sections = parse_outline(lines, mode, page_of_line, style_of_line)
    title = find_title(lines, mode)
    issue_date = find_issue_date(lines)
    if issue_date is None and furniture:
        issue_date = bare_date_line(furniture)
        if issue_date is not None:
            warnings.append(f"issue date {issue_date.isoformat()} read from the page header/footer")
    unread_issue = find_unread_issue_date(lines) if issue_date is None else None
    text = "\n".join(lines)
    summary = summarize(title, find_issuer_text(lines), sections, text)
    page_starts: list[int] = []
    if page_of_line is not None and fmt == "pdf":
        first: dict[int, int] = {}
        for i, page in enumerate(page_of_line):
            first.setdefault(page, i + 1)
        page_starts = [first.get(n, 0) for n in range(1, max(first, default=0) + 1)]
    return RfpDocument(
        path=name,
        format=fmt,
        title=title,
        text=text,
        sections=sections,
        summary=summary,
        issue_date=issue_date,
        issue_date_unread=unread_issue,
        pages_without_text=pages_without_text,
        ocr_pages=ocr_pages,
        warnings=warnings,
        page_starts=page_starts,
    )


__all__ = [
    "FORMATS",
    "MAX_FILE_BYTES",
    "load_document",
]
