"""OCR of PDF pages without a text layer: the page rendered by pypdfium2, read by Tesseract.

A scanned solicitation (or a scanned signature page, amendment or form inside one) has pages
with no text layer. When the ``tesseract`` binary is installed (Debian/Ubuntu: ``apt-get
install tesseract-ocr``; macOS: ``brew install tesseract``), each such page is rendered at
``OCR_DPI`` and read with ``tesseract ... tsv``; the words come back grouped into lines and
paragraphs (a blank line between paragraphs, as for a PDF's text layer) with Tesseract's
per-word confidence. When it is not installed, nothing is OCR'd and the reader reports the
pages without text as before. No network; no Python dependency beyond pypdfium2 (already used
by pdfplumber).
"""

from __future__ import annotations

import csv
import functools
import io
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

OCR_DPI = 300
"""Render resolution for OCR: Tesseract's documented sweet spot for body text (300 dpi)."""

MAX_OCR_PAGES = 100
"""Most pages of one PDF read by OCR (``RFP_RETRIEVAL_OCR_MAX_PAGES`` sets another cap, 0
for none): a page takes seconds of Tesseract (35 s each on a loaded two-core machine), so a
400-page scanned appendix would hold its RFP's run for hours (break-it). Pages past the cap
stay pages without text and the reader's warning says why (``pdf_reader``)."""

OCR_MAX_PAGES_ENV = "RFP_RETRIEVAL_OCR_MAX_PAGES"


class OcrSettingError(ValueError):
    """An OCR environment variable holds a value it does not accept (the message names the
    variable, the value and what it accepts)."""


def ocr_page_cap() -> int | None:
    """The OCR page cap: ``$RFP_RETRIEVAL_OCR_MAX_PAGES`` (0: no cap, returned as None), or
    ``MAX_OCR_PAGES`` when it is unset or empty.

    Raises:
        OcrSettingError: the variable is set to anything but a whole number of pages
            (``lots``, ``-5``, ``2.5``): break-it, such a value was silently read as the
            default cap, so a user who meant "no cap" never knew pages were left unread.
    """
    raw = os.environ.get(OCR_MAX_PAGES_ENV, "").strip()
    if not raw:
        return MAX_OCR_PAGES
    if not (raw.isascii() and raw.isdigit()):
        raise OcrSettingError(
            f"{OCR_MAX_PAGES_ENV}={raw!r} is not a page count: set a whole number of pages "
            f"(0 for no cap; unset, the cap is {MAX_OCR_PAGES})"
        )
    return int(raw) or None


MAX_OCR_PIXELS = 40_000_000
"""Largest page image rendered for OCR (pixels; ~ a 22 x 20 inch page at 300 dpi). A larger
page (a drawing sheet, a poster) is rendered at a lower resolution so that it fits: an
uncapped 170 x 220 inch page at 300 dpi would need about 13 GB of memory."""


def ocr_scale(width_pt: float, height_pt: float) -> float:
    """Render scale (pixels per PDF point) for a page of ``width_pt`` x ``height_pt`` points:
    ``OCR_DPI / 72``, lowered so the image holds at most ``MAX_OCR_PIXELS`` pixels."""
    scale = OCR_DPI / 72
    area = max(width_pt, 1.0) * max(height_pt, 1.0) * scale * scale
    if area > MAX_OCR_PIXELS:
        scale *= (MAX_OCR_PIXELS / area) ** 0.5
    return scale


OCR_LANGUAGE = "eng"
"""Tesseract language pack used (``-l``); override with ``RFP_RETRIEVAL_OCR_LANG``."""
OCR_LANG_ENV = "RFP_RETRIEVAL_OCR_LANG"

OCR_TIMEOUT_S = 120
"""Seconds one page may take in Tesseract before it is given up (the page stays unread)."""

MIN_WORD_CONFIDENCE = 0.0
"""Words Tesseract scores below this (0..100; -1 marks a non-word box) are dropped."""


@dataclass(frozen=True)
class OcrPage:
    """The OCR reading of one page: text lines (``""`` between paragraphs) and the mean word
    confidence in percent (0..100; 0 when no word was read)."""

    lines: list[str]
    confidence: float


def tesseract_path() -> str | None:
    """Path of the ``tesseract`` binary, or None when it is not installed (or OCR is turned off
    with ``RFP_RETRIEVAL_OCR=off``)."""
    if os.environ.get("RFP_RETRIEVAL_OCR", "").strip().lower() in {"off", "0", "no", "false"}:
        return None
    return shutil.which("tesseract")


@functools.lru_cache(maxsize=4)
def installed_languages(binary: str) -> frozenset[str]:
    """The language packs ``tesseract --list-langs`` names (empty when it cannot say)."""
    try:
        done = subprocess.run(
            [binary, "--list-langs"], capture_output=True, text=True, timeout=30, check=True
        )
    except (subprocess.SubprocessError, OSError):
        return frozenset()
    lines = (done.stdout or done.stderr).splitlines()
    return frozenset(line.strip() for line in lines[1:] if line.strip())


def ocr_language() -> str:
    """The Tesseract language(s) to read with: ``$RFP_RETRIEVAL_OCR_LANG`` (``eng``,
    ``eng+spa``), else ``OCR_LANGUAGE``.

    Raises:
        OcrSettingError: Tesseract is installed and lacks a pack the variable names (break-it:
            ``fra`` without its pack failed every page, and the PDF was reported as one on
            which "OCR found no text"); the message names the variable, the missing and the
            installed packs, and how to install one.
    """
    raw = os.environ.get(OCR_LANG_ENV, "").strip()
    if not raw:
        return OCR_LANGUAGE
    binary = tesseract_path()
    installed = installed_languages(binary) if binary else frozenset()
    missing = [part for part in raw.split("+") if part not in installed]
    if installed and missing:
        raise OcrSettingError(
            f"{OCR_LANG_ENV}={raw!r}: no Tesseract language pack {', '.join(missing)} is "
            f"installed (installed: {', '.join(sorted(installed))}); install it (Debian/Ubuntu: "
            f"apt-get install tesseract-ocr-{missing[0]}) or unset the variable"
        )
    return raw


def parse_tsv(tsv: str) -> OcrPage:
    """Lines and mean confidence from Tesseract's TSV output (columns ``level page_num
    block_num par_num line_num word_num left top width height conf text``)."""
    lines: list[str] = []
    words: list[str] = []
    confidences: list[float] = []
    current: tuple[str, str, str] | None = None
    paragraph: tuple[str, str] | None = None
    for row in csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE):
        text = (row.get("text") or "").strip()
        try:
            conf = float(row.get("conf") or -1)
        except ValueError:
            conf = -1.0
        if not text or conf < MIN_WORD_CONFIDENCE:
            continue
        key = (row.get("block_num", ""), row.get("par_num", ""), row.get("line_num", ""))
        if key != current:
            if words:
                lines.append(" ".join(words))
                words = []
            if paragraph is not None and key[:2] != paragraph:
                lines.append("")
            current, paragraph = key, key[:2]
        words.append(text)
        confidences.append(conf)
    if words:
        lines.append(" ".join(words))
    mean = round(sum(confidences) / len(confidences), 1) if confidences else 0.0
    return OcrPage(_join_wrapped(lines), mean)


def _join_wrapped(lines: list[str]) -> list[str]:
    """``lines`` without the paragraph breaks Tesseract puts inside a sentence: a break after a
    line that ends without closing punctuation and before a line opening in lower case
    (``... performed within`` / ``the last five years``) is a wrapped line, as the text layer of
    a PDF reads it; a sentence never opens in lower case."""
    out: list[str] = []
    for i, line in enumerate(lines):
        if (
            line == ""
            and out
            and out[-1]
            and out[-1][-1] not in ".:;?!"
            and i + 1 < len(lines)
            and lines[i + 1][:1].islower()
        ):
            continue
        out.append(line)
    return out


def ocr_pdf_pages(pdf: Path, pages: list[int], password: str = "") -> dict[int, OcrPage]:
    """OCR the 1-based ``pages`` of ``pdf``; ``{}`` when Tesseract is not installed.

    A page Tesseract fails on (an error, a missing language pack, ``OCR_TIMEOUT_S``) is left
    out of the result, so it stays a page without text. Never raises for a bad page.
    Shape: ``{page: OcrPage}``.
    """
    binary = tesseract_path()
    if binary is None or not pages:
        return {}
    import pypdfium2 as pdfium

    language = ocr_language()
    out: dict[int, OcrPage] = {}
    try:
        document = pdfium.PdfDocument(str(pdf), password=password or None)
    except pdfium.PdfiumError:
        return {}
    try:
        with tempfile.TemporaryDirectory(prefix="rfp-ocr-") as tmp:
            for number in pages:
                image = Path(tmp) / f"page-{number}.png"
                try:
                    page = document[number - 1]
                    scale = ocr_scale(*page.get_size())
                    bitmap = page.render(scale=scale)
                    bitmap.to_pil().save(image)
                    page.close()
                    dpi = str(round(scale * 72))
                    done = subprocess.run(
                        [binary, str(image), "stdout", "-l", language, "--dpi", dpi] + ["tsv"],
                        capture_output=True,
                        text=True,
                        timeout=OCR_TIMEOUT_S,
                        check=True,
                    )
                except (
                    subprocess.SubprocessError,
                    OSError,
                    ValueError,
                    IndexError,
                    MemoryError,
                    pdfium.PdfiumError,
                ):
                    continue
                reading = parse_tsv(done.stdout)
                if any(line.strip() for line in reading.lines):
                    out[number] = reading
    finally:
        document.close()
    return out
