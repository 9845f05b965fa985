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


@pytest.mark.parametrize("precision", ["fp32", "bf16"])
def test_the_lean_bert_encoder_gives_sentence_transformers_vectors_bit_for_bit(
    library_texts: list[str], precision: str
) -> None:
    """The bundled model runs on torch + tokenizers alone (``bert_encoder``) and must give
    exactly ``SentenceTransformer.encode``'s vectors: same batches (length order, padding),
    same forward, pooling and double normalisation; long texts chunked the same way."""
    import torch
    from sentence_transformers import SentenceTransformer

    from rfp_retrieval.retrieval.bert_encoder import BertSentenceEncoder
    from rfp_retrieval.retrieval.embedding import chunk_words, load_model, resolve_model_path

    if precision == "bf16" and not cpu_supports_bf16():
        pytest.skip("this CPU has no native bf16: the bf16 path is not used here")
    folder = resolve_model_path("all-MiniLM-L6-v2")
    lean = load_model(folder)
    assert isinstance(lean, BertSentenceEncoder)
    plain = SentenceTransformer(str(folder), device="cpu")
    # 30 facet texts, a long one chunked past the 256-token window, one word, an empty text
    long_text = " ".join(library_texts) * 2
    texts = [*library_texts, *chunk_words(long_text), "cloud", ""]
    autocast = torch.autocast("cpu", dtype=torch.bfloat16, enabled=precision == "bf16")
    kwargs = {"batch_size": 8, "normalize_embeddings": True, "convert_to_numpy": True}
    with autocast:
        expected = np.asarray(plain.encode(texts, **kwargs), dtype=np.float32)
    with autocast:
        got = lean.encode(texts, **kwargs)
    assert got.dtype == np.float32 and got.shape == (len(texts), 384)
    assert np.array_equal(got, expected)
    assert lean.get_embedding_dimension() == plain.get_embedding_dimension() == 384


def test_models_the_lean_encoder_does_not_cover_go_to_sentence_transformers(tmp_path) -> None:
    """Only Transformer + mean Pooling (+ Normalize) BERT folders are computed by
    ``bert_encoder``; an added module (Dense), another pooling or architecture is not."""
    import json
    import shutil

    from rfp_retrieval.retrieval.bert_encoder import supports
    from rfp_retrieval.retrieval.embedding import resolve_model_path

    bundled = resolve_model_path("all-MiniLM-L6-v2")
    assert supports(bundled)
    copy = tmp_path / "copy"
    shutil.copytree(bundled, copy)
    assert supports(copy)
    modules = json.loads((copy / "modules.json").read_text())
    dense = {"idx": 3, "name": "3", "path": "3_Dense", "type": "sentence_transformers.models.Dense"}
    (copy / "modules.json").write_text(json.dumps([*modules, dense]))
    assert not supports(copy)
    (copy / "modules.json").write_text(json.dumps(modules))
    pooling = json.loads((copy / "1_Pooling" / "config.json").read_text())
    (copy / "1_Pooling" / "config.json").write_text(
        json.dumps({**pooling, "pooling_mode_mean_tokens": False, "pooling_mode_cls_token": True})
    )
    assert not supports(copy)
    (copy / "1_Pooling" / "config.json").write_text(json.dumps(pooling))
    config = json.loads((copy / "config.json").read_text())
    (copy / "config.json").write_text(json.dumps({**config, "model_type": "mpnet"}))
    assert not supports(copy)
    (copy / "config.json").write_text(json.dumps(config))
    (copy / "model.safetensors").unlink()
    assert not supports(copy)


@pytest.mark.parametrize("precision", ["fp32", "bf16"])
def test_a_short_call_runs_on_one_thread_with_the_same_vectors(
    library_texts: list[str], precision: str, monkeypatch
) -> None:
    """``bert_encoder.ONE_THREAD_RULE``: one RFP's dozen texts run on one torch thread (the
    count is restored after), a long call keeps torch's threads, and the vectors are the
    ones two threads give, bit for bit."""
    import torch

    from rfp_retrieval.retrieval import bert_encoder
    from rfp_retrieval.retrieval.embedding import load_model, resolve_model_path

    if precision == "bf16" and not cpu_supports_bf16():
        pytest.skip("this CPU has no native bf16: the bf16 path is not used here")
    lean = load_model(resolve_model_path("all-MiniLM-L6-v2"))
    seen: list[int] = []
    forward = lean.token_embeddings

    def counting(*args):
        seen.append(torch.get_num_threads())
        return forward(*args)

    monkeypatch.setattr(lean, "token_embeddings", counting)
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        autocast = torch.autocast("cpu", dtype=torch.bfloat16, enabled=precision == "bf16")
        short = library_texts[:12]
        with autocast:
            one = lean.encode(short, normalize_embeddings=True)
        assert seen == [1] and torch.get_num_threads() == 2
        monkeypatch.setattr(bert_encoder, "ONE_THREAD_TEXTS", 0)
        with autocast:
            two = lean.encode(short, normalize_embeddings=True)
        assert seen == [1, 2]
        assert np.array_equal(one, two)
        monkeypatch.setattr(bert_encoder, "ONE_THREAD_TEXTS", 32)
        with autocast:
            lean.encode(library_texts * 2, batch_size=64)  # 60 texts: a long call
        assert seen == [1, 2, 2]
    finally:
        torch.set_num_threads(before)
