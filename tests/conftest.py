"""Shared fixtures: the shared data folder, one embedding model per session, temp projects."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# the throwaway Postgres server: fixtures postgres_server, postgres_url, fresh_postgres_url
pytest_plugins = ["tests.pg_server"]

# Expected rankings are written for fp32 vectors; bf16 (auto on CPUs that have it) moves
# near-ties. tests/test_embedding_precision.py checks the bf16 path explicitly.
os.environ.setdefault("RFP_RETRIEVAL_PRECISION", "fp32")

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data`` (public documents are read in place, never copied)."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data folder {SHARED_DATA} is missing; these tests read it in place")
    return SHARED_DATA


@pytest.fixture(scope="session")
def embedder():
    """The bundled all-MiniLM-L6-v2, loaded once per test session."""
    from rfp_retrieval.retrieval.embedding import Embedder

    model = Embedder()
    model.load()
    return model
