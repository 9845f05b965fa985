"""Which files of a library folder are read, and why any other file is not (one rule for the
past-performance library and the answer library).

A library folder is read whole, subfolders included: spreadsheets (``.csv``, ``.xlsx``) and
Markdown (``.md``, ``.markdown``), whatever the case of the suffix. Hidden files and folders
(``.name``), Office lock files (``~$name``) and README files are skipped without a word: they
are not library content. Every other file is listed as not read, with the reason and what to
do, so a library file saved in another format is never dropped silently (break-it: a
spreadsheet in a subfolder, ``PP-951.MD`` and an ``.xls`` were ignored with no message).
"""

from __future__ import annotations

from pathlib import Path

SPREADSHEET_SUFFIXES = (".csv", ".xlsx")
MARKDOWN_SUFFIXES = (".md", ".markdown")

_ADVICE = {
    ".xls": "the old Excel format (.xls) is not read: save it as .xlsx",
    ".xlsm": "a macro workbook (.xlsm) is not read: save it as .xlsx",
    ".ods": "an OpenDocument sheet (.ods) is not read: save it as .xlsx or .csv",
    ".tsv": "a .tsv file is not read: save it as .csv",
    ".txt": "plain text (.txt) is not read: save it as Markdown (.md)",
    ".docx": "a Word file (.docx) is not read: save it as Markdown (.md)",
    ".doc": "a Word file (.doc) is not read: save it as Markdown (.md)",
    ".rtf": "an .rtf file is not read: save it as Markdown (.md)",
    ".pdf": "a PDF is not read: copy its text into Markdown (.md)",
    ".json": "JSON is not a library format",
    ".jsonl": "JSON lines are not a library format",
}


def is_skipped(path: Path, root: Path) -> bool:
    """True for a file that is not library content: hidden (``.x`` file or folder under
    ``root``), an Office lock file (``~$x``) or a README."""
    parts = path.relative_to(root).parts
    if any(p.startswith(".") for p in parts) or path.name.startswith("~$"):
        return True
    return path.name.lower().startswith("readme")


def library_files(root: Path) -> tuple[list[Path], list[Path], list[tuple[Path, str]]]:
    """The files of a library folder: (spreadsheets, Markdown files, not read).

    Each list is sorted by path relative to ``root``; ``not read`` pairs a file with the
    reason, ending in what to do (``reads`` sentence of ``not_read_reason``). Symbolic links
    that loop or point nowhere are not files and are not listed.
    """
    spreadsheets: list[Path] = []
    markdown: list[Path] = []
    not_read: list[tuple[Path, str]] = []
    for path in sorted(root.rglob("*"), key=lambda p: p.relative_to(root).as_posix()):
        if not path.is_file() or is_skipped(path, root):
            continue
        suffix = path.suffix.lower()
        if suffix in SPREADSHEET_SUFFIXES:
            spreadsheets.append(path)
        elif suffix in MARKDOWN_SUFFIXES:
            markdown.append(path)
        else:
            not_read.append((path, not_read_reason(path)))
    return spreadsheets, markdown, not_read


def not_read_reason(path: Path) -> str:
    """Why ``path`` is not read, and what to do: ``"not read: the old Excel format (.xls) is not
    read: save it as .xlsx"``; any other suffix names the formats a library reads."""
    suffix = path.suffix.lower()
    reads = "a library reads .csv and .xlsx spreadsheets and Markdown (.md) files"
    advice = _ADVICE.get(suffix, f"{suffix or 'a file without a suffix'} is not a library format")
    return f"not read: {advice} ({reads})"
