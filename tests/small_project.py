"""A small temporary project (a slice of the sample library) so pipeline tests stay quick."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import numpy as np

from tests.conftest import REPO

SAMPLE_LIBRARY = REPO / "sample" / "library"
MIAMI_RFP = REPO / "sample" / "inbox" / "Miami-Dade 311 RFP.md"


def small_library(folder: Path, rows: int = 24) -> Path:
    """``folder`` holding the first ``rows`` records of the sample past-performance matrix
    (no write-ups). Returns ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    source = SAMPLE_LIBRARY / "past_performance_matrix.csv"
    with source.open(newline="", encoding="utf-8") as f:
        records = list(csv.reader(f))
    with (folder / "past_performance_matrix.csv").open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(records[: rows + 1])
    return folder


def small_answers(folder: Path, topics: tuple[str, ...] = ("case-management", "api")) -> Path:
    """``folder`` holding a few topic folders of the sample answer library."""
    folder.mkdir(parents=True, exist_ok=True)
    for topic in topics:
        shutil.copytree(REPO / "sample" / "answers" / topic, folder / topic)
    return folder


def project_config(folder: Path) -> Path:
    """``folder/rfp-retrieval.yaml`` naming ``library``, ``answers`` and ``inbox`` beside it
    (the caller fills them), the store in ``var/``, briefs in ``out/``. Returns its path."""
    config = folder / "rfp-retrieval.yaml"
    config.write_text(
        "library_dir: library\nanswers_dir: answers\ninbox_dir: inbox\n"
        "db_path: var/store.duckdb\noutput_dir: out\noverrides_dir: overrides\n",
        encoding="utf-8",
    )
    return config


class StubEncoder:
    """An encoder giving every text the unit vector (1, 0): each cosine with a library vector
    is that vector's first coordinate, so a test sets an entry's cosine by its vector."""

    model_id = "stub-2d"

    def encode(self, texts: list[str]) -> np.ndarray:
        """(len(texts), 2) float32 rows (1, 0)."""
        return np.tile(np.array([1.0, 0.0], dtype=np.float32), (len(texts), 1))
