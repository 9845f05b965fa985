"""The question-rewriter resource: the offline rewriter, or Claude when a key is available.

``mode``: ``auto`` (Claude when an API key is found, else offline), ``offline`` or
``anthropic`` (a missing key is then an error at run time). The key is ``api_key`` (give it as
``dg.EnvVar("ANTHROPIC_API_KEY")``) or, when that is unset, the environment variable named by
``api_key_env_var``, read when a run starts, never at import. The key is never logged, never
shown in metadata (``describe()`` names only the model) and never part of a cache key.

``run_stats()`` returns the run's API totals (questions sent, cache hits, requests, retries,
failures that fell back to the offline rewriter, seconds spent waiting to retry) for asset
metadata. There is deliberately no ``teardown_after_execution`` hook to log them: Dagster
then treats the resource as a context manager, and contexts built without ``with`` (sensor
tests passing ``defs.resources``) refuse to open it.
"""

from __future__ import annotations

import os
from pathlib import Path

import dagster as dg
from pydantic import PrivateAttr

from rfp_retrieval.rewrite.anthropic_rewriter import DEFAULT_MODEL, AnthropicRewriter, RetryPolicy
from rfp_retrieval.rewrite.cache import RewriteCache
from rfp_retrieval.rewrite.chain import Rewriter
from rfp_retrieval.rewrite.offline import OfflineRewriter

REWRITER_MODES = ("auto", "offline", "anthropic")
CACHE_FILE = "rewrite_cache.duckdb"


class QuestionRewriter(dg.ConfigurableResource):
    """Owns the rewriter (and the Anthropic client) for one run.

        ``model``: Claude model name (Haiku class by default); ``base_url``: API endpoint override
        (tests, proxies); ``cache_dir``: folder of the response cache file ``rewrite_cache.duckdb``
    ("" = no cache);
        ``timeout``: seconds per request; ``max_attempts``: tries per question before the
        offline fallback; ``retry_base_delay`` / ``retry_max_delay``: seconds of exponential
        backoff between tries (a 429's ``retry-after`` is honoured up to the maximum).
    """

    mode: str = "auto"
    model: str = DEFAULT_MODEL
    api_key: str | None = None
    api_key_env_var: str = "ANTHROPIC_API_KEY"
    base_url: str | None = None
    cache_dir: str = ""
    timeout: float = 30.0
    max_attempts: int = 4
    retry_base_delay: float = 1.0
    retry_max_delay: float = 30.0
    _rewriter: Rewriter | None = PrivateAttr(default=None)

    def _key(self) -> str | None:
        return self.api_key or os.environ.get(self.api_key_env_var) or None

    def get(self) -> Rewriter:
        """The rewriter for this run (built once; the Anthropic client is created here).

        Raises ``dg.Failure`` for an unknown mode, or for ``anthropic`` mode without a key.
        """
        if self._rewriter is not None:
            return self._rewriter
        if self.mode not in REWRITER_MODES:
            raise dg.Failure(
                description=f"rewriter mode {self.mode!r} is unknown; use one of {REWRITER_MODES}"
            )
        key = self._key()
        if self.mode == "offline" or (self.mode == "auto" and not key):
            self._rewriter = OfflineRewriter()
        elif not key:
            raise dg.Failure(
                description=(
                    f"rewriter mode 'anthropic' needs an API key: set {self.api_key_env_var} "
                    "or configure api_key with dg.EnvVar"
                )
            )
        else:
            self._rewriter = AnthropicRewriter(
                model=self.model,
                api_key=key,
                base_url=self.base_url,
                cache=RewriteCache(Path(self.cache_dir) / CACHE_FILE) if self.cache_dir else None,
                timeout=self.timeout,
                retry=RetryPolicy(
                    max_attempts=self.max_attempts,
                    base_delay=self.retry_base_delay,
                    max_delay=self.retry_max_delay,
                ),
            )
        return self._rewriter

    def run_stats(self) -> dict[str, int | float]:
        """This run's API totals (``RewriterStats.as_dict()``: questions, cache_hits,
        requests, retries, failures, retry_wait_s); {} when no model rewriter was used."""
        stats = getattr(self._rewriter, "stats", None)
        return stats.as_dict() if stats is not None else {}

    def describe(self) -> str:
        """What rewrites this run's questions: ``offline`` or the model name (never the key)."""
        return self.get().name
