"""The RFP inbox: which files are RFPs and the partition key each one gets.

Dagster does not validate dynamic partition keys (field notes §2a): ``a/b``, newlines and
``...`` (the CLI's range separator) are all accepted, so keys are sanitised here.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

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
        digest = hashlib.sha1(name.encode("utf-8")).hexdigest()[:8]
        key = f"{key[: MAX_KEY_LENGTH - 9].rstrip('-')}-{digest}"
    return key


@dataclass(frozen=True)
class InboxFile:
    """One RFP file in the inbox: its partition key, path and modification time (ns)."""

    key: str
    path: Path
    mtime_ns: int


def scan_inbox(folder: Path) -> dict[str, InboxFile]:
    """RFP files directly in ``folder`` (hidden and temporary files skipped), by key.

    Raises:
        FileNotFoundError: the inbox folder does not exist.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"RFP inbox {folder} does not exist; create it or set inbox_dir")
    found: dict[str, InboxFile] = {}
    for path in sorted(folder.iterdir()):
        if not path.is_file() or path.name.startswith((".", "~$")):
            continue
        if path.suffix.lower() not in RFP_SUFFIXES:
            continue
        key = partition_key_for(path.name)
        found[key] = InboxFile(key=key, path=path.resolve(), mtime_ns=path.stat().st_mtime_ns)
    return found


def find_in_inbox(folder: Path, key: str) -> Path | None:
    """Path of the inbox file whose partition key is ``key``, or None."""
    hit = scan_inbox(folder).get(key) if Path(folder).is_dir() else None
    return hit.path if hit else None
