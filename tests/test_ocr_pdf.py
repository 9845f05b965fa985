"""Pages without a text layer are read by Tesseract when it is installed (``documents.ocr``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rfp_retrieval.documents import ocr
from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.records import DocumentError

SCANNED_LINES = [
    "1. Scope of Work",
    "",
    "The Offeror shall describe its approach to records migration.",
    "",
    "2. Proposal Format",
    "",
    "Proposals must not exceed 10 pages.",
    "",
    "3. Evaluation",
    "",
    "Quotations will be evaluated on technical approach and price.",
]


def _scanned_pdf(path: Path, lines: list[str]) -> Path:
    """An image-only PDF (no text layer): the lines drawn on a white page with Pillow."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("L", (1700, 2200), 255)  # US Letter at 200 dpi
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=36)
    y = 150
    for line in lines:
        if line:
            draw.text((150, y), line, fill=0, font=font)
        y += 60
    image.save(path, "PDF", resolution=200.0)
    return path


def test_parse_tsv_groups_words_into_lines_and_paragraphs():
    header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight"
    rows = [
        "5\t1\t1\t1\t1\t1\t0\t0\t1\t1\t96.5\t1.",
        "5\t1\t1\t1\t1\t2\t0\t0\t1\t1\t93.5\tScope",
        "4\t1\t1\t1\t2\t0\t0\t0\t1\t1\t-1\t",
        "5\t1\t1\t1\t2\t1\t0\t0\t1\t1\t90\tof",
        "5\t1\t1\t2\t1\t1\t0\t0\t1\t1\t80\tWork",
    ]
    page = ocr.parse_tsv(header + "\tconf\ttext\n" + "\n".join(rows) + "\n")
    assert page.lines == ["1. Scope", "of", "", "Work"]
    assert page.confidence == 90.0


def test_parse_tsv_keeps_a_sentence_whole_across_a_paragraph_break():
    header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight"
    words = [
        (1, 1, "Each"),
        (1, 1, "reference"),
        (1, 1, "shall"),
        (1, 1, "be"),
        (1, 1, "performed"),
        (1, 1, "within"),
        (2, 1, "the"),
        (2, 1, "last"),
        (2, 1, "five"),
        (2, 1, "years."),
        (3, 1, "Offerors"),
        (3, 1, "must"),
        (3, 1, "sign."),
    ]
    rows = [f"5\t1\t1\t{par}\t{line}\t1\t0\t0\t1\t1\t95\t{w}" for par, line, w in words]
    page = ocr.parse_tsv(header + "\tconf\ttext\n" + "\n".join(rows) + "\n")
    assert page.lines == [
        "Each reference shall be performed within",
        "the last five years.",
        "",
        "Offerors must sign.",
    ]


@pytest.mark.skipif(ocr.tesseract_path() is None, reason="tesseract is not installed")
def test_scanned_pdf_is_read_by_ocr_with_its_confidence(tmp_path: Path):
    doc = load_document(_scanned_pdf(tmp_path / "scanned.pdf", SCANNED_LINES))
    assert list(doc.ocr_pages) == [1]
    assert doc.ocr_pages[1] > 80.0
    assert doc.pages_without_text == []
    assert "describe its approach to records migration" in doc.text
    assert [(s.number, s.heading) for s in doc.sections] == [
        ("1.", "Scope of Work"),
        ("2.", "Proposal Format"),
        ("3.", "Evaluation"),
    ]
    assert any("read by OCR (Tesseract)" in w for w in doc.warnings)


def test_without_tesseract_a_scanned_pdf_gives_the_clear_error(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("RFP_RETRIEVAL_OCR", "off")
    path = _scanned_pdf(tmp_path / "scanned.pdf", SCANNED_LINES)
    message = r"no text layer on any of its 1 page\(s\).*Tesseract is not installed.*ocrmypdf"
    with pytest.raises(DocumentError, match=message) as err:
        load_document(path)
    assert err.value.path == str(path)


def test_a_huge_page_is_rendered_for_ocr_under_the_pixel_cap():
    from rfp_retrieval.documents.ocr import MAX_OCR_PIXELS, OCR_DPI, ocr_scale

    letter = ocr_scale(612, 792)  # 8.5 x 11 in: full 300 dpi
    assert letter == OCR_DPI / 72
    poster = ocr_scale(170 * 72, 220 * 72)  # 170 x 220 in
    pixels = (170 * 72 * poster) * (220 * 72 * poster)
    assert pixels == pytest.approx(MAX_OCR_PIXELS, rel=1e-9)
    assert round(poster * 72) == 33  # dpi handed to Tesseract: sqrt(40e6 / (170 * 220))


def _scanned_pages(path: Path, count: int) -> Path:
    """An image-only PDF of ``count`` pages, page N reading "N. Part N" and one sentence."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default(size=36)
    images = []
    for number in range(1, count + 1):
        image = Image.new("L", (1700, 2200), 255)
        draw = ImageDraw.Draw(image)
        draw.text((150, 150), f"{number}. Part {number}", fill=0, font=font)
        draw.text((150, 270), "The Offeror shall describe its staffing.", fill=0, font=font)
        images.append(image)
    images[0].save(path, "PDF", resolution=200.0, save_all=True, append_images=images[1:])
    return path


@pytest.mark.skipif(ocr.tesseract_path() is None, reason="tesseract is not installed")
def test_pages_past_the_ocr_cap_are_left_unread_and_the_warning_says_how_to_read_them(
    tmp_path: Path, monkeypatch
):
    """Break-it: a long scanned PDF was OCR'd page after page with no cap (35 s a page on a
    loaded machine)."""
    monkeypatch.setenv("RFP_RETRIEVAL_OCR_MAX_PAGES", "1")
    doc = load_document(_scanned_pages(tmp_path / "scanned.pdf", 3))
    assert list(doc.ocr_pages) == [1]
    assert doc.pages_without_text == [2, 3]
    assert (
        "2 page(s) without a text layer past the OCR cap of 1 page(s) per file were not read: "
        "2, 3; set RFP_RETRIEVAL_OCR_MAX_PAGES=0 (no cap)" in " ".join(doc.warnings)
    )
    assert not any("(not OCR'd)" in w for w in doc.warnings)


@pytest.mark.parametrize(
    ("value", "cap"), [(None, 100), ("", 100), ("7", 7), (" 12 ", 12), ("0", None)]
)
def test_the_ocr_page_cap_setting(monkeypatch, value, cap):
    monkeypatch.delenv("RFP_RETRIEVAL_OCR_MAX_PAGES", raising=False)
    if value is not None:
        monkeypatch.setenv("RFP_RETRIEVAL_OCR_MAX_PAGES", value)
    assert ocr.ocr_page_cap() == cap


@pytest.mark.parametrize("value", ["lots", "-5", "2.5", "1e3", "٣"])
def test_a_bad_ocr_page_cap_is_an_error_naming_the_variable(monkeypatch, tmp_path, value):
    """Break-it: ``RFP_RETRIEVAL_OCR_MAX_PAGES=lots`` (or ``-5``) was read as the default cap
    without a word; now the library call raises and every RFP-reading command exits 2 with the
    variable, the value and what it accepts, before any file is read."""
    from typer.testing import CliRunner

    from rfp_retrieval.cli import app

    monkeypatch.setenv("RFP_RETRIEVAL_OCR_MAX_PAGES", value)
    expected = (
        f"RFP_RETRIEVAL_OCR_MAX_PAGES={value!r} is not a page count: set a whole number of "
        "pages (0 for no cap; unset, the cap is 100)"
    )
    with pytest.raises(ocr.OcrSettingError) as raised:
        ocr.ocr_page_cap()
    assert str(raised.value) == expected
    rfp = tmp_path / "rfp.md"
    rfp.write_text("# 1. Scope\n\nThe Offeror shall describe its approach.\n", encoding="utf-8")
    runner = CliRunner()
    for args in (
        ["parse", str(rfp)],
        ["matrix", str(rfp), "--out", str(tmp_path / "m.csv")],
        ["run", "--db", str(tmp_path / "x.duckdb"), str(rfp)],
    ):
        res = runner.invoke(app, args)
        assert res.exit_code == 2, (args, res.output)
        assert res.exception is None or isinstance(res.exception, SystemExit)
        assert f"Settings error: {expected}" in " ".join(res.output.split()), args
    assert not (tmp_path / "m.csv").exists() and not (tmp_path / "x.duckdb").exists()


@pytest.mark.skipif(ocr.tesseract_path() is None, reason="tesseract is not installed")
def test_a_language_pack_tesseract_lacks_is_an_error_naming_it(monkeypatch, tmp_path):
    """Break-it: ``RFP_RETRIEVAL_OCR_LANG=fra`` without the French pack failed every page in
    Tesseract and the PDF was reported as one on which "OCR found no text"."""
    from typer.testing import CliRunner

    from rfp_retrieval.cli import app

    installed = ocr.installed_languages(ocr.tesseract_path())
    assert "eng" in installed
    for value in ("eng", " eng ", "+".join(sorted(installed))):
        monkeypatch.setenv("RFP_RETRIEVAL_OCR_LANG", value)
        assert ocr.ocr_language() == value.strip()
    missing = "zzz"
    assert missing not in installed
    monkeypatch.setenv("RFP_RETRIEVAL_OCR_LANG", f"eng+{missing}")
    expected = (
        f"RFP_RETRIEVAL_OCR_LANG='eng+{missing}': no Tesseract language pack {missing} is "
        f"installed (installed: {', '.join(sorted(installed))}); install it (Debian/Ubuntu: "
        f"apt-get install tesseract-ocr-{missing}) or unset the variable"
    )
    with pytest.raises(ocr.OcrSettingError) as raised:
        ocr.ocr_language()
    assert str(raised.value) == expected
    with pytest.raises(ocr.OcrSettingError):  # the reader says so too, not "no text found"
        load_document(_scanned_pages(tmp_path / "scanned.pdf", 1))
    rfp = tmp_path / "rfp.md"
    rfp.write_text("# 1. Scope\n\nThe Offeror shall describe its approach.\n", encoding="utf-8")
    res = CliRunner().invoke(app, ["parse", str(rfp)])
    assert res.exit_code == 2
    assert "".join(f"Settings error: {expected}".split()) in "".join(res.output.split())


def test_without_tesseract_the_language_setting_is_not_checked(monkeypatch):
    monkeypatch.setattr(ocr, "tesseract_path", lambda: None)
    monkeypatch.setenv("RFP_RETRIEVAL_OCR_LANG", "zzz")
    assert ocr.ocr_language() == "zzz"  # nothing is OCR'd; the reader says pages have no text
