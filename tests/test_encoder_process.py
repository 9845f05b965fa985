"""The model served by a helper process gives the in-process vectors bit for bit, and falls
back to the in-process model when the helper cannot serve (issue 15 speed)."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from rfp_retrieval.library.frames import entries_frame
from rfp_retrieval.library.ingest import load_library
from rfp_retrieval.retrieval import embedding
from rfp_retrieval.retrieval.embedding import DEFAULT_MODEL, Embedder, resolve_model_path
from rfp_retrieval.retrieval.encoder_process import RemoteModel
from rfp_retrieval.retrieval.facets import entry_facet_texts

LIBRARY = Path(__file__).resolve().parents[1] / "sample" / "library"


@pytest.fixture(scope="module")
def texts() -> list[str]:
    """12 real facet texts (narrative and outcome of 6 sample entries), one of them long
    enough to be chunked, and an empty one."""
    frame = entries_frame(load_library(LIBRARY).entries).sort("id").head(6)
    found: list[str] = []
    for row in frame.iter_rows(named=True):
        facets = entry_facet_texts(row)
        found += [facets["narrative"], facets["outcome"]]
    return [*found, " ".join(found), ""]


@pytest.fixture
def fresh_models(monkeypatch):
    """An empty model cache for the test (the session's loaded model is left alone)."""
    monkeypatch.setattr(embedding, "_LOADED", {})


@pytest.mark.parametrize("precision", ["fp32", "auto"])
def test_the_helper_gives_the_in_process_vectors_exactly(
    texts, fresh_models, embedder, precision
) -> None:
    local = Embedder(precision=precision)
    local._model = embedder.load()  # the session's in-process model
    assert embedding.preload(DEFAULT_MODEL) is True
    assert embedding.preload(DEFAULT_MODEL) is False  # one helper per model folder
    remote = Embedder(precision=precision)
    served = remote.load()
    assert isinstance(served, RemoteModel) and served._process is not None
    try:
        got = remote.encode(texts)
        assert served._process is not None  # answered by the helper, not the fallback
        assert served._local is None
        want = local.encode(texts)
        assert got.dtype == np.float32 and got.shape == (len(texts), 384)
        assert np.array_equal(got, want)
        assert remote.dimension == 384
    finally:
        served.close()


def test_a_helper_that_cannot_serve_falls_back_to_the_in_process_model(
    texts, fresh_models, embedder
) -> None:
    served = RemoteModel(resolve_model_path(DEFAULT_MODEL))
    served._process.kill()  # the helper died before its first answer
    served._process.wait()
    vectors = embedder.encode(texts[:2])
    fallback = Embedder(precision=embedder.precision)
    fallback._model = served
    assert np.array_equal(fallback.encode(texts[:2]), vectors)
    assert served._process is None and served._local is not None


def test_an_unresolvable_model_is_not_preloaded(fresh_models, tmp_path) -> None:
    assert embedding.preload(str(tmp_path / "no-such-model")) is False
    assert embedding._LOADED == {}


class StepInterrupted(BaseException):
    """What Dagster raises in a step on Ctrl-C (``DagsterExecutionInterruptedError``): a
    ``BaseException`` that is no ``KeyboardInterrupt``."""


def test_ctrl_c_while_the_helper_encodes_stops_the_helper_and_goes_on_up(
    tmp_path, monkeypatch
) -> None:
    from rfp_retrieval.retrieval import encoder_process

    remote = RemoteModel.__new__(RemoteModel)
    remote.folder, remote._local, remote._dimension = tmp_path / "no-model", None, None
    remote._lock = threading.Lock()
    helper = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    remote._process = helper

    def interrupted(stream):
        raise StepInterrupted

    monkeypatch.setattr(encoder_process, "_receive", interrupted)
    with pytest.raises(StepInterrupted):
        remote.encode_in_precision(["parallel payroll testing"], 32, "fp32")
    assert remote._process is None
    assert helper.wait(timeout=5) == -9  # killed at once, not left to finish its encode
    assert remote._local is None  # no fallback: the model was not loaded in process


def test_the_helper_ends_without_the_interpreters_teardown_when_its_pipe_closes(tmp_path):
    """Closing the pipe ends the helper at once (``os._exit``): no atexit handler, no module
    teardown of torch and the model (0.2-0.3 s), exit status 0."""
    code = (
        "import atexit, sys; atexit.register(lambda: sys.stderr.write('teardown ran\\n')); "
        f"sys.argv = ['encoder_process', {str(tmp_path / 'no-model')!r}]; "
        "from rfp_retrieval.retrieval.encoder_process import main; main()"
    )
    helper = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[1],
    )
    _out, err = helper.communicate(b"", timeout=60)  # EOF at once: the command is done
    assert helper.returncode == 0
    assert b"teardown ran" not in err
    assert b"Traceback" not in err
