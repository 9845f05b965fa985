"""Peak memory of reading a large XLSX questionnaire (issue 16.8: <= 1 GB at 10,000 rows).

Run from the repository root:

    .venv/bin/python benchmarks/bench_questionnaire_memory.py                 # 10,000 rows
    .venv/bin/python benchmarks/bench_questionnaire_memory.py --rows 2000 --repo /path/to/old

Writes a questionnaire workbook in a temporary folder (a title banner merged over the
columns, a header row, ``--rows`` question rows whose Category cells are merged down in runs
of 50, every row formatted over ``--styled-columns`` columns, and one formatted empty cell in
column ``--stray-column`` as a template's select-all formatting leaves: a full load pads every
row to it), then reads
it with ``load_document`` + ``find_questions`` in a fresh subprocess of ``--repo``'s code
(default: this repository) and prints rows, sections, questions, seconds (of which
``load_document``) and the
subprocess's peak RSS in MB (``VmHWM`` from ``/proc/self/status``; Linux only). Figures are
wall-clock and memory on whatever machine runs it: say which when you quote them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

_CHILD = """
import json, sys, time
from pathlib import Path
from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions
start = time.perf_counter()
doc = load_document(Path(sys.argv[1]))
loaded = time.perf_counter() - start
questions = find_questions(doc)
seconds = time.perf_counter() - start
status = Path("/proc/self/status").read_text()
peak_kb = int(next(l for l in status.splitlines() if l.startswith("VmHWM:")).split()[1])
print(json.dumps({"sections": len(doc.sections), "questions": len(questions),
                  "load_seconds": loaded, "seconds": seconds, "peak_rss_mb": peak_kb / 1024}))
"""

CATEGORIES = ["Hosting", "Access Control", "Encryption", "Logging", "Backup", "Incident Response"]


def write_questionnaire(path: Path, rows: int, styled_columns: int, stray_column: int) -> None:
    """A questionnaire workbook of ``rows`` question rows (see the module docstring)."""
    import openpyxl
    from openpyxl.styles import Border, PatternFill, Side

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Security Questionnaire"
    sheet.append(["Vendor security questionnaire: answer every row"])
    sheet.merge_cells(start_row=1, start_column=1, end_row=1, end_column=6)
    sheet.append(["Category", "ID", "Question", "Guidance", "Response", "Comments"])
    fill = PatternFill("solid", fgColor="FFF2CC")
    thin = Side(style="thin")
    border = Border(left=thin, right=thin, top=thin, bottom=thin)
    run = 50
    for i in range(rows):
        category = f"{CATEGORIES[(i // run) % len(CATEGORIES)]} {i // run + 1}"
        sheet.append(
            [
                category if i % run == 0 else None,
                f"Q{i + 1}",
                f"Describe how your service handles {category.lower()} control {i + 1}.",
                "Answer Yes, No or Partial and explain.",
                None,
                None,
            ]
        )
        r = i + 3
        for c in range(1, styled_columns + 1):
            cell = sheet.cell(row=r, column=c)
            cell.fill = fill
            cell.border = border
    if stray_column:
        sheet.cell(row=1, column=stray_column).fill = fill
    for start in range(0, rows, run):
        end = min(start + run, rows) - 1
        if end > start:
            sheet.merge_cells(start_row=start + 3, start_column=1, end_row=end + 3, end_column=1)
    book.save(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--styled-columns", type=int, default=6)
    parser.add_argument("--stray-column", type=int, default=1000, help="0: none")
    parser.add_argument("--repo", type=Path, default=REPO, help="code to measure")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "large-questionnaire.xlsx"
        start = time.perf_counter()
        write_questionnaire(path, args.rows, args.styled_columns, args.stray_column)
        written = time.perf_counter() - start
        child = subprocess.run(
            [sys.executable, "-c", _CHILD, str(path)],
            cwd=args.repo,
            env={"PYTHONPATH": str(args.repo), "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            check=False,
        )
        if child.returncode != 0:
            print(child.stderr, file=sys.stderr)
            return 1
        result = json.loads(child.stdout.strip().splitlines()[-1])
        size_mb = path.stat().st_size / 2**20
    print(
        f"rows {args.rows:,}  styled columns {args.styled_columns}  stray column "
        f"{args.stray_column}  file {size_mb:.1f} MB "
        f"(written in {written:.1f} s)  sections {result['sections']}  "
        f"questions {result['questions']:,}  seconds {result['seconds']:.1f} "
        f"(load_document {result['load_seconds']:.1f})  "
        f"peak RSS {result['peak_rss_mb']:,.0f} MB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
