"""The embedding model loaded in a helper process while the command starts (issue 15: speed).

One new RFP through ``rfp-retrieval run`` spends ~3 s of CPU importing Dagster and loading the
code location, and ~2.5 s importing torch and loading the model, one after the other in one
process on a two-core machine. ``RemoteModel(folder)`` starts a helper process at once
(``python -m rfp_retrieval.retrieval.encoder_process FOLDER``) which imports torch and loads
the model (``embedding.load_model``) while the command goes on; each ``encode`` then sends
the texts over a pipe and gets the vectors back. The helper runs the same code on the same
texts with the same batch size and precision (``auto`` resolved in the helper, where torch
is), so the vectors are those of the model loaded in process, bit for bit
(``tests/test_encoder_process.py``).

The helper ignores Ctrl-C (the command handles it) and exits when its pipe closes (the
command ended, however). A Ctrl-C while the command waits for an answer (a
``KeyboardInterrupt``, or inside a Dagster step the run's interrupt error: any exception that
is no ``Exception``) kills the helper and goes on up: the run stops, it does not fall back to
loading the model in process. When the helper cannot serve (it failed to start or to load the
model, or died), the model is loaded in process instead (``embedding.load_model``: a broken
model raises its own error there, as before).
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

_HEADER = struct.Struct("!Q")


def _send(stream: BinaryIO, message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def _receive(stream: BinaryIO) -> Any:
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        raise EOFError("the encoder process closed its pipe")
    (size,) = _HEADER.unpack(header)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the encoder process closed its pipe")
    return pickle.loads(data)


def encode_in_precision(
    model: Any, pieces: list[str], batch_size: int, precision: str, progress: bool = False
) -> np.ndarray:
    """``model.encode(pieces)`` (unit rows, float32 array (len(pieces), dim)) under bf16
    autocast when ``precision`` is ``bf16``, or ``auto`` and the CPU runs bf16 natively
    (``embedding.cpu_supports_bf16``); fp32 otherwise. The one place a model is run."""
    import contextlib

    from rfp_retrieval.retrieval.embedding import cpu_supports_bf16

    autocast: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()
    if precision == "bf16" or (precision == "auto" and cpu_supports_bf16()):
        import torch

        autocast = torch.autocast("cpu", dtype=torch.bfloat16)
    with autocast:
        vectors = model.encode(
            pieces,
            batch_size=batch_size,
            normalize_embeddings=True,
            show_progress_bar=progress,
            convert_to_numpy=True,
        )
    return np.asarray(vectors, dtype=np.float32)


class RemoteModel:
    """The model in ``folder`` served by a helper process (module docstring), started now.

    ``encode_in_precision(pieces, batch_size, precision)`` and ``get_embedding_dimension()``
    answer as the in-process model would; after any failure of the helper they use the model
    loaded in process (``local``).
    """

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._lock = threading.Lock()
        self._local: Any = None
        self._dimension: int | None = None
        package_root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
        try:
            self._process: subprocess.Popen | None = subprocess.Popen(
                [sys.executable, "-m", __name__, str(self.folder)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=env,
            )
        except OSError:
            self._process = None

    @property
    def local(self) -> Any:
        """The model loaded in this process (``embedding.load_model``), loaded on first use."""
        if self._local is None:
            from rfp_retrieval.retrieval.embedding import load_model

            self._local = load_model(self.folder)
        return self._local

    def _ask(self, message: tuple) -> Any:
        """The helper's answer to ``message``; None when it cannot serve (then it is
        stopped and the in-process model answers from now on)."""
        with self._lock:
            process = self._process
            if process is None:
                return None
            try:
                _send(process.stdin, message)
                status, value = _receive(process.stdout)
            except Exception:  # a dead helper, a broken pipe: the in-process model answers
                self.close()
                return None
            except BaseException:  # Ctrl-C mid-answer (KeyboardInterrupt, or the run's own
                # interrupt error inside a Dagster step): stop the helper at once, re-raise
                self.close(kill=True)
                raise
            if status != "ok":
                self.close()
                return None
            return value

    def encode_in_precision(
        self, pieces: list[str], batch_size: int, precision: str, progress: bool = False
    ) -> np.ndarray:
        """``encode_in_precision`` of the model on ``pieces`` (module function), run by the
        helper (or in process after it failed)."""
        vectors = self._ask(("encode", pieces, batch_size, precision))
        if vectors is None:
            vectors = encode_in_precision(self.local, pieces, batch_size, precision, progress)
        return vectors

    def get_embedding_dimension(self) -> int:
        """Length of the model's vectors."""
        if self._dimension is None:
            value = self._ask(("dimension",))
            if value is None:
                getter = getattr(self.local, "get_embedding_dimension", None) or (
                    self.local.get_sentence_embedding_dimension
                )
                value = getter()
            self._dimension = int(value)
        return self._dimension

    def close(self, kill: bool = False) -> None:
        """Stop the helper (closing its pipe ends it; ``kill``: at once, mid-encode, after a
        Ctrl-C); later calls run in process."""
        process, self._process = self._process, None
        if process is None:
            return
        if kill:
            process.kill()
        for stream in (process.stdin, process.stdout):
            try:
                stream.close()
            except OSError:
                pass
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()


def serve(folder: Path, requests: BinaryIO, answers: BinaryIO) -> None:
    """The helper's loop: load the model in ``folder``, then answer each request read from
    ``requests`` on ``answers`` until ``requests`` closes. Answers are ``("ok", value)`` or
    ``("error", message)`` (the command then loads the model itself)."""
    from rfp_retrieval.heap import long_lived
    from rfp_retrieval.retrieval.embedding import load_model

    try:
        with long_lived():  # torch and the model: kept until the helper ends
            model: Any = load_model(folder)
        problem = None
    except Exception as exc:  # noqa: BLE001 - reported to the command, which loads it itself
        model, problem = None, f"{type(exc).__name__}: {exc}"
    while True:
        try:
            message = _receive(requests)
        except EOFError:
            return
        if model is None:
            _send(answers, ("error", problem))
            continue
        try:
            if message[0] == "encode":
                _, pieces, batch_size, precision = message
                value: Any = encode_in_precision(model, pieces, batch_size, precision)
            else:
                getter = getattr(model, "get_embedding_dimension", None) or (
                    model.get_sentence_embedding_dimension
                )
                value = int(getter())
        except Exception as exc:  # noqa: BLE001 - the command computes it itself
            _send(answers, ("error", f"{type(exc).__name__}: {exc}"))
            continue
        _send(answers, ("ok", value))


def main() -> None:
    """``python -m rfp_retrieval.retrieval.encoder_process FOLDER``: ``serve`` on stdin and
    stdout, Ctrl-C ignored (the command that started it handles it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a library's print cannot reach the pipe
    from rfp_retrieval.heap import short_process

    short_process()
    try:
        serve(Path(sys.argv[1]), sys.stdin.buffer, answers)
    except BrokenPipeError:  # the command stopped mid-answer (Ctrl-C): nothing to report
        os._exit(0)  # no flush of the dead pipe at exit (it would print the error again)
    # the pipe closed: the command is done. Every answer was flushed as it was sent and the
    # helper holds nothing else (no file, no store), so it ends now, without the interpreter's
    # teardown of torch and the model (0.2-0.3 s, which a caller reading the command's
    # stderr to its end, as the benchmark does, waited for)
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
