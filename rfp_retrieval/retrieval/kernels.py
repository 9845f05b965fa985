"""Cosine kernels of the ranker: facet products, chunked candidate cosines, BLAS threads.

Every cosine the scorers read is computed here, on unit vectors (cosines in [-1, 1]). The
``default`` mode's kernel (``candidate_cosines``) gathers large candidate sets in fixed-size
chunks on one BLAS thread; the other modes take one product per facet (``facet_cosines``).
For very large candidate sets, ``prescreen_cosines`` gives the same cosines from an int8 copy
of the matrices (``CompactVectors``) with a proven bound on their distance to the exact ones,
so the scorer computes exact cosines only for the few candidates that can reach the top k.
"""

from __future__ import annotations

import functools
import sys
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController

from rfp_retrieval.retrieval.records import ScopeQuery

# From this many candidates on, their vector rows are gathered this many at a time: a multiple
# of 8 (no OpenBLAS gemv kernel tail, on one thread or two) and large enough that sgemm with two
# section vectors does not take OpenBLAS's small-matrix kernels (M*N*K > 1e6 at 384 dims).
_CHUNK_ROWS = 1536


class _OneBlasThread:
    """Context manager: BLAS libraries (OpenBLAS here) and torch's intra-op pool (when torch
    is loaded: the prescreen's int8 products) run single-threaded inside it.

    The chunk products are small and memory-bound; on two shared cores, waking a second BLAS
    thread for each costs more than it saves (measured: 2.5 vs 21 ms p50 for the cosines of
    ~1,900 candidates with the machine loaded; torch's int8 product of 4,096 rows: 0.3 ms on
    one thread, 6-24 ms on two with the machine loaded). The limits are process-wide while
    held, so they are counted: the first thread to enter sets them, the last to leave
    restores the originals.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0
        self._controller: ThreadpoolController | None = None
        self._limiter: Any = None
        self._torch_threads: int | None = None

    def __enter__(self) -> None:
        with self._lock:
            if self._depth == 0:
                if self._controller is None:
                    self._controller = ThreadpoolController()
                self._limiter = self._controller.limit(limits=1, user_api="blas")
                torch = sys.modules.get("torch")
                if torch is not None and hasattr(torch, "set_num_threads"):
                    self._torch_threads = torch.get_num_threads()
                    torch.set_num_threads(1)
            self._depth += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0:
                self._limiter.restore_original_limits()
                self._limiter = None
                if self._torch_threads is not None:
                    sys.modules["torch"].set_num_threads(self._torch_threads)
                    self._torch_threads = None


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
    chunked: bool = False,
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
    can differ, by a float32 ulp: gemv kernel tails.) ``chunked`` takes the chunked path
    for fewer rows too (padded to one full chunk by repeating the last row), so a few rows
    get the bits they get inside a large candidate set (the prescreen's exact pass).

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
    if size < _CHUNK_ROWS and not (chunked and size):
        whole_rows = whole_m[idx]
        section_max = (whole_rows @ sections_t + shift).max(axis=1)
        return whole_rows @ whole_q, outcome_m[idx] @ outcome_q, section_max
    if size < _CHUNK_ROWS:
        padded = np.concatenate([idx, np.full(_CHUNK_ROWS - size, idx[-1], dtype=idx.dtype)])
        whole, outcome, section_max = candidate_cosines(matrices, padded, scope, library_mean)
        return whole[:size], outcome[:size], section_max[:size]
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
    chunked: bool = False,
) -> dict[str, np.ndarray]:
    """``candidate_cosines`` by name: ``whole``, ``outcome`` and ``section_max`` (len(idx),)."""
    whole, outcome, section_max = candidate_cosines(matrices, idx, scope, library_mean, chunked)
    return {"whole": whole, "outcome": outcome, "section_max": section_max}


# ----------------------------------------------------------------------------- prescreen

# IEEE binary32 unit roundoff (round to nearest): every float32 operation's relative error.
_F32_UNIT = 2.0**-24
# Rows quantised per pass when a compact copy is built (bounds the float64 scratch memory).
_COMPACT_PASS_ROWS = 16384
# Largest int8 code: codes are symmetric in [-127, 127].
_CODE_MAX = 127
# Candidate rows gathered per int8 product in the prescreen.
_PRESCREEN_ROWS = 1024  # int8 rows of two 384-dim facets: 768 KB, in L2/L3 while multiplied


@dataclass(frozen=True)
class CompactVectors:
    """An int8 copy of some facet matrices (float32, (n, dim) each) and what bounds its error.

    ``codes`` int8 (n, len(facets) * dim): facet ``facets[f]`` in columns ``f*dim`` to
    ``(f+1)*dim``, so one gather reads every facet of a row. Row ``i`` of facet ``f`` is
    ``x_hat = scale[f][i] * codes[i, f]`` with ``scale`` float32 (n,) per facet, the
    float32 nearest to ``max |x_ik| / 127`` (1 for a zero row; the codes are rounded with
    exactly this step, so ``prescreen_cosines`` scales in float32 with the step the error
    was measured against) and codes in [-127, 127]; ``error[f][i]`` >= ``||x - x_hat||``
    and ``norm[f][i]`` >= ``||x||``, float64 (n,) per facet, computed in float64 and
    rounded up by a relative 1e-12 (far above float64's own error over ``dim`` terms);
    ``error_max[f]`` and ``norm_max[f]`` their maxima over the rows (what
    ``prescreen_cosines`` bounds with). A quarter of the float32 matrices' memory, plus 20
    bytes a row and facet.
    """

    facets: tuple[str, ...]
    dim: int
    codes: np.ndarray
    scale: tuple[np.ndarray, ...]
    error: tuple[np.ndarray, ...]
    norm: tuple[np.ndarray, ...]

    @functools.cached_property
    def error_max(self) -> tuple[float, ...]:
        """Largest ``error`` of each facet over the rows (0 for an empty copy)."""
        return tuple(float(e.max()) if len(e) else 0.0 for e in self.error)

    @functools.cached_property
    def norm_max(self) -> tuple[float, ...]:
        """Largest ``norm`` of each facet over the rows (0 for an empty copy)."""
        return tuple(float(r.max()) if len(r) else 0.0 for r in self.norm)

    def __len__(self) -> int:
        return len(self.codes)


def _quantise(
    rows: np.ndarray, step_type: type = np.float64
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Symmetric per-row int8 codes of float64 ``rows`` (k, dim): ``(codes, scale, error,
    norm)``, ``error`` and ``norm`` as in ``CompactVectors``; ``scale`` float64 (k,) holding
    values of ``step_type`` (the step rounded to it before the codes are taken)."""
    peak = np.abs(rows).max(axis=1) if rows.shape[1] else np.zeros(len(rows))
    step = np.where(peak > 0, peak / _CODE_MAX, 1.0).astype(step_type).astype(np.float64)
    quantised = np.clip(np.rint(rows / step[:, None]), -_CODE_MAX, _CODE_MAX)
    error = np.linalg.norm(rows - step[:, None] * quantised, axis=1) * (1 + 1e-12)
    norm = np.linalg.norm(rows, axis=1) * (1 + 1e-12)
    return quantised.astype(np.int8), step, error, norm


def compact_vectors(matrices: dict[str, np.ndarray], facets: tuple[str, ...]) -> CompactVectors:
    """The ``CompactVectors`` of ``matrices[f]`` for ``f`` in ``facets``, built
    ``_COMPACT_PASS_ROWS`` rows at a time (a few float64 passes of scratch memory, never a
    second full matrix; a memory-mapped matrix is read once, in order).

    Raises:
        ValueError: a matrix is not two-dimensional float32, the matrices differ in shape, or
            a row holds a NaN or infinity (names the facet and row: re-embed that entry).
    """
    first = matrices[facets[0]]
    for facet in facets:
        matrix = matrices[facet]
        if matrix.ndim != 2 or matrix.dtype != np.float32 or matrix.shape != first.shape:
            raise ValueError(
                f"compact_vectors needs float32 matrices of one shape; {facet!r} is "
                f"{matrix.dtype} {matrix.shape}"
            )
    n, dim = first.shape
    width = len(facets)
    codes = np.empty((n, width * dim), dtype=np.int8)
    scale = [np.empty(n, dtype=np.float32) for _ in facets]
    error, norm = ([np.empty(n, dtype=np.float64) for _ in facets] for _ in range(2))
    for f, facet in enumerate(facets):
        matrix = matrices[facet]
        for start in range(0, n, _COMPACT_PASS_ROWS):
            part = slice(start, min(start + _COMPACT_PASS_ROWS, n))
            rows = matrix[part].astype(np.float64)
            finite = np.isfinite(rows).all(axis=1)
            if not finite.all():
                bad = start + int(np.flatnonzero(~finite)[0])
                raise ValueError(
                    f"{facet} vector row {bad} holds a NaN or infinity; re-embed that entry"
                )
            c, step, e, r = _quantise(rows, np.float32)
            codes[part, f * dim : (f + 1) * dim] = c
            scale[f][part], error[f][part], norm[f][part] = step, e, r
    return CompactVectors(tuple(facets), dim, codes, tuple(scale), tuple(error), tuple(norm))


def _dot_rounding(dim: int) -> float:
    """Higham's gamma_dim = dim*u / (1 - dim*u) for float32: |fl(x.q) - x.q| <= gamma*|x|.|q|
    for a dot product of ``dim`` terms in any summation order (Higham, Accuracy and
    Stability of Numerical Algorithms, 2nd ed., eq. 3.5)."""
    return dim * _F32_UNIT / (1 - dim * _F32_UNIT)


_INT_MM: list[Any] = []


def _int8_product() -> Any:
    """``torch._int_mm`` (int8 x int8 -> int32 on the CPU's integer dot-product units) when
    torch is installed and runs it, else None (the numpy fallback). Checked once."""
    if not _INT_MM:
        product = None
        try:
            import torch

            a = torch.ones((32, 8), dtype=torch.int8)
            if int(torch._int_mm(a, torch.ones((8, 8), dtype=torch.int8))[0, 0]) == 8:
                product = torch._int_mm
        except Exception:  # noqa: BLE001 - any failure means: use numpy
            product = None
        _INT_MM.append(product)
    return _INT_MM[0]


def _integer_products(codes: np.ndarray, query_codes: np.ndarray) -> np.ndarray:
    """``codes @ query_codes`` of int8 matrices, exactly, as int32 (rows, cols) (every sum
    is an integer of magnitude at most width * 127^2 < 2^31).

    With torch: ``torch._int_mm`` (int32 accumulation: exact while width * 127^2 < 2^31).
    Without: float32 BLAS, exact while every partial sum is an integer below 2^24 (width *
    127^2 < 2^24, width <= 1040), else float64 (exact below 2^53). Both give the same integers.
    """
    rows, width = codes.shape
    product = _int8_product()
    if product is not None and width % 8 == 0 and query_codes.shape[1] % 8 == 0:
        import torch

        a = codes
        if rows <= 16:  # _int_mm wants more than 16 rows
            a = np.zeros((32, width), dtype=np.int8)
            a[:rows] = codes
        return product(torch.from_numpy(a), torch.from_numpy(query_codes)).numpy()[:rows]
    kind = np.float32 if width * _CODE_MAX**2 < 2**24 else np.float64
    return (codes.astype(kind) @ query_codes.astype(kind)).astype(np.int32)


def prescreen_cosines(
    compact: CompactVectors,
    idx: np.ndarray,
    scope: ScopeQuery,
    library_mean: np.ndarray | None = None,
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """``candidate_cosines`` from the int8 copies, with a proven bound on the distance to it.

    ``compact`` holds the ``whole`` and ``outcome`` facets; ``idx`` the candidates' rows.
    Returns ``(approx, bound)``, two dicts with keys ``whole``, ``outcome``, ``section_max``:
    ``approx`` float32 (float64 above 1,040 dims) (len(idx),) each, ``bound`` a 0-d float64
    array each (one bound for every row), such that ``|exact - approx| <= bound`` for every
    row, where ``exact``
    is what ``candidate_cosines`` returns (float32 through BLAS, whatever its summation
    order) for the same rows, scope and ``library_mean``.

    How. Each query vector ``q`` (whole, each section, outcome) is written as two int8
    digits, ``q_hat = t1*d1 + t2*d2`` (``d1`` the codes of ``q``, ``d2`` those of the
    remainder ``q - t1*d1``, the steps ``t1``, ``t2`` values of the working type ``W``, so
    ``q_hat`` is within ~1/127 of int8's rounding of ``q``), and the products ``c.d1``,
    ``c.d2`` of the rows' int8 codes ``c`` with every query's digits are computed EXACTLY in
    integer arithmetic, one product per ``_PRESCREEN_ROWS`` gathered rows
    (``_integer_products`` or, with torch, ``index_select`` + ``_int_mm``; whole and outcome
    codes side by side, each query's digits on its facet's columns and zeros elsewhere).
    ``W`` is float32 when every product is an integer below 2^24 in magnitude (``dim *
    127^2 < 2^24``: up to 1,040 dims), so converting them to ``W`` is exact, else float64.
    In ``W``: one BLAS product gives every query's level ``t1*(c.d1) + t2*(c.d2)`` (a sum of
    two nonzero terms: the zero weights add exact zeros), then ``approx = s*level`` (``s``
    the row's float32 step, ``CompactVectors.scale``), for a section plus its shift, then
    the maximum over sections.

    The bound. Let ``x`` be a float32 row, ``x_hat = s*c`` its copy, ``e >= ||x - x_hat||``,
    ``r >= ||x||`` (``CompactVectors``), ``e_q = ||q - q_hat||``, ``e_1 = ||q - t1*d1||`` and
    ``g = gamma_dim`` (``_dot_rounding``). The exact path returns ``fl(x.q)``; then
    ``|fl(x.q) - x.q| <= g ||x|| ||q||`` (Higham eq. 3.5, then Cauchy-Schwarz),
    ``|x.q - x_hat.q| <= ||x - x_hat|| ||q|| <= e ||q||`` (Cauchy-Schwarz),
    ``|x_hat.q - x_hat.q_hat| <= ||x_hat|| e_q <= (r + e) e_q`` (Cauchy-Schwarz), and
    ``x_hat.q_hat = s*level`` exactly. The rounding of ``W`` (unit roundoff ``u``: 2^-24
    for float32, 2^-53 for float64) on the way to ``approx``: the level's two products and
    one sum are within ``gamma_2 = 2u/(1-2u)`` of ``|t1 c.d1| + |t2 c.d2|``, and
    ``s*(|t1 c.d1| + |t2 c.d2|) <= ||x_hat|| (||t1 d1|| + ||t2 d2||) <= (r + e)(||q|| +
    2 e_1 + e_q) = M`` (``||t1 d1|| <= ||q|| + e_1``, ``||t2 d2|| <= e_1 + e_q``); the
    product with ``s`` adds ``u (1 + gamma_2) M``, a section's shift ``h`` (rounded to
    ``W``: at most ``u |h|``) and its addition at most ``u ((1 + gamma_2)(1 + u) M + 2|h|)``:
    in all below ``5u (M + |h|)``. So ``|fl(x.q) - approx| <= ||q|| (e + g r) + (r + e) e_q
    + 5u ((r + e)(||q|| + 2 e_1 + e_q) + |h|)``, increasing in ``e`` and ``r``. It is taken
    with ``r = R`` and ``e = E``, the facet's largest row norm and row error
    (``CompactVectors.norm_max``, ``error_max``): one bound for every row, so nothing per
    row is read or computed for it (the rows' own errors would be ~10% tighter at a
    million unit rows; the exact pass rescores up to ``_CHUNK_ROWS`` rows at the cost of
    one). A section cosine is
    shifted by ``h_j`` (``section_centring``) in float32 on the exact path: one more
    rounding, at most ``u32 (R ||s_j|| (1 + g) + |h_j|)``; the maximum over sections moves by
    at most the largest per-section bound (``|max_j A_j - max_j B_j| <= max_j |A_j - B_j|``),
    at most the bound above taken with the largest ``||s_j||``, ``e_q``, ``e_1`` and
    ``|h_j|``. Norms of the query vectors are taken in float64 and rounded up by a relative
    1e-12; every bound is computed in float64, rounded up by a relative 1e-12 and 1e-12 is
    added (far above the float64 error of these few operations and of ``e_q``). For unit
    rows and queries from a 384-dim model the bound is about 0.011-0.014 in cosine: the
    rows' int8 rounding (``E``, the largest of the rows' ``s * sqrt(dim / 12)``-sized
    errors, grows slowly with the library); the query's two digits leave ~1e-4, float32's
    rounding ~1e-6.

    Raises:
        ValueError: an index is outside the matrices.
    """
    whole_q, outcome_q = scope.vectors["whole"], scope.vectors["outcome"]
    sections = scope.section_vectors
    if sections is None or len(sections) == 0:
        sections = scope.vectors["technical"][None, :]
    sections = np.asarray(sections)
    size, dim = len(idx), compact.dim
    width = compact.codes.shape[1]
    if size and (idx.min() < 0 or idx.max() >= len(compact)):
        raise ValueError("candidate rows outside the vector matrices")
    work = np.float32 if dim * _CODE_MAX**2 < 2**24 else np.float64
    unit = _F32_UNIT if work is np.float32 else 2.0**-53
    # the shift in the dtype the exact path adds it in, then in the working type
    shift = section_centring(library_mean, sections).astype(sections.dtype).astype(work)
    # query vectors: whole, the sections (on the whole facet), outcome; two int8 digits each
    queries = np.vstack([np.asarray(whole_q)[None, :], sections, np.asarray(outcome_q)[None, :]])
    whole_f, outcome_f = compact.facets.index("whole"), compact.facets.index("outcome")
    on_facet = [whole_f] * (1 + len(sections)) + [outcome_f]
    level = queries.astype(np.float64)
    digit1, step1, e_1, q_norm = _quantise(level, work)
    first = level - step1[:, None] * digit1
    digit2, step2, _, _ = _quantise(first, work)
    rest = first - step2[:, None] * digit2
    e_q = np.linalg.norm(rest, axis=1) * (1 + 1e-12)
    count = len(queries)
    cols = -(-2 * count // 8) * 8
    query_codes = np.zeros((width, cols), dtype=np.int8)
    steps = np.zeros((count, cols), dtype=work)  # level_j = steps[j] . products of a row
    for j, f in enumerate(on_facet):
        query_codes[f * dim : (f + 1) * dim, j] = digit1[j]
        query_codes[f * dim : (f + 1) * dim, count + j] = digit2[j]
        steps[j, j], steps[j, count + j] = step1[j], step2[j]
    products = np.empty((size, cols), dtype=np.int32)
    _gather_products(compact.codes, idx, query_codes, products)
    with _ONE_BLAS_THREAD:  # (count, size): each query's levels contiguous
        levels = steps @ products.astype(work).T
    s_w, s_o = compact.scale[whole_f][idx], compact.scale[outcome_f][idx]
    if work is not np.float32:
        s_w, s_o = s_w.astype(work), s_o.astype(work)
    section_max = np.full(size, -np.inf, dtype=work)
    scratch = np.empty(size, dtype=work)
    for j in range(1, 1 + len(sections)):  # max over sections, one query at a time
        np.multiply(levels[j], s_w, out=scratch)
        scratch += shift[j - 1]
        np.maximum(section_max, scratch, out=section_max)
    approx = {
        "whole": np.multiply(levels[0], s_w),
        "outcome": np.multiply(levels[count - 1], s_o),
        "section_max": section_max,
    }
    g = _dot_rounding(dim)
    e_w, e_o = compact.error_max[whole_f], compact.error_max[outcome_f]
    r_w, r_o = compact.norm_max[whole_f], compact.norm_max[outcome_f]
    h = float(np.abs(shift.astype(np.float64)).max())
    h = max(h, float(np.abs(section_centring(library_mean, sections)).max()))

    def dot_bound(e: float, r: float, q_n: float, e_q: float, e_1: float, h: float) -> float:
        # q_n (e + g r) + (r + e) e_q + 5u ((r + e)(q_n + 2 e_1 + e_q) + |h|), rounded up
        m = 5 * unit * (q_n + 2 * e_1 + e_q)
        return (
            (e * (q_n + e_q + m) + r * (g * q_n + e_q + m) + 5 * unit * h) * (1 + 1e-12)
        ) + 1e-12

    q_s, e_s, e1_s = (float(v[1 : 1 + len(sections)].max()) for v in (q_norm, e_q, e_1))
    section_extra = _F32_UNIT * (r_w * q_s * (1 + g) + h)
    bound = {
        "whole": dot_bound(e_w, r_w, float(q_norm[0]), float(e_q[0]), float(e_1[0]), 0.0),
        "outcome": dot_bound(e_o, r_o, float(q_norm[-1]), float(e_q[-1]), float(e_1[-1]), 0.0),
        "section_max": dot_bound(e_w, r_w, q_s, e_s, e1_s, h) + section_extra * (1 + 1e-12),
    }
    return approx, {name: np.asarray(value, dtype=np.float64) for name, value in bound.items()}


def _gather_products(
    codes: np.ndarray, idx: np.ndarray, query_codes: np.ndarray, out: np.ndarray
) -> None:
    """``out[:] = codes[idx] @ query_codes`` exactly (int32 (len(idx), cols)), gathering
    ``_PRESCREEN_ROWS`` rows at a time on one thread (``_OneBlasThread``): with torch,
    ``index_select`` into one buffer then ``_int_mm`` into ``out`` (~15% less CPU than
    ``np.take`` + a copy of each product); without it, ``np.take`` + ``_integer_products``.
    ``idx`` must be inside ``codes`` (checked by the caller)."""
    size, width = len(idx), codes.shape[1]
    product = _int8_product()  # imports torch (if installed) before the thread limits are taken
    fast = product is not None and width % 8 == 0 and query_codes.shape[1] % 8 == 0
    rows_at = min(size, _PRESCREEN_ROWS)
    with _ONE_BLAS_THREAD:
        if fast:
            import torch

            codes_t, query_t = torch.from_numpy(codes), torch.from_numpy(query_codes)
            idx_t = torch.from_numpy(np.ascontiguousarray(idx, dtype=np.int64))
            out_t = torch.from_numpy(out)
            buffer_t = torch.empty((rows_at, width), dtype=torch.int8)
        buffer = np.empty((rows_at, width), dtype=np.int8)
        for start in range(0, size, _PRESCREEN_ROWS):
            stop = min(start + _PRESCREEN_ROWS, size)
            if fast and stop - start > 16:  # _int_mm wants more than 16 rows
                rows = torch.index_select(
                    codes_t, 0, idx_t[start:stop], out=buffer_t[: stop - start]
                )
                product(rows, query_t, out=out_t[start:stop])
                continue
            at = idx[start:stop]
            rows = np.take(codes, at, axis=0, out=buffer[: len(at)], mode="clip")
            out[start:stop] = _integer_products(rows, query_codes)
