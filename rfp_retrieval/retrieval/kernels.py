"""Cosine kernels of the ranker: facet products, chunked candidate cosines, BLAS threads.

Every cosine the scorers read is computed here, on unit vectors (cosines in [-1, 1]). The
``default`` mode's kernel (``candidate_cosines``) gathers large candidate sets in fixed-size
chunks on one BLAS thread; the other modes take one product per facet (``facet_cosines``).
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController

from rfp_retrieval.retrieval.records import ScopeQuery

# From this many candidates on, their vector rows are gathered this many at a time: a multiple
# of 8 (no OpenBLAS gemv kernel tail, on one thread or two) and large enough that sgemm with two
# section vectors does not take OpenBLAS's small-matrix kernels (M*N*K > 1e6 at 384 dims).
_CHUNK_ROWS = 1536


class _OneBlasThread:
    """Context manager: BLAS libraries (OpenBLAS here) run single-threaded inside it.

    The chunk products are small and memory-bound; on two shared cores, waking a second BLAS
    thread for each costs more than it saves (measured: 2.5 vs 21 ms p50 for the cosines of
    ~1,900 candidates with the machine loaded). The limit is process-wide while held, so it
    is counted: the first thread to enter sets it, the last to leave restores the original.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0
        self._controller: ThreadpoolController | None = None
        self._limiter: Any = None

    def __enter__(self) -> None:
        with self._lock:
            if self._depth == 0:
                if self._controller is None:
                    self._controller = ThreadpoolController()
                self._limiter = self._controller.limit(limits=1, user_api="blas")
            self._depth += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0:
                self._limiter.restore_original_limits()
                self._limiter = None


_ONE_BLAS_THREAD = _OneBlasThread()


def section_centring(library_mean: np.ndarray | None, sections: np.ndarray) -> np.ndarray:
    """Per-section shifts that re-centre section cosines on the library, (m,) float32.

    ``library_mean`` is the mean of the library's whole-entry vectors (dim,), ``sections``
    the scope's (m, dim) unit section vectors. The library's mean cosine to section ``s`` is
    ``mu_s = library_mean . s`` (a mean of dot products is the dot product with the mean); the
    shift is ``mean(mu) - mu_s``, so every section has the same library-wide mean cosine and a
    section that every entry matches about as well (testing, operations and maintenance,
    hosting) no longer decides ``section_max`` by being generic, while the values stay on the
    cosine scale. Zeros when ``library_mean`` is None or there is one section.
    """
    sections = np.asarray(sections)
    if library_mean is None or len(sections) < 2:
        return np.zeros(len(sections), dtype=np.float32)
    mu = sections.astype(np.float64) @ np.asarray(library_mean, dtype=np.float64)
    return (mu.mean() - mu).astype(np.float32)


def candidate_cosines(
    matrices: dict[str, np.ndarray],
    idx: np.ndarray,
    scope: ScopeQuery,
    library_mean: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The facet cosines the ``default`` mode scores, for the candidates at rows ``idx``.

    Returns ``(whole, outcome, section_max)``, each (len(idx),) in the matrices' dtype
    (float32): whole-entry row x the scope's ``whole`` vector, outcome row x its ``outcome``
    vector, and the best whole-entry row x section vector (the ``technical`` vector when the
    scope has no sections), each section's cosines re-centred on the library
    (``section_centring`` with ``library_mean``, the mean whole-entry vector; no centring
    when None). Vectors are unit length, so the first two are cosines in [-1, 1] and
    ``section_max`` a re-centred cosine on the same scale.

    Below ``_CHUNK_ROWS`` candidates their rows are gathered in one copy per facet. From
    there on (a loose filter on a large library: the time is memory traffic), rows are
    gathered ``_CHUNK_ROWS`` at a time into one buffer that stays in cache while the query
    vectors are applied, so each row is read from memory once instead of copied out, read
    back and read again for the sections, and BLAS runs on one thread (``_OneBlasThread``).
    Every chunk has exactly ``_CHUNK_ROWS`` rows (the last overlaps the one before), so
    OpenBLAS runs the same kernels as on a one-shot product and a row gets the same bits
    whatever the candidate set. (Against the one-shot product on two BLAS threads, the way
    these cosines were computed before, only the up to 3 last rows of each thread's half
    can differ, by a float32 ulp: gemv kernel tails.)

    Raises:
        ValueError: an index is outside the matrices.
    """
    whole_q, outcome_q = scope.vectors["whole"], scope.vectors["outcome"]
    sections = scope.section_vectors
    if sections is None or len(sections) == 0:
        sections = scope.vectors["technical"][None, :]
    sections_t = np.asarray(sections).T
    shift = section_centring(library_mean, sections).astype(sections_t.dtype)
    whole_m, outcome_m = matrices["whole"], matrices["outcome"]
    size = len(idx)
    if size and (idx.min() < 0 or idx.max() >= min(len(whole_m), len(outcome_m))):
        raise ValueError("candidate rows outside the vector matrices")
    if size < _CHUNK_ROWS:
        whole_rows = whole_m[idx]
        section_max = (whole_rows @ sections_t + shift).max(axis=1)
        return whole_rows @ whole_q, outcome_m[idx] @ outcome_q, section_max
    whole = np.empty(size, dtype=np.result_type(whole_m, whole_q))
    outcome = np.empty(size, dtype=np.result_type(outcome_m, outcome_q))
    section_max = np.empty(size, dtype=np.result_type(whole_m, sections_t))
    whole_buf = np.empty((_CHUNK_ROWS, whole_m.shape[1]), dtype=whole_m.dtype)
    outcome_buf = whole_buf
    if (outcome_m.shape[1], outcome_m.dtype) != (whole_m.shape[1], whole_m.dtype):
        outcome_buf = np.empty((_CHUNK_ROWS, outcome_m.shape[1]), dtype=outcome_m.dtype)
    starts = list(range(0, size - _CHUNK_ROWS + 1, _CHUNK_ROWS))
    if starts[-1] + _CHUNK_ROWS < size:
        starts.append(size - _CHUNK_ROWS)
    with _ONE_BLAS_THREAD:
        for start in starts:
            part = slice(start, start + _CHUNK_ROWS)
            # mode="clip" writes straight into the buffer (bounds were checked above)
            rows = np.take(whole_m, idx[part], axis=0, out=whole_buf, mode="clip")
            whole[part] = rows @ whole_q
            section_max[part] = (rows @ sections_t + shift).max(axis=1)
            rows = np.take(outcome_m, idx[part], axis=0, out=outcome_buf, mode="clip")
            outcome[part] = rows @ outcome_q
    return whole, outcome, section_max


def facet_cosines(
    matrices: dict[str, np.ndarray], idx: np.ndarray, scope: ScopeQuery, facets: tuple[str, ...]
) -> dict[str, np.ndarray]:
    """Cosine of each candidate row ``idx`` to the scope's vector of each facet in ``facets``.

    One product per facet over every candidate at once (``matrices[f][idx] @ vectors[f]``),
    each (len(idx),) in the matrices' dtype; an empty ``idx`` gives empty float32 arrays.
    The ``facet``, ``facet+bumps`` and ``naive`` modes score with these.
    """
    if not len(idx):
        return {f: np.zeros(0, dtype=np.float32) for f in facets}
    return {f: matrices[f][idx] @ scope.vectors[f] for f in facets}


def section_cosines(
    matrices: dict[str, np.ndarray],
    idx: np.ndarray,
    scope: ScopeQuery,
    library_mean: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """``candidate_cosines`` by name: ``whole``, ``outcome`` and ``section_max`` (len(idx),)."""
    whole, outcome, section_max = candidate_cosines(matrices, idx, scope, library_mean)
    return {"whole": whole, "outcome": outcome, "section_max": section_max}
