"""A BERT sentence encoder on torch and tokenizers alone, for fast starts (issue 15: speed).

Importing sentence-transformers costs about 9 CPU-seconds on this machine, most of it in
modules a CPU inference never runs (scikit-learn's metrics, transformers' quantizers,
fp8 kernels and distributed loading); torch, tokenizers and safetensors together cost about
2. A command that embeds a few hundred texts (one RFP through ``rfp-retrieval run``) paid
that import on every start. ``BertSentenceEncoder`` computes the same vectors for the models
it accepts (``supports``): a sentence-transformers folder of exactly Transformer (a BERT
encoder with absolute positions and GELU), mean Pooling and optionally Normalize, with
``tokenizer.json`` and ``model.safetensors``, and no prompts. The bundled all-MiniLM-L6-v2
is one. Any other model folder goes to sentence-transformers (``embedding.Embedder.load``).

Same vectors means bit for bit: the steps are sentence-transformers' own for these modules
(texts ordered by character length, longest first, batches of ``batch_size`` padded to their
longest text, truncation at ``max_seq_length``, the BERT forward with PyTorch's
scaled-dot-product attention as transformers runs it, masked mean pooling, the Normalize
module, then ``normalize_embeddings``), so float32 and bf16-autocast outputs equal
sentence-transformers' exactly (``tests/test_embedding_precision.py`` asserts it on library
texts).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

TRANSFORMER = "sentence_transformers.models.Transformer"
POOLING = "sentence_transformers.models.Pooling"
NORMALIZE = "sentence_transformers.models.Normalize"
WEIGHTS = "model.safetensors"
TOKENIZER = "tokenizer.json"
MEAN_ONLY = {
    "pooling_mode_cls_token": False,
    "pooling_mode_mean_tokens": True,
    "pooling_mode_max_tokens": False,
    "pooling_mode_mean_sqrt_len_tokens": False,
}
"""The Pooling config accepted: mean over the attended tokens, nothing else."""
ONE_THREAD_TEXTS = 32
"""``ONE_THREAD_RULE``: a call of at most this many texts (one default batch) runs on one
torch thread."""
ONE_THREAD_RULE = (
    "A short encode call (at most ONE_THREAD_TEXTS texts: one RFP's facet texts or scope "
    "units, one query) runs on one torch thread, then the thread count is restored. On two "
    "busy cores torch's second thread spins at every barrier of a small batch: one RFP's "
    "12 windows cost 1.6-1.9 CPU-s and 4.5-5.9 s wall on two threads, 0.37-0.44 CPU-s and "
    "1.3-1.5 s on one, with the same vectors bit for bit (benchmarks/README.md, issue 18). "
    "A longer call (the library) keeps torch's threads."
)
"""The one rule for the thread count of an encode call (issue 18: query CPU time)."""


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def supports(folder: Path) -> bool:
    """True when ``folder`` is a sentence-transformers model ``BertSentenceEncoder`` computes
    exactly (module docstring); False for anything else (sentence-transformers loads it)."""
    folder = Path(folder)
    modules = _read_json(folder / "modules.json")
    if not isinstance(modules, list) or not modules:
        return False
    types = [m.get("type") for m in modules]
    if types not in ([TRANSFORMER, POOLING], [TRANSFORMER, POOLING, NORMALIZE]):
        return False
    if modules[0].get("path") not in ("", None):
        return False
    config = _read_json(folder / "config.json") or {}
    if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu":
        return False
    if config.get("position_embedding_type", "absolute") != "absolute":
        return False
    pooling = _read_json(folder / modules[1]["path"] / "config.json") or {}
    if any(pooling.get(key, False) != want for key, want in MEAN_ONLY.items()):
        return False
    if pooling.get("include_prompt") is False:
        return False
    st_config = _read_json(folder / "config_sentence_transformers.json") or {}
    if st_config.get("prompts") or st_config.get("default_prompt_name"):
        return False
    return (folder / TOKENIZER).is_file() and (folder / WEIGHTS).is_file()


class BertSentenceEncoder:
    """A model ``supports`` accepts, loaded from ``folder`` on the CPU (no download).

    ``encode`` takes the arguments ``SentenceTransformer.encode`` is called with in
    ``embedding.Embedder.encode`` and returns the same float32 array (n, dim).

    Raises:
        ValueError: ``supports(folder)`` is False, or the weights are not float32.
    """

    def __init__(self, folder: Path) -> None:
        import torch
        from safetensors.torch import load_file
        from tokenizers import Tokenizer

        folder = Path(folder)
        if not supports(folder):
            raise ValueError(f"{folder} is not a mean-pooled BERT sentence-transformers model")
        config = _read_json(folder / "config.json")
        st_config = _read_json(folder / "sentence_bert_config.json") or {}
        token_config = _read_json(folder / "tokenizer_config.json") or {}
        modules = _read_json(folder / "modules.json")
        limits = [config["max_position_embeddings"], token_config.get("model_max_length")]
        limits.append(st_config.get("max_seq_length"))
        self.max_seq_length = min(int(x) for x in limits if isinstance(x, int | float))
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config["layer_norm_eps"])
        self.normalize_module = len(modules) == 3
        self.tokenizer = Tokenizer.from_file(str(folder / TOKENIZER))
        self.tokenizer.enable_truncation(self.max_seq_length, strategy="longest_first")
        self.tokenizer.enable_padding(
            pad_id=int(config.get("pad_token_id") or 0),
            pad_token=str(token_config.get("pad_token") or "[PAD]"),
        )
        weights = load_file(str(folder / WEIGHTS))
        floats = {str(t.dtype) for t in weights.values() if t.is_floating_point()}
        other = sorted(floats - {"torch.float32"})
        if other:  # transformers may keep a stored dtype; only float32 is known to match
            raise ValueError(f"{folder / WEIGHTS} holds {', '.join(other)} weights")
        self.weights = {_plain_name(name): tensor for name, tensor in weights.items()}
        self.dim = int(config["hidden_size"])
        self._torch = torch

    def get_embedding_dimension(self) -> int:
        """Length of every vector (``hidden_size``: 384 for all-MiniLM-L6-v2)."""
        return self.dim

    def _layer_norm(self, x: Any, name: str) -> Any:
        functional = self._torch.nn.functional
        w = self.weights
        return functional.layer_norm(
            x, (x.shape[-1],), w[f"{name}.weight"], w[f"{name}.bias"], self.eps
        )

    def _linear(self, x: Any, name: str) -> Any:
        w = self.weights
        return self._torch.nn.functional.linear(x, w[f"{name}.weight"], w[f"{name}.bias"])

    def token_embeddings(self, ids: Any, mask: Any, types: Any) -> Any:
        """The encoder's last hidden states, shape (batch, tokens, dim), for token ``ids``,
        attention ``mask`` and token ``types`` (int tensors of shape (batch, tokens))."""
        torch, w = self._torch, self.weights
        functional = torch.nn.functional
        batch, length = ids.shape
        positions = torch.arange(length).unsqueeze(0)
        x = functional.embedding(ids, w["embeddings.word_embeddings.weight"])
        x = x + functional.embedding(types, w["embeddings.token_type_embeddings.weight"])
        x = x + functional.embedding(positions, w["embeddings.position_embeddings.weight"])
        x = self._layer_norm(x, "embeddings.LayerNorm")
        # transformers passes no mask to SDPA when nothing is padded (another kernel path)
        attend = None
        if not bool(mask.all()):
            attend = mask[:, None, None, :].bool().expand(batch, 1, length, length)
        size = x.shape[-1] // self.heads

        def split(t: Any) -> Any:
            return t.view(batch, length, self.heads, size).transpose(1, 2)

        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            q = split(self._linear(x, p + "attention.self.query"))
            k = split(self._linear(x, p + "attention.self.key"))
            v = split(self._linear(x, p + "attention.self.value"))
            a = functional.scaled_dot_product_attention(
                q, k, v, attn_mask=attend, dropout_p=0.0, scale=size**-0.5
            )
            a = a.transpose(1, 2).reshape(batch, length, -1)
            a = self._layer_norm(
                self._linear(a, p + "attention.output.dense") + x, p + "attention.output.LayerNorm"
            )
            h = functional.gelu(self._linear(a, p + "intermediate.dense"))
            x = self._layer_norm(self._linear(h, p + "output.dense") + a, p + "output.LayerNorm")
        return x

    def encode(
        self,
        texts: list[str],
        batch_size: int = 32,
        normalize_embeddings: bool = False,
        show_progress_bar: bool = False,
        convert_to_numpy: bool = True,
    ) -> np.ndarray:
        """Sentence vectors of ``texts``: float32 array (len(texts), dim); unit rows when
        the model has a Normalize module or ``normalize_embeddings``. ``show_progress_bar``
        and ``convert_to_numpy`` are accepted for call compatibility (always numpy). A short
        call runs on one torch thread (``ONE_THREAD_RULE``)."""
        torch = self._torch
        threads = torch.get_num_threads()
        short = len(texts) <= ONE_THREAD_TEXTS and threads > 1  # ONE_THREAD_RULE
        if short:
            torch.set_num_threads(1)
        try:
            return self._encode(texts, batch_size, normalize_embeddings)
        finally:
            if short:
                torch.set_num_threads(threads)

    def _encode(self, texts: list[str], batch_size: int, normalize_embeddings: bool) -> np.ndarray:
        """``encode`` on the current torch threads."""
        torch = self._torch
        normalize = torch.nn.functional.normalize
        order = np.argsort([-len(text) for text in texts])  # sentence-transformers' order
        out: list[Any] = [None] * len(texts)
        with torch.inference_mode():
            for start in range(0, len(texts), batch_size):
                chosen = order[start : start + batch_size]
                encoded = self.tokenizer.encode_batch([texts[i] for i in chosen])
                ids = torch.tensor([e.ids for e in encoded])
                mask = torch.tensor([e.attention_mask for e in encoded])
                types = torch.tensor([e.type_ids for e in encoded])
                tokens = self.token_embeddings(ids, mask, types)
                weights = mask.unsqueeze(-1).expand(tokens.size()).to(tokens.dtype)
                pooled = torch.sum(tokens * weights, 1) / torch.clamp(weights.sum(1), min=1e-9)
                if self.normalize_module:
                    pooled = normalize(pooled, p=2, dim=1)
                if normalize_embeddings:
                    pooled = normalize(pooled, p=2, dim=1)
                for row, i in enumerate(chosen):
                    out[i] = pooled[row]
            if not out:
                return np.zeros((0, self.dim), dtype=np.float32)
            return torch.stack(out).float().numpy()


def _plain_name(name: str) -> str:
    """A weight's name without the ``bert.`` prefix some checkpoints carry."""
    return name.removeprefix("bert.")
