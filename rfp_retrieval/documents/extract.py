"""Read an RFP file (Markdown, text, DOCX, PDF) into an ``RfpDocument``.

Text is cleaned the same way for every format: zero-width characters removed, whitespace
normalised, blank-line runs collapsed. PDFs additionally lose their running page headers and
footers and bare page numbers, and get line-end hyphenation repaired (``modern-`` / ``ization``
-> ``modernization``, while ``firm-`` / ``fixed-price`` stays ``firm-fixed-price``). DOCX is
rendered as Markdown-flavoured text (``#`` headings from Word heading styles, tables as rows of
cells joined with `` | ``) so Markdown and Word versions of one RFP outline the same way.

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

from rfp_retrieval.documents.front_matter import (
    bare_date_line,
    find_issue_date,
    find_issuer_text,
    find_title,
)
from rfp_retrieval.documents.outline import parse_outline
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
    if fmt in QUESTIONNAIRE_FORMATS.values():
        return load_questionnaire(p, fmt)

    warnings: list[str] = []
    pages_without_text: list[int] = []
    furniture: list[str] = []
    page_of_line: list[int] | None = None
    if fmt == "pdf":
        pages, pages_without_text, pdf_warnings = _pdf_pages(p)
        warnings += pdf_warnings
        lines, page_of_line, furniture = _clean_pages(pages)
    elif fmt == "docx":
        lines = _clean_markdown(_docx_lines(p))
    else:
        raw, enc_warnings = decode_text(_read_bytes(p), name)
        warnings += enc_warnings
        if fmt == "markdown":
            lines = _clean_markdown(raw.splitlines())
        else:
            page_texts = raw.split("\f")
            if len(page_texts) > 1:
                lines, page_of_line, furniture = _clean_pages([t.splitlines() for t in page_texts])
            else:
                lines, page_of_line, _ = _clean_pages([raw.splitlines()])
                page_of_line = None
    if not any(line.strip() for line in lines):
        raise DocumentError(name, "contains no text; check that the right file was uploaded")

    mode = "markdown" if fmt in ("markdown", "docx") else "plain"
    sections = parse_outline(lines, mode, page_of_line)
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
    text = re.sub(r"<br\s*/?>", "\n", text, flags=re.I)
    text = re.sub(r"</?(?:span|div|p|sup|sub|u|font)\b[^>]*>", "", text, flags=re.I)
    out: list[str] = []
    raw = _setext_to_atx(text.splitlines())
    for line in raw:
        if _RULE_LINE.match(line) or _SIMPLE_TABLE_RULE.match(line):
            continue
        line = _MD_ESCAPE.sub(r"\1", line)
        line = html.unescape(line)
        line = re.sub(r"^(\s*)(?:>\s?)+", r"\1", line)  # blockquote markers
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
            if style.lower() == "title":
                lines.append("# " + text)
            elif heading:
                lines.append("#" * min(6, max(1, int(heading.group(1)))) + " " + text)
            elif (
                "list" in style.lower()
                or block._p.pPr is not None
                and block._p.pPr.numPr is not None
            ):
                lines.append("- " + text)
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


def _pdf_pages(p: Path) -> tuple[list[list[str]], list[int], list[str]]:
    """Text lines of each PDF page, 1-based pages without text, and warnings."""
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
        empty: list[int] = []
        with pdfplumber.open(str(p), password=password) as pdf:
            for number, page in enumerate(pdf.pages, start=1):
                text = page.extract_text() or ""
                text = re.sub(r"\(cid:\d+\)", "", text)
                if not text.strip():
                    empty.append(number)
                pages.append(text.splitlines())
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
    return pages, empty, warnings


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


def _clean_pages(pages: list[list[str]]) -> tuple[list[str], list[int], list[str]]:
    """Clean page texts into one list of lines with the page of each line.

    Removes bare page numbers at the top or bottom of a page, and lines repeated at the top or
    bottom of at least half the pages (three pages or more): running headers and footers.
    Returns (lines, page_of_line, removed header/footer lines).
    """
    normalised = [[normalise_line(line) for line in page] for page in pages]
    repeated: set[str] = set()
    if len(normalised) >= 3:
        counts: Counter[str] = Counter()
        for page in normalised:
            content = [ln for ln in page if ln.strip()]
            counts.update({_furniture_key(ln) for ln in content[:3] + content[-3:]})
        threshold = max(3, math.ceil(0.5 * len(normalised)))
        repeated = {k for k, c in counts.items() if c >= threshold and k.strip("# ")}
    removed: list[str] = []
    items: list[tuple[str, int]] = []
    for number, page in enumerate(normalised, start=1):
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
            items.append((line, number))
    items = _repair_hyphenation(items)
    lines: list[str] = []
    page_of_line: list[int] = []
    for line, number in items:
        if not line.strip():
            if lines and lines[-1] == "":
                continue
            line = ""
        lines.append(line)
        page_of_line.append(number)
    while lines and lines[-1] == "":
        lines.pop()
        page_of_line.pop()
    while lines and lines[0] == "":
        lines.pop(0)
        page_of_line.pop(0)
    return lines, page_of_line, removed


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


def _repair_hyphenation(items: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Join words split by a hyphen at a line end, keeping real compounds hyphenated.

    A split ``A-`` / ``B`` becomes ``AB`` when ``AB`` occurs elsewhere in the document or no
    compound evidence exists, and stays ``A-B`` when ``A-B`` occurs elsewhere, when ``B`` is
    itself hyphenated (``firm-`` / ``fixed-price``), when either part is a common compound part
    (``self-``, ``-based``, ``-level``...), or when ``B`` starts with a digit or capital (``J-`` /
    ``3``).
    """
    vocabulary: Counter[str] = Counter()
    for line, _ in items:
        for w in _WORD.findall(line):
            vocabulary[w.lower()] += 1
    out = list(items)
    for i in range(len(out) - 1):
        line, page = out[i]
        m = re.search(r"(?:^|(?<=[\s(\"“/]))([A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)-$", line)
        if not m or line.endswith("--"):
            continue
        j = i + 1
        while j < len(out) and not out[j][0].strip():
            j += 1
        if j >= len(out) or j != i + 1:
            continue
        nxt, nxt_page = out[j]
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
        out[i] = (line[: m.start(1)] + joined, page)
        out[j] = (lead.group(3).lstrip(), nxt_page)
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
