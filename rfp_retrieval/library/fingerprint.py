"""A cheap fingerprint of a folder's files (names, sizes, modification times)."""

from __future__ import annotations

import hashlib
from pathlib import Path


def folder_fingerprint(folder: Path) -> str:
    """Hex digest over every non-hidden file under ``folder``; "missing" if it does not exist.

    Changes when a file is added, removed, renamed, resized or touched.
    """
    folder = Path(folder)
    if not folder.is_dir():
        return "missing"
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not any(part.startswith(".") for part in path.parts):
            stat = path.stat()
            digest.update(
                f"{path.relative_to(folder)}|{stat.st_size}|{stat.st_mtime_ns}\n".encode()
            )
    return digest.hexdigest()[:16]
