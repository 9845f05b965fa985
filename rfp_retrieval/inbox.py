"""The RFP inbox: which files are RFPs and the partition key each one gets.

Dagster does not validate dynamic partition keys (field notes §2a): ``a/b``, newlines and
``...`` (the CLI's range separator) are all accepted, so keys are sanitised here.
"""

from __future__ import annotations

import errno
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RFP_SUFFIXES = (".md", ".markdown", ".txt", ".docx", ".pdf", ".csv", ".xlsx", ".xlsm", ".json")
MAX_KEY_LENGTH = 80


def partition_key_for(file_name: str) -> str:
    """Partition key of an RFP file name: lowercase ``[a-z0-9-]``, suffix kept, <= 80 chars.

    ``RFP 001 (Navy).md`` -> ``rfp-001-navy-md``. The suffix is part of the key so that
    ``tdrs.md`` and ``tdrs.docx`` are two partitions. Names that lose characters in the
    slug (non-ASCII, too long) get a short hash of the original so two names never collide.
    """
    name = Path(file_name.replace("\\", "/")).name
    stem, dot, suffix = name.rpartition(".")
    if not dot:
        stem, suffix = name, ""
    slug = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-") or "rfp"
    ext = re.sub(r"[^a-z0-9]+", "", suffix.lower())
    key = f"{slug}-{ext}" if ext else slug
    lossless = re.fullmatch(r"[A-Za-z0-9 _().,-]+", stem) is not None
    if len(key) > MAX_KEY_LENGTH or not lossless:
        # a name that is not valid UTF-8 on disk (a Latin-1 zip, an SMB share) reaches Python
        # with surrogate escapes: hash its bytes as they are on disk
        digest = hashlib.sha1(name.encode("utf-8", "surrogateescape")).hexdigest()[:8]
        key = f"{key[: MAX_KEY_LENGTH - 9].rstrip('-')}-{digest}"
    return key


def shown_name(name: str) -> str:
    """``name`` as it is stored and shown: a file name that is not UTF-8 on disk (it reaches
    Python with surrogate escapes, e.g. ``Caf\\udce9 RFP.md`` from a Latin-1 zip) gets U+FFFD
    for each undecodable byte (``Caf\\ufffd RFP.md``); any other string is returned unchanged.

    Polars, Postgres and JSON refuse lone surrogates, so every file name written into a
    table or a JSON payload goes through here. The partition key (``partition_key_for``)
    still hashes the bytes on disk, so two such names never share a key.
    """
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


@dataclass(frozen=True)
class InboxFile:
    """One RFP file in the inbox: its partition key, path and modification time (ns)."""

    key: str
    path: Path
    mtime_ns: int


def _inbox_candidates(folder: Path) -> dict[str, list[InboxFile]]:
    """RFP files directly in ``folder`` by partition key, oldest first within a key."""
    by_key: dict[str, list[InboxFile]] = {}
    root = folder.resolve()
    for path in sorted(folder.iterdir()):
        if not path.is_file() or path.name.startswith((".", "~$")):
            continue
        if path.suffix.lower() not in RFP_SUFFIXES:
            continue
        try:
            mtime_ns = path.stat().st_mtime_ns
        except FileNotFoundError:  # deleted or renamed since the listing: the next scan sees it
            continue
        key = partition_key_for(path.name)
        # the inbox name, not a symlink's target: the key, the file shown in the run summary
        # and the sensor's partition all come from the name the user gave the file
        item = InboxFile(key=key, path=root / path.name, mtime_ns=mtime_ns)
        by_key.setdefault(key, []).append(item)
    for items in by_key.values():
        items.sort(key=lambda f: (f.mtime_ns, f.path.name))
    return by_key


def scan_inbox(folder: Path) -> dict[str, InboxFile]:
    """RFP files directly in ``folder`` (hidden and temporary files skipped), by key.

    Two names can share a key (``RFP 1.md`` and ``rfp_1.md`` both give ``rfp-1-md``): the file
    that has been in the inbox longest (oldest modification time, then name) keeps the
    partition, so adding a look-alike never moves an existing RFP's results; the others are
    listed by ``skipped_in_inbox`` with the reason, never dropped silently.

    Raises:
        FileNotFoundError: the inbox folder does not exist.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"RFP inbox {folder} does not exist; create it or set inbox_dir")
    return {key: items[0] for key, items in _inbox_candidates(folder).items()}


def skipped_in_inbox(folder: Path) -> list[tuple[Path, str]]:
    """Entries of the inbox that ``scan_inbox`` does not read, each with the reason and fix.

    Folders, links to nothing, files of other types and files whose partition key another
    inbox file already has are listed so that a run can say why a file the team dropped in
    was not read; hidden files (``.DS_Store``) and Office lock
    files (``~$RFP.docx``) are left out, as nobody put them there on purpose. Empty when the
    folder does not exist.
    """
    folder = Path(folder)
    if not folder.is_dir():
        return []
    skipped: list[tuple[Path, str]] = []
    types = ", ".join(RFP_SUFFIXES)
    for path in sorted(folder.iterdir()):
        if path.name.startswith((".", "~$")):
            continue
        if path.is_symlink() and _link_loops(path):
            reason = (
                f"a link to {path.readlink()}, which leads back to itself (a loop of links); "
                "copy the RFP file itself into the inbox"
            )
        elif path.is_symlink() and not path.exists():
            reason = (
                f"a link to {path.readlink()}, which does not exist; copy the RFP file itself "
                "into the inbox"
            )
        elif path.is_dir():
            reason = (
                "a folder; files inside sub-folders are not read: move the RFP file(s) into "
                "the inbox itself"
            )
        elif not path.is_file():
            reason = "not a regular file; copy the RFP file itself into the inbox"
        elif path.suffix.lower() not in RFP_SUFFIXES:
            reason = (
                f"not an RFP file type ('{path.suffix or '(no extension)'}'); save it as PDF, "
                f"DOCX or Markdown and drop it in again (read: {types})"
            )
        else:
            continue
        skipped.append((folder.resolve() / path.name, reason))
    for key, items in _inbox_candidates(folder).items():
        for item in items[1:]:
            reason = (
                f"its partition key '{key}' is already taken by {items[0].path.name} (the names "
                "differ only in case, spaces or punctuation); rename one of the two files"
            )
            skipped.append((item.path, reason))
    return sorted(skipped, key=lambda pair: pair[0].name)


def _link_loops(path: Path) -> bool:
    """True when following the symlink ``path`` comes back to a link already followed."""
    try:
        path.resolve(strict=True)
    except RuntimeError:  # Python 3.11-3.12: "Symlink loop from ..."
        return True
    except OSError as exc:  # Python 3.13+: ELOOP
        return exc.errno == errno.ELOOP
    return False


def find_in_inbox(folder: Path, key: str) -> Path | None:
    """Path of the inbox file whose partition key is ``key``, or None."""
    hit = scan_inbox(folder).get(key) if Path(folder).is_dir() else None
    return hit.path if hit else None


NO_STRUCTURE = (
    "no sections or asks found: the file has no numbered or headed section and no question "
    "or requirement, so its references rest on its few words alone; check it is the RFP "
    "(not a cover letter or an empty export) and re-run"
)
"""The warning of an RFP that ran but gave nothing to read a scope from."""


def structure_warning(outline: Any, questions: Any) -> str | None:
    """``NO_STRUCTURE`` when a partition's stored ``rfp_outline`` and ``rfp_questions``
    frames are both empty (a file holding only "Hello"), else None (either not stored: None).
    Rule: a document without one section or one ask is not an RFP the brief can stand on."""
    if outline is None or questions is None:
        return None
    return NO_STRUCTURE if outline.is_empty() and questions.is_empty() else None
