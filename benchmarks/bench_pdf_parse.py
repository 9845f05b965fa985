"""PDF parsing speed: pages per second over the shared PDFs, and the 390-page GSA FPDS-NG RFP.

Run from the repository root:

    .venv/bin/python benchmarks/bench_pdf_parse.py            # every shared PDF + the GSA RFP
    .venv/bin/python benchmarks/bench_pdf_parse.py --skip-gsa  # without the 390-page RFP

Prints, per file, pages, seconds for ``load_document`` (extraction, cleaning, outline,
summary), its CPU seconds (this process; an OCR subprocess is not counted), seconds for
``find_questions``, pages per second (wall clock and per CPU second), sections and questions;
then the totals and the load average. Files are read in place from ``../shared/data`` (the
script says so and exits 2 when the folder is missing). Wall-clock timings depend on the
machine and its load: quote the CPU figures and the load average beside them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from rfp_retrieval.documents.extract import load_document  # noqa: E402
from rfp_retrieval.documents.questions import find_questions  # noqa: E402

DATA = REPO.parent / "shared" / "data"
GSA = "gsa-fpds-ng-rfp-gs00m02pdr0008.pdf"


def _pages(path: Path) -> int:
    from pypdf import PdfReader

    return len(PdfReader(str(path), strict=False).pages)


def bench(path: Path) -> dict:
    """Time one PDF: pages, parse seconds, question seconds, sections, questions."""
    pages = _pages(path)
    start, cpu_start = time.perf_counter(), time.process_time()
    doc = load_document(path)
    parsed, cpu_parsed = time.perf_counter(), time.process_time()
    questions = find_questions(doc)
    done = time.perf_counter()
    return {
        "file": path.name,
        "pages": pages,
        "parse_s": parsed - start,
        "parse_cpu_s": cpu_parsed - cpu_start,
        "questions_s": done - parsed,
        "sections": len(doc.sections),
        "questions": len(questions),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-gsa", action="store_true", help="leave out the 390-page RFP")
    args = parser.parse_args(argv)
    folders = [DATA / "rfps", DATA / "questionnaires"]
    if not all(f.is_dir() for f in folders):
        print(f"{DATA} is missing: the PDFs are read in place from ../shared/data", file=sys.stderr)
        return 2
    pdfs = sorted(p for f in folders for p in f.glob("*.pdf") if p.name != GSA)
    if not args.skip_gsa:
        pdfs.append(DATA / "rfps" / GSA)
    print(
        f"{'file':60} {'pages':>5} {'parse s':>8} {'pages/s':>8} {'cpu s':>7} {'find s':>7} "
        f"{'sec':>5} {'q':>5}"
    )
    rows = []
    for path in pdfs:
        row = bench(path)
        rows.append(row)
        rate = row["pages"] / row["parse_s"] if row["parse_s"] else 0.0
        print(
            f"{row['file'][:60]:60} {row['pages']:5d} {row['parse_s']:8.2f} {rate:8.1f} "
            f"{row['parse_cpu_s']:7.2f} {row['questions_s']:7.2f} {row['sections']:5d} "
            f"{row['questions']:5d}",
            flush=True,
        )
    others = [r for r in rows if r["file"] != GSA]
    pages = sum(r["pages"] for r in others)
    seconds = sum(r["parse_s"] for r in others)
    cpu = sum(r["parse_cpu_s"] for r in others)
    print(
        f"\nall PDFs but {GSA}: {pages} pages in {seconds:.1f} s = {pages / seconds:.1f} pages/s "
        f"(CPU {cpu:.1f} s = {pages / cpu:.1f} pages per CPU second)"
    )
    gsa = next((r for r in rows if r["file"] == GSA), None)
    if gsa is not None:
        print(
            f"{GSA}: {gsa['pages']} pages parsed in {gsa['parse_s']:.1f} s "
            f"({gsa['pages'] / gsa['parse_s']:.1f} pages/s), questions found in "
            f"{gsa['questions_s']:.1f} s: {gsa['sections']} sections, {gsa['questions']} questions"
            f" (CPU {gsa['parse_cpu_s']:.1f} s = {gsa['pages'] / gsa['parse_cpu_s']:.1f} pages per "
            "CPU second)"
        )
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average (1, 5, 15 min): {load} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
