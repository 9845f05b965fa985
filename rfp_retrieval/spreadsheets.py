"""What an XLSX workbook says beyond its cell values: formulas, read once for both readers.

openpyxl gives a formula cell's saved result (``data_only=True``) or its formula, never both.
A workbook written by a program that does not calculate (a script, an export tool) holds
formulas with no saved result; the library and questionnaire readers both need to tell such a
cell from an empty one, so they share this one pass.
"""

from __future__ import annotations

from pathlib import Path


def formula_cells(path: Path) -> dict[str, dict[tuple[int, int], str]]:
    """Every formula in the workbook: ``{sheet title: {(row, column): "=..."}}`` (1-based).

    Streams the file (read-only mode), reading every cell whatever extent the sheet's stored
    ``<dimension>`` claims (some writers store a stale one). A cell whose formula is here and
    whose ``data_only`` value is None was saved without its result. Raises what
    ``openpyxl.load_workbook`` raises for a damaged file.
    """
    import warnings

    import openpyxl  # imported here: only spreadsheets need it

    # "Data Validation extension is not supported": read-only sheets are parsed while iterated,
    # so the filter covers the whole pass
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        book = openpyxl.load_workbook(path, read_only=True, data_only=False)
        try:
            for sheet in book.worksheets:
                sheet.reset_dimensions()  # read every cell, not the stored (maybe stale) extent
            return {
                sheet.title: {
                    (r, c): value
                    for r, row in enumerate(sheet.iter_rows(values_only=True), 1)
                    for c, value in enumerate(row, 1)
                    if isinstance(value, str) and value.startswith("=")
                }
                for sheet in book.worksheets
            }
        finally:
            book.close()
