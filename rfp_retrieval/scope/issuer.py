"""Who issued an RFP: the issuer label, else the organisation named on the cover page."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rfp_retrieval.agencies import (
    issuer_type,
    non_federal_parent,
    non_federal_type,
    resolve_agency,
)
from rfp_retrieval.documents.front_matter import find_issuer_text
from rfp_retrieval.documents.records import RfpDocument
from rfp_retrieval.documents.text import strip_inline_markdown

if TYPE_CHECKING:
    from rfp_retrieval.scope.reading import ScopeReading


def read_issuer(doc: RfpDocument, lines: list[str], reading: ScopeReading) -> None:
    """Set ``reading.issuer``, ``issuer_acronym``, ``parent_agency`` and ``issuer_type`` from the
    issuer label or the cover page of ``doc`` (``lines``: its text lines); traces the source."""
    text = find_issuer_text(lines)
    source = "issuer label"
    if not text:
        text, source = _issuer_from_opening(lines)
    if not text:
        text, source = _issuer_from_front(doc, lines)
    if not text:
        reading.trace.append(
            {"filter": "issuer", "section": None, "sentence": None, "reading": "not stated"}
        )
        return
    agency = resolve_agency(text)
    reading.issuer_type = issuer_type(text)
    if reading.issuer_type is None and agency is None and _COMPANY_NAME.search(text):
        reading.issuer_type = "commercial"
    front = " ".join([doc.title, *lines[:30]])
    context_type = non_federal_type(front) if agency is None else None
    if agency is None and non_federal_type(text) is None and context_type is not None:
        # "ISSUED BY: Department of Health and Social Services" under "State of Alaska RFP"
        reading.issuer_type = context_type
        if context_type in ("state", "local") and non_federal_parent(front):
            text = f"{non_federal_parent(front)}, {text}"
    if agency is not None:
        dept = (
            resolve_agency(None, agency.department) if agency.department != agency.acronym else None
        )
        names = [dept.name] if dept is not None and dept.acronym != agency.acronym else []
        if agency.parent and agency.parent != agency.department:
            parent = resolve_agency(None, agency.parent)
            if parent is not None:
                names = [parent.name]
        names.append(agency.name)
        reading.issuer = ", ".join(names)
        reading.issuer_acronym = agency.acronym
        reading.parent_agency = agency.parent or agency.acronym
    else:
        parts = [re.sub(r"\s*\([^)]*\)", "", p).strip() for p in re.split(r",\s+", text)]
        parts = [p for p in parts if p]
        keep = [p for p in parts[:2] if not re.match(r"^(?:on behalf|Office of the Chief)", p)]
        reading.issuer = ", ".join(keep) if keep else text
        acronyms = re.findall(r"\(([A-Z][A-Za-z]{1,9})\)", text)
        reading.issuer_acronym = acronyms[-1] if acronyms else None
        reading.parent_agency = non_federal_parent(text)
    reading.trace.append(
        {"filter": "issuer", "section": source, "sentence": text, "reading": reading.issuer_type}
    )


# Words that make an organisation's name a company's when no government mark is found (the
# legal-form marks Inc., LLC, Corp. live in ``agencies``): "Northwind Holdings", "Bayside
# Mutual", "First Prairie Bank", a hospital system ("Prairie Lakes Health System": a county or
# university hospital carries its government mark, which is read first).
_COMPANY_NAME = re.compile(
    r"\b(?:Holdings|Group|Partners|Bank|Bancorp|Mutual|Insurance Company|Assurance|"
    r"Credit Union|Cooperative|Airlines|Stores|Brands|Enterprises|Industries|Health System|"
    r"Health Plan|Hospitals?|Medical Center|Clinic)\b"
)

# A cover line that is a company's name: it ends in one of ``_COMPANY_NAME``'s words (a name
# ends in its legal-form or kind word; "Health Plan Modernization" is a title, not a name).
# New-user trial: a utility cooperative's RFP read no issuer, so no sector bump.
_COMPANY_NAME_LINE = re.compile(_COMPANY_NAME.pattern + r"\W*$")

_ORG_NAME = re.compile(
    r"(?:[A-Z][a-z]+ ){1,4}(?:University|County)\b|\b(?:State|City|Commonwealth) of "
    r"[A-Z][a-z]+(?: [A-Z][a-z]+)?|\b(?:STATE|COMMONWEALTH) OF [A-Z]+(?: [A-Z]+)?\b"
)


# The opening sentence that names who solicits: "The City of Riverton Department of Public
# Works (the City) invites proposals ...", "Lakeshore Regional Transit Authority ("the
# Authority") is soliciting proposals ...". The name is what comes before the short-name
# parenthesis or the verb.
_OPENING_SOLICITS = re.compile(
    r"^(?:The\s+)?(?P<org>[A-Z][\w.&'’\-]*(?:[ ,]+(?:of|and|for|the|on|[A-Z][\w.&'’\-]*))*?)"
    r"\s*(?:\([\"“]?(?:hereinafter\s+)?[\"“]?(?:the\s+)?[\"“]?[A-Z][\w ]{0,40}?[\"”]?\)\s*,?\s*)?"
    r"(?:hereby\s+)?(?:invites|requests|solicits|seeks|is\s+(?:requesting|soliciting|seeking|"
    r"issuing|inviting))\s+(?:sealed\s+|competitive\s+|written\s+)?"
    r"(?:proposals|offers|responses|qualifications|bids|submissions)\b"
)

# Who may solicit but is not an organisation's name: "The Government invites proposals".
_GENERIC_SOLICITOR = re.compile(r"^(?:Government|Agency|Department|Owner|Purchaser|Buyer|Client)$")


def _issuer_from_opening(lines: list[str]) -> tuple[str | None, str]:
    """The organisation named as the one inviting proposals in the opening paragraphs (the
    first 40 lines), e.g. "The City of X Department of Y (the City) invites proposals ...";
    (None, "") when no such sentence names one. Source label "opening paragraph"."""
    for line in lines[:40]:
        text = strip_inline_markdown(re.sub(r"^\s*(?:#+|[-*>])\s*", "", line)).strip()
        for sentence in re.split(r"(?<=[.;])\s+(?=[A-Z])", text):
            m = _OPENING_SOLICITS.match(sentence)
            if not m:
                continue
            org = m.group("org").strip(" ,")
            if len(org) > 120 or _GENERIC_SOLICITOR.match(org) or " " not in org:
                continue
            return org, "opening paragraph"
    return None, ""


def _issuer_from_front(doc: RfpDocument, lines: list[str]) -> tuple[str | None, str]:
    """The organisation named on the cover page when no issuer label is present.

    The first short, name-like line (Title Case, no verbs) that resolves to a federal agency or
    reads as a state / local organisation or ends in a company word (``_COMPANY_NAME_LINE``:
    "Cascade Ridge Electric Cooperative", "First Prairie Bank"); else the first "X University",
    "X County", "State of X" in the first 40 lines.
    """
    for line in lines[:40]:
        text = strip_inline_markdown(re.sub(r"^\s*#+\s*", "", line)).strip(" |")
        if not text or len(text) > 100 or not text[0].isalpha() or not text[0].isupper():
            continue
        words = [w for w in re.findall(r"[A-Za-z][A-Za-z'’\-]*", text) if len(w) >= 4]
        if words and sum(w[0].isupper() for w in words) / len(words) < 0.6:
            continue
        if (
            resolve_agency(text) is not None
            or non_federal_type(text) is not None
            or _COMPANY_NAME_LINE.search(text)
        ):
            return text, "cover page"
    for line in lines[:40]:
        m = _ORG_NAME.search(strip_inline_markdown(line))
        if m:
            return m.group(0).strip(), "cover page"
    return None, ""
