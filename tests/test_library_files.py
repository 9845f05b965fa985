"""Which files a library folder reads (``library.files``): break-it found a spreadsheet in a
subfolder, ``PP-951.MD`` and an ``.xls`` ignored without a word."""

from pathlib import Path

from rfp_retrieval.library.files import library_files


def test_every_file_is_read_or_named_with_what_to_do(tmp_path: Path):
    names = ("FY2024/pp.csv", "top.XLSX", "w/PP-951.MD", "w/PP-952.markdown", "old.xls")
    names += ("notes.txt", ".hidden/x.csv", "~$top.xlsx", "README.md", "w/README.txt")
    for name in names:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x", encoding="utf-8")
    sheets, markdown, not_read = library_files(tmp_path)
    rel = [p.relative_to(tmp_path).as_posix() for p in sheets]
    assert rel == ["FY2024/pp.csv", "top.XLSX"]
    assert [p.name for p in markdown] == ["PP-951.MD", "PP-952.markdown"]
    assert [(p.name, reason) for p, reason in not_read] == [
        ("notes.txt", "not read: plain text (.txt) is not read: save it as Markdown (.md) (a "
         "library reads .csv and .xlsx spreadsheets and Markdown (.md) files)"),
        ("old.xls", "not read: the old Excel format (.xls) is not read: save it as .xlsx (a "
         "library reads .csv and .xlsx spreadsheets and Markdown (.md) files)"),
    ]  # fmt: skip
