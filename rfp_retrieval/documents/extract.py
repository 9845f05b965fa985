"""Read an RFP file (Markdown, text, DOCX, PDF) into an ``RfpDocument``.

Text is cleaned the same way for every format: zero-width characters removed, whitespace
normalised, blank-line runs collapsed. PDFs additionally lose their running page headers and
footers and bare page numbers, and get line-end hyphenation repaired (``modern-`` / ``ization``
-> ``modernization``, while ``firm-`` / ``fixed-price`` stays ``firm-fixed-price``). DOCX is
rendered as Markdown-flavoured text (``#`` headings from Word heading styles, Word's automatic
numbers rebuilt from the numbering definitions (``docx_numbering``), bold-only paragraphs as
``**text**``, tables as rows of cells joined with `` | ``) so Markdown and Word versions of one
RFP outline the same way.

Every failure to read a file raises ``DocumentError`` naming the file and saying what to do; no
other exception type escapes ``load_document`` for a bad input file.
"""

from __future__ import annotations

import math
import re
import zipfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from rfp_retrieval.documents.docx_numbering import NumberingTracker
from rfp_retrieval.documents.front_matter import (
    bare_date_line,
    find_issue_date,
    find_issuer_text,
    find_title,
)
from rfp_retrieval.documents.layout import LineStyle, page_lines
from rfp_retrieval.documents.outline import is_atx_heading, parse_outline
from rfp_retrieval.documents.questionnaire import QUESTIONNAIRE_FORMATS, load_questionnaire
from rfp_retrieval.documents.records import DocumentError, RfpDocument
from rfp_retrieval.documents.summary import summarize
from rfp_retrieval.documents.text import normalise_line

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
_HTML_PAGE = re.compile(r"\A\ufeff?\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html)\b", re.I | re.S)


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
    import zipfile

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
    if not p.is_file():
        raise DocumentError(name, "is a folder, not a file; pass the RFP file itself")
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
    if fmt == "pdf":
        pages, pages_without_text, pdf_warnings, page_styles = _pdf_pages(p)
        warnings += pdf_warnings
        lines, page_of_line, furniture, style_of_line = _clean_pages(pages, page_styles)
    elif fmt == "docx":
        lines = _clean_markdown(_docx_lines(p))
    else:
        raw, enc_warnings = decode_text(_read_bytes(p), name)
        warnings += enc_warnings
        if _HTML_PAGE.match(raw):
            raise DocumentError(
                name,
                f"is a web page (HTML) saved with the extension '{ext}': its styles and "
                "scripts would be read as requirements; " + _UNSUPPORTED_HINTS[".html"],
            )
        if fmt == "text" and "\f" not in raw and _looks_like_markdown(raw):
            fmt = "markdown"  # Markdown saved as .txt: read its "#" outline and tables
            warnings.append(f"{name} has Markdown headings: read as Markdown")
        if fmt == "markdown":
            lines = _clean_markdown(raw.splitlines())
        else:
            page_texts = raw.split("\f")
            if len(page_texts) > 1:
                lines, page_of_line, furniture, _ = _clean_pages(
                    [t.splitlines() for t in page_texts]
                )
            else:
                lines, page_of_line, _, _ = _clean_pages([raw.splitlines()])
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
        pages_without_text=pages_without_text,
        warnings=warnings,
        page_starts=page_starts,
    )


def _read_bytes(p: Path) -> bytes:
    try:
        return p.read_bytes()
    except OSError as exc:
        raise DocumentError(str(p), f"cannot read the file ({exc}); check its permissions") from exc


def decode_text(data: bytes, name: str = "<bytes>") -> tuple[str, list[str]]:
    """Decode a text file: UTF-8 (with or without BOM), UTF-16 (BOM, or NUL-byte pattern),
    else Windows-1252.

    Returns (text, warnings); a warning is added when the cp1252 fallback was used. Raises
    ``DocumentError`` when a UTF-16 BOM is present but the bytes do not decode.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), []
        except UnicodeDecodeError as exc:
            raise DocumentError(
                name,
                f"has a UTF-16 byte-order mark but is not valid UTF-16 ({exc}); re-save it "
                "as UTF-8",
            ) from exc
    head = data[:2000]
    if head.count(b"\x00") > len(head) // 4:  # UTF-16 saved without a byte-order mark
        encoding = (
            "utf-16-le" if head[1::2].count(b"\x00") > head[0::2].count(b"\x00") else ("utf-16-be")
        )
        try:
            return data.decode(encoding), [f"{name}: no byte-order mark; decoded as {encoding}"]
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError:
        pass
    text = data.decode("cp1252", errors="replace")
    return text, [f"{name}: not UTF-8; decoded as Windows-1252 (cp1252)"]


# --------------------------------------------------------------------------------------------
# Markdown and DOCX

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_HTML_TABLE = re.compile(r"<table\b.*?</table>", re.S | re.I)
_RULE_LINE = re.compile(r"^\s*[|+]?(?:\s*:?[-=]{3,}:?\s*[|+])+\s*:?[-=]*:?\s*$|^\s*\+[-=+:]+\+\s*$")
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!$|<>&])")


def _html_table_to_rows(match: re.Match[str]) -> str:
    html_text = match.group(0).replace("\n", " ")
    rows = re.findall(r"<tr\b.*?</tr>", html_text, flags=re.S | re.I)
    out = []
    for row in rows:
        cells = re.findall(r"<t[dh]\b[^>]*>(.*?)</t[dh]>", row, flags=re.S | re.I)
        texts = [re.sub(r"<[^>]+>", " ", c) for c in cells]
        texts = [re.sub(r"\s+", " ", t).strip() for t in texts]
        out.append("| " + " | ".join(texts) + " |")
    return "\n" + "\n".join(out) + "\n"


def _clean_markdown(raw_lines: list[str]) -> list[str]:
    """Markdown lines with comments removed, HTML tables turned into pipe rows, escapes undone."""
    import html

    text = "\n".join(raw_lines)
    text = _HTML_COMMENT.sub("", text)
    text = _HTML_TABLE.sub(_html_table_to_rows, text)
    # a line break inside a pipe-table cell stays inside its row
    text = re.sub(
        r"(?m)^(\s*\|.*)$",
        lambda m: re.sub(r"\s*<br\s*/?>\s*", " ", m.group(1), flags=re.I),
        text,
    )
    text = re.sub(r"<br\s*/?>", "\n", text, flags=re.I)
    text = re.sub(r"</?(?:span|div|p|sup|sub|u|font)\b[^>]*>", "", text, flags=re.I)
    out: list[str] = []
    raw = _pandoc_tables(_join_empty_atx(_setext_to_atx(text.splitlines())))
    for line in raw:
        if _RULE_LINE.match(line) or _SIMPLE_TABLE_RULE.match(line):
            continue
        line = _MD_ESCAPE.sub(r"\1", line)
        line = html.unescape(line)
        line = re.sub(r"^(\s*)(?:>\s?)+", r"\1", line)  # blockquote markers
        line = re.sub(r"^(\s*[-*+]\s+)(?:>\s?)+", r"\1", line)  # "  - > item" (pandoc)
        out.append(normalise_line(line))
    return _collapse_blank(out)


_SETEXT = re.compile(r"^(=+|-{2,})\s*$")
_SIMPLE_TABLE_RULE = re.compile(r"^\s*-{2,}(?:\s+-{2,})+\s*$|^\s{2,}-{3,}\s*$")


def _setext_to_atx(lines: list[str]) -> list[str]:
    """Pandoc-style ``Title`` / ``=====`` (H1) and ``Title`` / ``-----`` (H2) as ``#`` headings."""
    out: list[str] = []
    for line in lines:
        m = _SETEXT.match(line)
        if m and out and out[-1].strip() and not re.match(r"^\s*(?:[|#>]|[*+-]\s)", out[-1]):
            prev = out.pop().strip()
            out.append(("# " if m.group(1)[0] == "=" else "## ") + prev)
            continue
        out.append(line)
    return out


_EMPTY_ATX = re.compile(r"^\s{0,3}(#{1,6})\s*$")


_GRID_RULE = re.compile(r"^\s*\+(?:[-=:]+\+)+\s*$")
_COLUMN_RULE = re.compile(r"^\s*-{2,}(?:\s+-{2,})+\s*$")
_FULL_RULE = re.compile(r"^\s*-{10,}\s*$")


def _pandoc_tables(lines: list[str]) -> list[str]:
    """Pandoc grid tables (``+---+``) and simple / multiline tables (``---- ----`` column
    rules) as ``| a | b |`` rows, one row per table row, multi-line cells joined.

    A pandoc hard break (trailing backslash) inside a cell becomes a space. Lines that are not
    part of such a table pass through unchanged.
    """
    out: list[str] = []
    i = 0
    n = len(lines)
    while i < n:
        if _GRID_RULE.match(lines[i]):
            j = i
            while j < n and (_GRID_RULE.match(lines[j]) or lines[j].lstrip().startswith("|")):
                j += 1
            out += _grid_rows(lines[i:j])
            i = j
            continue
        if _COLUMN_RULE.match(lines[i]):
            table, start = _simple_table(lines, i)
            if table:
                del out[len(out) - (i - start) :]  # the header lines already copied
                out += ["", *table[0], ""]
                i = table[1]
                continue
        out.append(lines[i])
        i += 1
    return out


def _cell_text(parts: list[str]) -> str:
    text = " ".join(p.strip().rstrip("\\").strip() for p in parts if p.strip())
    return re.sub(r"\s+", " ", text).strip()


def _grid_rows(block: list[str]) -> list[str]:
    rule = next(ln for ln in block if _GRID_RULE.match(ln))
    bounds = [k for k, ch in enumerate(rule) if ch == "+"]
    rows: list[str] = []
    current: list[list[str]] = []

    def flush() -> None:
        if current:
            cells = [_cell_text([row[c] for row in current]) for c in range(len(bounds) - 1)]
            if any(cells):
                rows.append("| " + " | ".join(cells) + " |")
            current.clear()

    for line in block:
        if _GRID_RULE.match(line):
            flush()
            continue
        padded = line.ljust(bounds[-1] + 1)
        current.append([padded[bounds[c] + 1 : bounds[c + 1]] for c in range(len(bounds) - 1)])
    flush()
    return ["", *rows, ""]


def _simple_table(lines: list[str], at: int) -> tuple[tuple[list[str], int] | None, int]:
    """((rows, end index), first line index) of the pandoc simple/multiline table whose column
    rule is ``lines[at]``; (None, at) when it is not one."""
    spans = [(m.start(), m.end()) for m in re.finditer(r"-{2,}", lines[at])]
    header: list[str] = []
    k = at - 1
    while k >= 0 and lines[k].strip() and not _FULL_RULE.match(lines[k]):
        header.insert(0, lines[k])
        k -= 1
    multiline = k >= 0 and bool(_FULL_RULE.match(lines[k]))
    start = k if multiline else k + 1
    rows: list[list[str]] = []
    current: list[str] = []
    j = at + 1
    while j < len(lines):
        line = lines[j]
        if _FULL_RULE.match(line) or _COLUMN_RULE.match(line):
            j += 1
            break
        if not line.strip():
            if current:
                rows.append(current)
                current = []
            if not multiline:
                break
            j += 1
            continue
        current.append(line)
        if not multiline:
            rows.append(current)
            current = []
        j += 1
    if current:
        rows.append(current)
    if not rows:
        return None, at

    def cells(physical: list[str]) -> list[str]:
        out = []
        for c, (a, _) in enumerate(spans):
            end = spans[c + 1][0] if c + 1 < len(spans) else None
            begin = a if c else 0
            out.append(_cell_text([ln[begin:end] if len(ln) > begin else "" for ln in physical]))
        return out

    table = ["| " + " | ".join(cells(header)) + " |"] if header else []
    table += ["| " + " | ".join(cells(row)) + " |" for row in rows]
    return (table, j), start


def _join_empty_atx(lines: list[str]) -> list[str]:
    """``####`` alone on a line with its text on the next line (a pandoc export slip) is one
    heading: ``#### 9.6.4 Phase 2 - Oral Interview``."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        broken = re.match(r"^(\s{0,3}#{1,6}\s.*?)\\\s*$", lines[i])
        if broken and i + 1 < len(lines) and lines[i + 1].strip():
            # "### **\\" + "Rules**": a heading broken by a pandoc hard line break
            out.append(f"{broken.group(1).rstrip()} {lines[i + 1].strip()}")
            i += 2
            continue
        m = _EMPTY_ATX.match(lines[i])
        if (
            m
            and i + 1 < len(lines)
            and lines[i + 1].strip()
            and not lines[i + 1].lstrip().startswith(("#", "|", "<"))
        ):
            out.append(f"{m.group(1)} {lines[i + 1].strip()}")
            i += 2
            continue
        out.append(lines[i])
        i += 1
    return out


def _collapse_blank(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if not line.strip():
            if out and out[-1] == "":
                continue
            out.append("")
        else:
            out.append(line)
    while out and out[0] == "":
        out.pop(0)
    while out and out[-1] == "":
        out.pop()
    return out


def _iter_block_items(parent) -> Iterator[object]:
    """Paragraphs and tables of a python-docx body in document order (content controls too)."""
    from docx.oxml.ns import qn
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    for child in parent.element.body.iterchildren() if hasattr(parent, "element") else []:
        yield from _walk(child, parent, qn, Paragraph, Table)


def _walk(child, parent, qn, paragraph_cls, table_cls) -> Iterator[object]:
    if child.tag == qn("w:p"):
        yield paragraph_cls(child, parent)
    elif child.tag == qn("w:tbl"):
        yield table_cls(child, parent)
    elif child.tag == qn("w:sdt"):
        content = child.find(qn("w:sdtContent"))
        if content is not None:
            for sub in content.iterchildren():
                yield from _walk(sub, parent, qn, paragraph_cls, table_cls)


def _all_bold(paragraph) -> bool:
    """Every run with text is bold (directly or through its character style)."""
    runs = [r for r in paragraph.runs if r.text.strip()]
    return bool(runs) and all(
        r.bold or (r.style is not None and r.style.font is not None and r.style.font.bold)
        for r in runs
    )


def _docx_lines(p: Path) -> list[str]:
    """A DOCX body as Markdown-flavoured lines: ``#`` headings from styles, tables as pipe rows."""
    name = str(p)
    if not zipfile.is_zipfile(p):
        raise DocumentError(
            name,
            "is not a Word .docx package (not a zip file); if it is an old .doc, save it "
            "as .docx or PDF, otherwise re-download it",
        )
    try:
        import docx

        document = docx.Document(str(p))
        numbering = NumberingTracker(document)
        lines: list[str] = []
        for block in _iter_block_items(document):
            if block.__class__.__name__ == "Table":
                for row in block.rows:
                    cells: list[str] = []
                    for cell in row.cells:
                        text = re.sub(r"\s+", " ", cell.text).strip()
                        if not cells or cells[-1] != text:  # merged cells repeat
                            cells.append(text)
                    if any(cells):
                        lines.append("| " + " | ".join(cells) + " |")
                lines.append("")
                continue
            text = re.sub(r"[ \t]+", " ", block.text.replace("\t", " ")).strip()
            text = text.replace("\n", " ")
            if not text:
                continue
            style = (block.style.name if block.style is not None else "") or ""
            heading = re.match(r"Heading\s*(\d)", style, re.I)
            kind, label = numbering.label(block)
            if kind == "number" and not text.startswith(label):
                text = f"{label} {text}"  # Word's automatic number, rebuilt
            if style.lower() == "title":
                lines.append("# " + text)
            elif heading:
                lines.append("#" * min(6, max(1, int(heading.group(1)))) + " " + text)
            elif kind == "number":
                lines.append(text)
            elif kind == "bullet" or "list" in style.lower():
                lines.append("- " + text)
            elif _all_bold(block) and len(text.split()) <= 12:
                lines.append(f"**{text}**")  # a bold paragraph, as Markdown writes it
            else:
                lines.append(text)
            lines.append("")
        return lines
    except DocumentError:
        raise
    except Exception as exc:  # python-docx raises KeyError, BadZipFile, lxml errors...
        raise DocumentError(
            name,
            f"cannot be read as a Word document ({type(exc).__name__}: {exc}); open it in "
            "Word and save it again as .docx, or export it to PDF",
        ) from exc


# --------------------------------------------------------------------------------------------
# PDF


def _pdf_pages(
    p: Path,
) -> tuple[list[list[str]], list[int], list[str], list[list[LineStyle | None]]]:
    """Text lines of each PDF page, 1-based pages without text, warnings, and the style of
    each line (``layout.page_lines``: font size, weight, paragraph gaps as blank lines)."""
    name = str(p)
    head = _read_bytes(p)[:1024]
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


_PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$|^[-\u2013]\s*\d{1,4}\s*[-\u2013]$|"
    r"^\d{1,4}\s*\|\s*page$|^page\s+\d{1,4}\s+of\s+\d{1,4}.*$",
    re.I,
)


def _furniture_key(line: str) -> str:
    return re.sub(r"\d+", "#", re.sub(r"\s+", " ", line.strip().lower()))


def _clean_pages(
    pages: list[list[str]], styles: list[list[LineStyle | None]] | None = None
) -> tuple[list[str], list[int], list[str], list[LineStyle | None]]:
    """Clean page texts into one list of lines with the page and style of each line.

    Removes bare page numbers at the top or bottom of a page, and lines repeated at the top or
    bottom of at least half the pages (three pages or more): running headers and footers.
    Repairs words split by letter spacing (``S EALED``) and line-end hyphenation. ``styles``
    (PDF only) runs parallel to ``pages``. Returns (lines, page_of_line, removed header/footer
    lines, style_of_line).
    """
    normalised = [[normalise_line(line) for line in page] for page in pages]
    page_styles = styles or [[None] * len(page) for page in pages]
    repeated: set[str] = set()
    if len(normalised) >= 3:
        counts: Counter[str] = Counter()
        for page in normalised:
            content = [ln for ln in page if ln.strip()]
            counts.update({_furniture_key(ln) for ln in content[:3] + content[-3:]})
        threshold = max(3, math.ceil(0.5 * len(normalised)))
        repeated = {k for k, c in counts.items() if c >= threshold and k.strip("# ")}
    removed: list[str] = []
    items: list[tuple[str, int, LineStyle | None]] = []
    for number, (page, pstyles) in enumerate(zip(normalised, page_styles, strict=True), start=1):
        content_idx = [i for i, ln in enumerate(page) if ln.strip()]
        edges = set(content_idx[:3] + content_idx[-3:])
        for i, line in enumerate(page):
            if i in edges:
                if _PAGE_NUMBER.match(line.strip()) and (
                    i in content_idx[:1] or i in content_idx[-1:]
                ):
                    continue
                if _furniture_key(line) in repeated:
                    removed.append(line)
                    continue
            items.append((line, number, pstyles[i] if i < len(pstyles) else None))
    items = _repair_split_words(items)
    items = _repair_hyphenation(items)
    lines: list[str] = []
    page_of_line: list[int] = []
    style_of_line: list[LineStyle | None] = []
    for line, number, style in items:
        if not line.strip():
            if lines and lines[-1] == "":
                continue
            line, style = "", None
        lines.append(line)
        page_of_line.append(number)
        style_of_line.append(style)
    while lines and lines[-1] == "":
        lines.pop()
        page_of_line.pop()
        style_of_line.pop()
    while lines and lines[0] == "":
        lines.pop(0)
        page_of_line.pop(0)
        style_of_line.pop(0)
    return lines, page_of_line, removed, style_of_line


_SPLIT_CAPS = re.compile(r"\b([A-Z]) ([A-Z]{2,})\b")


def _repair_split_words(
    items: list[tuple[str, int, LineStyle | None]],
) -> list[tuple[str, int, LineStyle | None]]:
    """Join capitals split by PDF letter spacing: ``S EALED`` -> ``SEALED``.

    A single capital followed by a capitalised run is joined when the joined word occurs
    elsewhere in the document (any case) and the run alone does not (``A VENDOR`` stays).
    """
    vocabulary: set[str] = set()
    for line, _, _ in items:  # words seen whole, outside the split pairs themselves
        vocabulary.update(w.lower() for w in _WORD.findall(_SPLIT_CAPS.sub(" ", line)))

    def join(m: re.Match[str]) -> str:
        head, tail = m.group(1), m.group(2)
        if (head + tail).lower() in vocabulary and tail.lower() not in vocabulary:
            return head + tail
        return m.group(0)

    out = []
    for line, page, style in items:
        if _SPLIT_CAPS.search(line):
            line = _SPLIT_CAPS.sub(join, line)
        out.append((line, page, style))
    return out


# Parts that make a real hyphenated compound when split at a line end.
_COMPOUND_FIRST = frozenset(
    "self non co cross multi well high low long short full part real third first second end "
    "open web cloud user mission time cost risk data firm fixed sub pre post anti ex e x near "
    "off on out over under up down all case follow hands state top small large in".split()
)
_COMPOUND_SECOND = frozenset(
    "based level term party price time owned wide specific related driven facing only free "
    "making friendly grade like up down out in on off over making led centric ready focused "
    "oriented critical intensive scale sized wise enabled compliant".split()
)
_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")


def _repair_hyphenation(items: list[tuple]) -> list[tuple]:
    """Join words split by a hyphen at a line end, keeping real compounds hyphenated.

    A split ``A-`` / ``B`` becomes ``AB`` when ``AB`` occurs elsewhere in the document or no
    compound evidence exists, and stays ``A-B`` when ``A-B`` occurs elsewhere, when ``B`` is
    itself hyphenated (``firm-`` / ``fixed-price``), when either part is a common compound part
    (``self-``, ``-based``, ``-level``...), or when ``B`` starts with a digit or capital (``J-`` /
    ``3``).
    """
    vocabulary: Counter[str] = Counter()
    for line, *_ in items:
        for w in _WORD.findall(line):
            vocabulary[w.lower()] += 1
    out = list(items)
    for i in range(len(out) - 1):
        line, *rest_i = out[i]
        m = re.search(r"(?:^|(?<=[\s(\"“/]))([A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)-$", line)
        if not m or line.endswith("--"):
            continue
        j = i + 1
        while j < len(out) and not out[j][0].strip():
            j += 1
        if j >= len(out) or j != i + 1:
            continue
        nxt, *rest_j = out[j]
        lead = re.match(r"^(\s*)(\S+)(.*)$", nxt)
        if not lead:
            continue
        token = lead.group(2)
        head = re.match(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*", token)
        if not head:
            continue
        first, second = m.group(1), head.group(0)
        keep = _keep_hyphen(first, second, vocabulary)
        joined = first + ("-" if keep else "") + token
        out[i] = (line[: m.start(1)] + joined, *rest_i)
        out[j] = (lead.group(3).lstrip(), *rest_j)
    return out


def _keep_hyphen(first: str, second: str, vocabulary: Counter[str]) -> bool:
    if not first[-1:].isalpha() or not second[:1].isalpha() or second[:1].isupper():
        return True
    if "-" in second or "-" in first:
        return True
    f, s = first.lower(), second.lower()
    if vocabulary.get(f"{f}-{s}", 0) > 0:
        return True
    if vocabulary.get(f + s, 0) > 0:
        return False
    if len(f) <= 1:
        return True
    return f in _COMPOUND_FIRST or s in _COMPOUND_SECOND
