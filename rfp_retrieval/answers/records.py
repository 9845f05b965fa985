"""Typed records of the answer library: content blocks and what ingest could not use."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

DEFAULT_REVIEW_INTERVAL_DAYS = 365
"""A block is due for review this many days after ``last_reviewed`` (answer-library practice:
content owners re-certify each block once a year)."""

EMPTY_BODY = "empty-body"
DUPLICATE_ID = "duplicate-id"
NO_REVIEW_DATE = "no-review-date"
UNREADABLE_REVIEW_DATE = "unreadable-review-date"


@dataclass
class AnswerBlock:
    """One reusable answer: a Markdown content block or a past questionnaire Q/A pair.

    ``id`` is the block id (``AB-001``; for a spreadsheet row without an id column,
    ``QA-<file stem>-<row>``); ``title`` the block title (a Q/A pair's question); ``topic`` the
    library topic; ``tags`` free keywords; ``body`` the answer text without front matter or
    title heading; ``last_reviewed`` the date the owner last re-certified it (None when not
    stated); ``source`` the file it came from; ``row`` the spreadsheet row (1-based, header
    counted) or None for Markdown; ``kind`` is ``block`` or ``qa-pair``; ``question`` is the
    question a Q/A pair answered ("" for blocks).
    """

    id: str
    title: str
    topic: str
    body: str
    source: str
    tags: list[str] = field(default_factory=list)
    last_reviewed: dt.date | None = None
    owner: str = ""
    row: int | None = None
    kind: str = "block"
    question: str = ""
    problems: list[str] = field(default_factory=list)
    duplicate_of: str | None = None

    @property
    def usable(self) -> bool:
        """False for an empty body or a losing duplicate id: such blocks are never retrieved."""
        return not ({EMPTY_BODY, DUPLICATE_ID} & set(self.problems))

    def review_due(self, interval_days: int = DEFAULT_REVIEW_INTERVAL_DAYS) -> dt.date | None:
        """The date the block falls due for review (None when it was never reviewed)."""
        if self.last_reviewed is None:
            return None
        return self.last_reviewed + dt.timedelta(days=interval_days)

    def is_stale(self, as_of: dt.date, interval_days: int = DEFAULT_REVIEW_INTERVAL_DAYS) -> bool:
        """True when the review date has passed on ``as_of`` or the block was never reviewed."""
        due = self.review_due(interval_days)
        return due is None or due < as_of


@dataclass(frozen=True)
class RejectedBlock:
    """A file or row that could not become a block: where it is and what to do about it."""

    file: str
    row: int | None
    reason: str


@dataclass
class AnswerLibrary:
    """The result of ingesting an answer-library folder.

    ``blocks`` holds every block that has an id, in file order, each with its ``problems``
    (``empty-body``, ``duplicate-id``, ``no-review-date``, ``unreadable-review-date``);
    ``rejected`` holds files and rows that could not become a block at all.
    """

    folder: str
    blocks: list[AnswerBlock] = field(default_factory=list)
    rejected: list[RejectedBlock] = field(default_factory=list)

    def usable(self) -> list[AnswerBlock]:
        """The blocks retrieval may return (no empty bodies, one block per id)."""
        return [b for b in self.blocks if b.usable]
