"""The date a ScopeQuery's recency counts back from when nothing else is stated."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import NamedTuple

from rfp_retrieval.documents.records import RfpDocument

ISSUE_DATE_SOURCE = "issue date stated in the RFP"
FILE_DATE_SOURCE = "file date (the RFP states no issue date)"


def unread_issue_date_source(written: str) -> str:
    """The as-of source when the RFP states an issue date that cannot be read (``written``)."""
    return (
        f"the RFP's issue date '{written}' could not be read (day/month order unclear or "
        "impossible date); recency counted from the file date"
    )


class AsOf(NamedTuple):
    """An as-of date and the sentence that says where it came from (``as_of_source``)."""

    date: dt.date
    source: str


def as_of_for(doc: RfpDocument) -> AsOf:
    """The as-of date of an RFP: its stated issue date, else its file's modification date.

    The one rule shared by the ``scope_query`` asset and ``rfp-retrieval parse``: the issue
    date stated in the RFP; when the RFP states none, the date the file was last modified
    (local time); the wall clock only when the file is gone. The source names the first two
    (``ISSUE_DATE_SOURCE``, ``FILE_DATE_SOURCE``; a missing file still reports the file date);
    an issue date stated but unreadable (``doc.issue_date_unread``) is named in the source
    (``unread_issue_date_source``) and the file date is used. Never raises.
    """
    if doc.issue_date:
        return AsOf(doc.issue_date, ISSUE_DATE_SOURCE)
    mtime = Path(doc.path).stat().st_mtime if Path(doc.path).exists() else None
    date = dt.date.fromtimestamp(mtime) if mtime else dt.date.today()
    unread = doc.issue_date_unread
    return AsOf(date, unread_issue_date_source(unread) if unread else FILE_DATE_SOURCE)
