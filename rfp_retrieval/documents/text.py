"""Plain-text helpers shared by extraction, outline, summary and the ScopeQuery reader.

Everything here is pure string work: removing invisible characters, normalising whitespace,
stripping inline Markdown and splitting prose into sentences. Numbers written as words
("five (5)", "twenty-four") are read by ``rfp_retrieval.quantities.numbers``.
"""

from __future__ import annotations

import html
import re
import unicodedata

# Zero-width and invisible formatting characters seen in Google-Docs and Word exports, NUL,
# and the bidirectional embeddings, overrides and isolates (U+202A..U+202E, U+2066..U+2069,
# U+061C): an RFP line holding U+202E was shown reversed in the brief and the matrix.
ZERO_WIDTH = dict.fromkeys(
    map(
        ord,
        "\x00\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\ufeff\u00ad"
        "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u061c",
    )
)
_SPACE_LIKE = re.compile(r"[\t\u00a0\u2000-\u200a\u202f\u205f\u3000]")
_MULTI_SPACE = re.compile(r"(?<=\S) {2,}")


def normalise_line(line: str) -> str:
    """One line with invisible characters removed, odd spaces made plain and inner runs collapsed.

    Leading indentation is kept (Markdown nesting depends on it); trailing space is dropped.
    """
    line = line.translate(ZERO_WIDTH)
    line = _SPACE_LIKE.sub(" ", line)
    line = _MULTI_SPACE.sub(" ", line)
    return line.rstrip()


def without_controls(text: str) -> str:
    """``text`` without the characters a reader cannot see but a display obeys: control
    characters (category Cc) other than tab and line breaks, and format characters (Cf: the
    bidirectional overrides and isolates U+202A..U+202E, U+2066..U+2069, marks U+200E/U+200F/
    U+061C, zero widths, a byte-order mark); line and paragraph separators (U+2028/U+2029)
    become line breaks. Rule: a right-to-left override reverses the rest of the line as shown
    (a "Trojan Source" style spoof), and a control character can garble a terminal or a page.
    """
    if text.isascii() and text.isprintable():
        return text
    kept = []
    for ch in text:
        category = unicodedata.category(ch)
        if category in ("Zl", "Zp"):
            kept.append("\n")
        elif category == "Cc":
            kept.append(ch if ch in "\t\n\r" else "")
        elif category != "Cf":
            kept.append(ch)
    return "".join(kept)


def shown_text(text: str) -> str:
    """``text`` as one line safe to show in a brief or a page: ``without_controls``, then tabs
    and line breaks as spaces and runs of spaces collapsed."""
    return " ".join(without_controls(text).split())


_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_EMPHASIS = re.compile(r"(\*\*|__|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])|`)")
HTML_TAG = re.compile(
    r"<!--.*?-->"
    r"|<(?:/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]{0,200}?)?\s*/?|![A-Za-z\[][^<>]{0,200}?)>",
    re.S,
)
"""An HTML tag as CommonMark reads one: ``<`` then a tag name (a letter first: ``<p>``,
``</td>``, ``<br/>``, ``<span class="x">``), a comment, or ``<!`` (a declaration). A ``<``
followed by a space or a digit is a sign, never a tag (break-it: "latency < 200 ms and uptime
> 99.9%" and "<30 seconds ... >95%" were cut as one tag, losing the service levels between
them)."""
AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^<>\s]+|[^<>\s@]+@[^<>\s@]+\.[^<>\s@]+)>", re.I)
"""A CommonMark autolink, ``<https://sam.gov>`` or ``<contracting@agency.gov>``: shown as its
address without the brackets (it was cut as a tag, losing where proposals go)."""
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!$|<>])")


def strip_inline_markdown(text: str) -> str:
    """``text`` without emphasis markers, links (their label is kept), HTML tags and escapes."""
    text = _MD_LINK.sub(r"\1", text)
    text = AUTOLINK.sub(r"\1", text)
    text = HTML_TAG.sub(" ", text)
    text = _MD_EMPHASIS.sub("", text)
    text = _MD_ESCAPE.sub(r"\1", text)
    text = html.unescape(text)
    text = re.sub(r"^\s*>\s?", "", text)  # blockquote marker
    return re.sub(r"\s+", " ", text).strip()


_ABBREVIATIONS = (
    "U.S",
    "Rev",
    "Vol",
    "Para",
    "Art",
    "Fig",
    "Ref",
    "Att",
    "Sec",
    "No",
    "Nos",
    "Inc",
    "Corp",
    "Co",
    "Ltd",
    "Dept",
    "Mr",
    "Ms",
    "Mrs",
    "Dr",
    "St",
    "vs",
    "e.g",
    "i.e",
    "etc",
    "approx",
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "Jun",
    "Jul",
    "Aug",
    "Sep",
    "Sept",
    "Oct",
    "Nov",
    "Dec",
    "Ft",
    "Mt",
    "Ave",
    "a.m",
    "p.m",
)
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9$])")


def split_sentences(text: str) -> list[str]:
    """Sentences of a prose passage, in order, whitespace-normalised.

    Splits after ``.``, ``!`` or ``?`` followed by a capital, digit or ``$``; does not split after
    common abbreviations (``U.S.``, ``Sec.``, ``No.``, ``Inc.``, month abbreviations, ``e.g.``)
    nor inside numbered labels such as ``L.6.2`` or ``3.1.4``.
    """
    text = re.sub(r"\s+", " ", text).strip()
    if not text:
        return []
    out: list[str] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        before = text[start : m.start()]
        tail = re.search(r"(\S+)$", before)
        word = tail.group(1) if tail else ""
        bare = word.rstrip(".!?\"')]")
        if bare in _ABBREVIATIONS or (re.fullmatch(r"[A-Z]", bare) and _initial(word, before)):
            continue
        # a label such as "L.6.2." or "3.1." at the very start of a sentence is not a sentence
        if (
            re.fullmatch(r"(?:[A-Z]|[IVX]+|\d+)(?:\.(?:\d+|[A-Z]))*\.?", word)
            and not before[: -len(word)].strip()
        ):
            continue
        out.append(text[start : m.start()].strip())
        start = m.end()
    out.append(text[start:].strip())
    return [s for s in out if s]


_PART_WORD = re.compile(
    r"\b(?:Attachment|Exhibit|Appendix|Annex|Schedule|Section|Part|Form)\s+\(?[A-Z][.)]*$", re.I
)
"""A document part named by a letter (``Attachment B``, ``Section L``, ``Exhibit (C)``)."""


def _initial(word: str, before: str) -> bool:
    """True when a one-letter ``word`` ending in ``.`` is an initial ("John F. Smith", "U.
    S."): not when a bracket or quote closes after the letter ("(Attachment B). The") nor when
    it names a document part ("... in Attachment B. The Offeror shall"): those end a sentence."""
    if not re.fullmatch(r"[A-Z]\.", word):
        return False
    return not _PART_WORD.search(before)
