"""Response cache of the LLM rewriter, in DuckDB, keyed by prompt hash.

The key is the SHA-256 of the model name, system prompt, user prompt, output schema version
and token limit: the same question in the same context is sent once. Nothing secret goes
into the key or the table (no API key, no headers). Each call opens a short-lived connection,
so the cache file is never held between questions; a cache that cannot be opened (file lock
held by another process) is skipped, never fatal.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

CACHE_TABLE = "rewrite_cache"


@dataclass(frozen=True)
class CachedResponse:
    """A stored model response: its raw text and the tokens it cost when first made."""

    model: str
    response: str
    input_tokens: int
    output_tokens: int


def prompt_hash(model: str, system: str, prompt: str, schema_version: str, max_tokens: int) -> str:
    """SHA-256 (hex) of everything that determines the model's answer (never the API key)."""
    payload = json.dumps(
        {
            "model": model,
            "system": system,
            "prompt": prompt,
            "schema": schema_version,
            "max_tokens": max_tokens,
        },
        sort_keys=True,
        ensure_ascii=False,
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class RewriteCache:
    """A DuckDB table ``rewrite_cache`` in the file ``path`` (created on first write).

    ``errors`` counts reads and writes skipped because the file could not be opened.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.errors = 0

    def _connect(self):
        import duckdb

        self.path.parent.mkdir(parents=True, exist_ok=True)
        con = duckdb.connect(str(self.path))
        con.execute(
            f"CREATE TABLE IF NOT EXISTS {CACHE_TABLE} ("
            "prompt_hash VARCHAR PRIMARY KEY, model VARCHAR, response VARCHAR, "
            "input_tokens INTEGER, output_tokens INTEGER, "
            "created_at TIMESTAMP DEFAULT current_timestamp)"
        )
        return con

    def get(self, key: str) -> CachedResponse | None:
        """The cached response for ``key``, or None (also when the file is locked)."""
        import duckdb

        try:
            con = self._connect()
        except duckdb.Error:
            self.errors += 1
            return None
        try:
            row = con.execute(
                f"SELECT model, response, input_tokens, output_tokens FROM {CACHE_TABLE} "
                "WHERE prompt_hash = ?",
                [key],
            ).fetchone()
        finally:
            con.close()
        return CachedResponse(*row) if row else None

    def put(self, key: str, response: CachedResponse) -> bool:
        """Store ``response`` under ``key`` (replacing an older one). False when skipped."""
        import duckdb

        try:
            con = self._connect()
        except duckdb.Error:
            self.errors += 1
            return False
        try:
            con.execute(
                f"INSERT OR REPLACE INTO {CACHE_TABLE} "
                "(prompt_hash, model, response, input_tokens, output_tokens) "
                "VALUES (?, ?, ?, ?, ?)",
                [
                    key,
                    response.model,
                    response.response,
                    response.input_tokens,
                    response.output_tokens,
                ],
            )
        finally:
            con.close()
        return True

    def __len__(self) -> int:
        import duckdb

        try:
            con = self._connect()
        except duckdb.Error:
            return 0
        try:
            return int(con.execute(f"SELECT count(*) FROM {CACHE_TABLE}").fetchone()[0])
        finally:
            con.close()
