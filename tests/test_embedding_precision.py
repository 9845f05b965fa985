"""bf16 autocast embeddings stay interchangeable with fp32 ones (same model id, same neighbours)."""

from pathlib import Path

import numpy as np
import pytest

from rfp_retrieval.library.frames import entries_frame
from rfp_retrieval.library.ingest import load_library
from rfp_retrieval.retrieval.embedding import Embedder, cpu_supports_bf16
from rfp_retrieval.retrieval.facets import entry_facet_texts

LIBRARY = Path(__file__).resolve().parents[1] / "sample" / "library"


@pytest.fixture(scope="module")
def library_texts() -> list[str]:
    """30 real facet texts: narrative and outcome of the first 15 sample entries (by id)."""
    frame = entries_frame(load_library(LIBRARY).entries).sort("id").head(15)
    texts: list[str] = []
    for row in frame.iter_rows(named=True):
        facets = entry_facet_texts(row)
        texts += [facets["narrative"], facets["outcome"]]
    return texts


def _top10(vectors: np.ndarray) -> list[set[int]]:
    sims = vectors @ vectors.T
    np.fill_diagonal(sims, -np.inf)
    return [set(np.argsort(-row, kind="stable")[:10].tolist()) for row in sims]


def test_unknown_precision_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown embedding precision 'fp16'"):
        Embedder(precision="fp16")


def test_auto_precision_keeps_the_model_id_and_the_fp32_neighbours(
    library_texts: list[str],
) -> None:
    fp32 = Embedder(precision="fp32")
    auto = Embedder(precision="auto")
    assert auto.model_id == fp32.model_id == "all-MiniLM-L6-v2"
    if not cpu_supports_bf16():
        assert auto.effective_precision == "fp32"
        pytest.skip("this CPU has no native bf16 (avx512_bf16/amx_bf16): auto runs fp32")
    assert auto.effective_precision == "bf16"
    reference = fp32.encode(library_texts)
    fast = auto.encode(library_texts)
    assert fast.dtype == np.float32 and fast.shape == (30, 384)
    np.testing.assert_allclose(np.linalg.norm(fast, axis=1), 1.0, atol=1e-5)
    cosines = np.sum(reference * fast, axis=1)
    assert cosines.min() >= 0.999, f"lowest per-text cosine bf16 vs fp32: {cosines.min():.6f}"
    assert _top10(fast) == _top10(reference)
