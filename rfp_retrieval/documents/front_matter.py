"""Cover-page facts of an RFP: title, issue date, proposal due date, issuing organisation.

Dates are read with the one date grammar, ``rfp_retrieval.quantities.dates`` (``DATE_RE``,
``find_dates``, ``parse_date``: ``June 8, 2026``, ``08/03/2026``, ``10 NOV 04``...), whose
names stay importable from here.
"""

from __future__ import annotations

import datetime as dt
import re

from rfp_retrieval.documents.text import strip_inline_markdown
from rfp_retrieval.quantities.dates import (
    DATE_RE,
    NUMERIC_DATE_LIKE_RE,
    WEEKDAY_RE,
    match_date,
)

__all__ = [
    "bare_date_line",
    "find_due_date",
    "find_issue_date",
    "find_issuer_text",
    "find_title",
    "find_unread_issue_date",
]

_SEP = r"[\s*_:|>\-\u2013\u2014]*(?:on\s+)?[\s*_:|]*"
_ISSUE_LABEL = re.compile(
    r"(?:\b(?:RFP|RFQ|RFI|Solicitation|Proposal|Notice)\s+)?\b(?:Issue\s+Date|"
    r"Date\s+of\s+(?:Issue|Issuance|Release|Publication|Posting)|Issuance|"
    r"Date\s+Issued|Issuance\s+Date|Issued|Release\s+Date|Date\s+Released|Released|"
    r"Posting\s+Date|Date\s+Posted|(?:Original\s+)?(?:Posted|Published)\s+Date|Date\s+Published|"
    r"Posted|Publication\s+Date|Legal\s+Ad\s+Date)\b",
    re.I,
)
_SCHEDULE_ISSUE_EVENT = re.compile(
    r"^\s*(?:RFP|RFQ|RFI|Solicitation|Request\s+for\s+\w+)\s+(?:is\s+)?(?:Opens?|Opened|Issued|"
    r"Released|Posted|Published|Release|Issue)\b",
    re.I,
)
"""A schedule line's event after its date ("2018/10/29: RFP Open"): the release of the RFP."""
_BARE_ISSUE_VERB = re.compile(r"Issued|Released|Posted", re.I)
_SOLICITATION_SUBJECT = re.compile(
    r"(?:^|\b(?:RFP|RFQ|RFI|IFB|ITB|Solicitation|Request\s+for\s+\w+|Proposal|Notice|"
    r"Document)(?:\s+(?:was|is|has\s+been|were|first))?)$",
    re.I,
)
"""What may stand before a bare ``Issued``/``Released``/``Posted``: nothing (a label) or the
solicitation itself ("This RFP was issued on ..."). Anything else is another event's date
("Answers to questions will be released: ...", "Amendment 1 Issued: ...")."""
_WEAK_DATE_LABEL = re.compile(r"^[\s>*_|]*Date[\s*_]*[:|]", re.I)
_DUE_LABEL = re.compile(
    r"\b(?:Proposals?|Quotations?|Quotes?|Offers?|Responses?|Applications?|Bids?)\s+"
    r"(?:are\s+)?(?:Due\s+Date|Due|Deadline)\b|\bDue\s+Date\s+for\s+(?:Proposals?|Quotes?|"
    r"Quotations?|Responses?)\b|\b(?:RFQ|RFP)\s+Closing\s+Date\b|\bResponse\s+Due\s+Date\b|"
    r"\bDeadline\s+for\s+Receipt\s+of\s+Proposals\b|\bProposal\s+Due\s+Date\b",
    re.I,
)
_ONLY_DATE = re.compile(r"^[\s>*_|#]*(?P<d>[^|*_]{6,40}?)[\s*_|]*$")


def _names_the_solicitation(line: str, m: re.Match[str]) -> bool:
    """False when ``m`` is a bare issue verb whose subject on ``line`` is something else."""
    if not _BARE_ISSUE_VERB.fullmatch(m.group(0)):
        return True
    before = strip_inline_markdown(line[: m.start()]).strip(" \t>*_|#:-")
    return bool(_SOLICITATION_SUBJECT.search(before))


def _skip_weekday(text: str) -> str:
    weekday = WEEKDAY_RE.match(text)
    return text[weekday.end() :] if weekday else text


def _after_label(line: str, label: re.Match[str]) -> str:
    """What follows the date label ``label`` in ``line``: past its separator (":", "-", ...)
    and a weekday name ("Issue Date: Friday, ..."), where the date itself should start."""
    after = line[label.end() :]
    lead = re.match(_SEP, after)
    return _skip_weekday(after[lead.end() if lead else 0 :])


def _labelled_date(lines: list[str], label: re.Pattern[str], limit: int) -> dt.date | None:
    for i, line in enumerate(lines[:limit]):
        for m in label.finditer(line):
            if not _names_the_solicitation(line, m):
                continue
            rest = _after_label(line, m)
            dm = DATE_RE.match(rest)
            if dm and match_date(dm):
                return match_date(dm)
            if not strip_inline_markdown(rest).strip(" :|"):
                # label alone on its line: the date is on the next non-empty line
                for nxt in lines[i + 1 : i + 3]:
                    if nxt.strip():
                        only = _ONLY_DATE.match(nxt)
                        text = _skip_weekday(only.group("d").strip()) if only else ""
                        if only and DATE_RE.fullmatch(text):
                            return match_date(DATE_RE.fullmatch(text))
                        break
    return None


def bare_date_line(lines: list[str]) -> dt.date | None:
    """The first line of ``lines`` that holds nothing but a date (``**February 10, 2017**``)."""
    for line in lines:
        only = _ONLY_DATE.match(line)
        if only:
            m = DATE_RE.fullmatch(_skip_weekday(only.group("d").strip()).rstrip("."))
            if m and match_date(m):
                return match_date(m)
    return None


def _schedule_issue_date(lines: list[str], limit: int) -> dt.date | None:
    """A schedule row that starts with a date and names the RFP's release as its event."""
    for line in lines[:limit]:
        text = strip_inline_markdown(line).strip().lstrip("-*+|> ").strip()
        dm = DATE_RE.match(text)
        if not dm or not match_date(dm):
            continue
        event = text[dm.end() :].lstrip(" :|\u2013\u2014-")
        if _SCHEDULE_ISSUE_EVENT.match(event):
            return match_date(dm)
    return None


def find_issue_date(lines: list[str]) -> dt.date | None:
    """The issue date of the solicitation, or None when the text does not state one.

    Reads, in order of preference: a labelled date (``Issue Date``, ``Date of Issue``, ``Date
    Issued``, ``Issued``, ``Release Date``, ``Posting Date``, ``Legal Ad Date``...) in the first
    250 lines (a bare ``Issued``/``Released``/``Posted`` only when nothing but the solicitation
    stands before it: "Answers will be released: ..." is another event; a weekday before the
    date is skipped; a label without a date, ``Issued: TBD``, is passed over), a schedule row
    whose event after the date is the RFP's release (``2018/10/29: RFP Open``), a bare
    ``Date:`` label in the first 80 lines, then a line in the first 40 that holds only a date
    (cover-page dates, amendment dates).
    """
    found = _labelled_date(lines, _ISSUE_LABEL, 250) or _schedule_issue_date(lines, 250)
    if found:
        return found
    found = _labelled_date(lines, _WEAK_DATE_LABEL, 80)
    if found:
        return found
    return bare_date_line(lines[:40])


def find_unread_issue_date(lines: list[str]) -> str | None:
    """The issue date as written when a label states one that cannot be read, else None.

    ``Issue Date: 30/11/2026`` (a day-first slash date: numeric dates are month first),
    ``Issue Date: 31.12.2025`` (dots), ``Issue Date: November 31, 2026`` (no such day) give
    the written text (``'30/11/2026'``); the labels are those of ``find_issue_date`` in its
    first 250 lines; a label alone on its line reads the next non-empty line (``Issue
    Date:`` over ``30/11/2026``), as ``find_issue_date`` does. Used only when
    ``find_issue_date`` found no date, so that the as-of date says the RFP stated a date it
    could not read instead of "states no issue date".
    """
    for i, line in enumerate(lines[:250]):
        for m in _ISSUE_LABEL.finditer(line):
            if not _names_the_solicitation(line, m):
                continue
            rest = _after_label(line, m)
            written = _unreadable(rest)
            if written:
                return written
            if not strip_inline_markdown(rest).strip(" :|"):
                # label alone on its line ("Issue Date:"): the date is on the next non-empty line
                nxt = next((n for n in lines[i + 1 : i + 3] if n.strip()), "")
                only = _ONLY_DATE.match(nxt)
                if only:
                    written = _unreadable(_skip_weekday(only.group("d").strip()))
                    if written:
                        return written
    return None


def _unreadable(rest: str) -> str | None:
    """The date written at the start of ``rest`` when it cannot be read (``30/11/2026``,
    ``November 31, 2026``), else None."""
    dm = DATE_RE.match(rest)
    if dm and match_date(dm) is None:
        return dm.group(0)
    like = NUMERIC_DATE_LIKE_RE.match(rest)
    if like and not dm:
        return like.group(0)
    return None


def find_due_date(lines: list[str]) -> dt.date | None:
    """The proposal/quotation due date (``Proposals Due:``, ``Proposal Due Date:``...), or None."""
    return _labelled_date(lines, _DUE_LABEL, len(lines))


_TITLE_LABEL = re.compile(r"^[\s>*_|]*(?:TITLE|Title)[\s*_]*:[\s*_]*(?P<t>\S.{2,200})$")
_ISSUER_LABEL = re.compile(
    r"^[\s>*_|#]*(?:Issuing\s+(?:Agency|Office|Organi[sz]ation|Activity)|Issued\s+by|"
    r"Agency\s*/\s*Office|Contracting\s+Agency|Agency)[\s*_]*:[\s*_]*(?P<v>.*)$",
    re.I,
)


def find_title(lines: list[str], mode: str) -> str:
    """The document title.

    A ``Title:`` label in the first 40 lines wins; then, in Markdown/DOCX text, the first H1 and
    else the first heading among the first 40 non-empty lines and before the first numbered
    heading (``DRAFT`` and similar stamps are skipped); otherwise the first non-empty line.
    Returns "" for an empty document.
    """
    for line in lines[:40]:
        m = _TITLE_LABEL.match(line)
        if m:
            return _title_length(strip_inline_markdown(m.group("t")))
    if mode == "markdown":
        head = first_content_lines(lines, 40)
        for pattern in (r"^\s{0,3}#\s+(.*?)\s*#*\s*$", r"^\s{0,3}#{2,6}\s+(.*?)\s*#*\s*$"):
            for line in head:
                m = re.match(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
                if m and _NUMBERED.match(strip_inline_markdown(m.group(1))):
                    break  # the outline has started: no title heading before it
                m = re.match(pattern, line)
                text = strip_inline_markdown(m.group(1)) if m else ""
                if text and text.upper() not in _NOT_TITLES:
                    return _title_length(text.rstrip(":"))
    for line in lines:
        if line.strip().startswith(("<!--", "![", "|", "+-")):
            continue  # a comment, an image, a table row: never the title
        line = line[: TITLE_MAX_CHARS * 4]  # a 10 MB one-line document: read its start only
        text = strip_inline_markdown(re.sub(r"^\s*(?:#{1,6}|[-*+•])\s+", "", line))
        if text:
            return _title_length(text)
    return ""


TITLE_MAX_CHARS = 300
"""Longest title kept: a title is one line of a cover page (a state solicitation's full title,
agency and number, runs to about 180 characters); a first line longer than this is a
paragraph, cut at a word with "…"."""


def _title_length(text: str) -> str:
    text = text.strip()
    if len(text) <= TITLE_MAX_CHARS:
        return text
    cut = text[:TITLE_MAX_CHARS].rsplit(" ", 1)[0].rstrip(" ,;:")
    return f"{cut}…"


_NUMBERED = re.compile(
    r"^(?:\d{1,2}(?:\.\d+)*\.?|[A-M]\.\d+(?:\.\d+)*\.?|[IVX]+\.|(?:Section|SECTION|Sec\.)\s+\S+)\s"
)
_NOT_TITLES = {"DRAFT", "FINAL", "CONFIDENTIAL", "TABLE OF CONTENTS", "CONTENTS"}


def first_content_lines(lines: list[str], n: int) -> list[str]:
    """The first ``n`` non-blank lines of ``lines``, as written."""
    out = []
    for line in lines:
        if line.strip():
            out.append(line)
            if len(out) == n:
                break
    return out


def find_issuer_text(lines: list[str]) -> str | None:
    """The issuing organisation as written after ``Issuing Agency:`` / ``Issued by:`` labels.

    When the label stands alone (``## ISSUED BY:``), the next one or two non-empty lines are
    joined with ", ". Returns None when no label is present in the first 80 lines.
    """
    for i, line in enumerate(lines[:80]):
        m = _ISSUER_LABEL.match(line)
        if not m:
            continue
        value = strip_inline_markdown(m.group("v")).strip(" :|")
        if value:
            return value
        parts: list[str] = []
        for nxt in lines[i + 1 : i + 6]:
            text = strip_inline_markdown(nxt).strip(" :|")
            if not text:
                if parts:
                    break
                continue
            if re.match(r"^#|^\W*[A-Z][\w ]{1,30}:", nxt) and parts:
                break
            parts.append(text)
            if len(parts) == 2:
                break
        if parts:
            return ", ".join(parts)
    return None
