"""Which version of its RFP file each stored partition output was built from.

Every RFP-partitioned table carries a ``source_sha`` column: the SHA-256 of the inbox file's
bytes that ``rfp_document`` read. ``rfp_document`` and ``rfp_outline`` are stamped with the
file's sha; every later asset is stamped with the one sha its partition inputs share
(``common_source``). A run killed between two steps (``rfp_document`` written, ``rfp_outline``
not) or a step that failed leaves inputs of different versions of the file; the next asset
that reads them refuses with the partition, the two inputs and what to do, instead of
combining a new document with an old outline.

Rows stored before this column existed read back with ``source_sha`` NULL (the IO manager
migrates the table): their version is unknown, never guessed. Inputs that are all unknown
pass (nothing says they differ); a known version beside an unknown one is refused like two
known versions that differ. An empty input (no rows) carries no version and is skipped.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path

import polars as pl

SOURCE_SHA = "source_sha"
"""Column of every RFP-partitioned table: SHA-256 (hex) of the RFP file it was built from."""

UNKNOWN = "not recorded (stored before source versions were recorded)"


class LineageError(ValueError):
    """Partition inputs built from different versions of the RFP file (the message names the
    partition, the inputs, their versions and what to do)."""


def file_sha(path: Path) -> str:
    """SHA-256 (64 hex characters) of the file's bytes.

    Raises:
        OSError: the file cannot be read.
    """
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def with_source(frame: pl.DataFrame, sha: str | None) -> pl.DataFrame:
    """``frame`` with its ``source_sha`` column set to ``sha`` on every row (None: unknown)."""
    return frame.with_columns(pl.lit(sha, dtype=pl.String).alias(SOURCE_SHA))


def _describe(sha: str | None) -> str:
    return f"sha {sha[:12]}" if sha else UNKNOWN


def common_source(
    inputs: Mapping[str, pl.DataFrame | None], partition: str, file: str | None = None
) -> str | None:
    """The source sha every non-empty input of one partition was built from.

    ``inputs`` maps each input's asset name to its stored rows (None or empty: skipped; no
    ``source_sha`` column: unknown), in pipeline order: the first input with rows is the
    reference the others are compared with. ``file`` names the RFP file in the message.
    Returns the shared sha, or None when no input records one.

    Raises:
        LineageError: two inputs (or two rows of one input) hold different versions, a known
            one beside an unknown one included. The message names the partition, both inputs
            and their versions, and says to re-run every asset of the partition.
    """
    reference: tuple[str, str | None] | None = None
    for name, frame in inputs.items():
        if frame is None or frame.is_empty():
            continue
        if SOURCE_SHA in frame.columns:
            versions = frame[SOURCE_SHA].unique(maintain_order=True).to_list()
        else:
            versions = [None]
        if len(versions) > 1:
            raise LineageError(
                _message(partition, file, f"the stored {name} mixes versions", versions[:2])
            )
        version = versions[0]
        if reference is None:
            reference = (name, version)
        elif version != reference[1]:
            raise LineageError(
                _message(
                    partition,
                    file,
                    f"the stored {name} and {reference[0]} were built from different versions",
                    [version, reference[1]],
                )
            )
    return reference[1] if reference else None


def _message(partition: str, file: str | None, what: str, versions: list[str | None]) -> str:
    source = file or "its RFP file"
    first, second = (_describe(v) for v in versions)
    return (
        f"partition {partition!r}: {what} of {source} ({first} vs {second}); a run stopped or "
        f"failed between its steps. Re-run every asset of partition {partition!r} so all are "
        "rebuilt from the current file."
    )
