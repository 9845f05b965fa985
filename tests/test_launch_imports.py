"""Import what a run needs when it needs it (issue 15, speed): loading the code location and
the launcher, as ``rfp-retrieval run``, ``ui`` and every run process under ``dagster dev`` do,
imports none of the heavy libraries; the first asset that embeds, parses a PDF or a DOCX, or
validates the library imports its own."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import REPO

HEAVY = (
    "torch",
    "sentence_transformers",
    "transformers",
    "sklearn",
    "great_expectations",
    "pypdf",
    "pdfplumber",
    "fitz",
    "docx",
    "openpyxl",
    "anthropic",
    "pandas",
)
"""Libraries that cost seconds to import (sentence-transformers alone ~5 s on a quiet
machine, benchmarks/README.md) and that only some steps use."""


def test_loading_the_code_location_and_a_launcher_imports_no_heavy_library(tmp_path):
    code = (
        "import json, sys; from pathlib import Path; import launch; "
        "from rfp_retrieval.settings import load_settings; "
        f"s = load_settings(Path({str(REPO)!r}), {{'db_path': {str(tmp_path / 's.duckdb')!r}}}); "
        f"launch.Launcher(s, Path({str(tmp_path / 'home')!r})); import definitions; "
        f"print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
