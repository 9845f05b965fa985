"""Word automatic numbering, rebuilt from the numbering definitions of a DOCX.

Word does not store "3.2.1" in the text of an auto-numbered heading or list item: the
paragraph (or its style) points at a numbering instance (``w:numPr``: ``numId`` and ``ilvl``),
the instance at an abstract definition (``word/numbering.xml``), and the definition gives per
level a format (``decimal``, ``lowerLetter``, ``upperRoman``, ``bullet``...), a start value
and a template (``lvlText`` such as ``"%1.%2."``). Word counts as it lays the document out.
``NumberingTracker`` does the same counting in document order, so the outline sees
``3.2.1 Data Conversion`` as the reader of the printed document does.

Rules followed (ECMA-376 Part 1, 17.9): counters are kept per abstract definition (instances
of one definition continue each other unless they override the start); a paragraph at level
k increments k and resets every deeper level; ``%n`` in ``lvlText`` is level n-1's counter
in that level's own format; ``w:isLgl`` forces decimal; ``w:lvlOverride/w:startOverride``
restarts an instance. Bullets give ``"-"``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_ROMAN = [
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
]


def to_roman(n: int) -> str:
    """``n`` (1..3999) as an upper-case roman numeral (``14`` -> ``XIV``)."""
    out = []
    for value, letters in _ROMAN:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


def to_letters(n: int) -> str:
    """Word's letter numbering: 1 -> a, 26 -> z, 27 -> aa, 28 -> bb."""
    if n <= 0:
        return ""
    return chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)


def format_number(n: int, fmt: str) -> str:
    """One counter in a Word ``numFmt`` (``decimal``, ``lowerLetter``, ``upperRoman``...)."""
    if fmt == "lowerLetter":
        return to_letters(n)
    if fmt == "upperLetter":
        return to_letters(n).upper()
    if fmt == "lowerRoman":
        return to_roman(n).lower()
    if fmt == "upperRoman":
        return to_roman(n)
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt in ("none", "bullet"):
        return ""
    return str(n)


@dataclass
class _Level:
    fmt: str = "decimal"
    text: str = "%1."
    start: int = 1
    legal: bool = False


@dataclass
class _Definitions:
    abstract: dict[str, dict[int, _Level]] = field(default_factory=dict)
    instance: dict[str, str] = field(default_factory=dict)  # numId -> abstractNumId
    starts: dict[tuple[str, int], int] = field(default_factory=dict)  # (numId, ilvl) -> start


def _attr(element, name: str) -> str | None:
    from docx.oxml.ns import qn

    if element is None:
        return None
    return element.get(qn(f"w:{name}"))


def _read_definitions(document) -> _Definitions:
    from docx.oxml.ns import qn

    defs = _Definitions()
    try:
        root = document.part.numbering_part.element
    except (KeyError, NotImplementedError, AttributeError):
        return defs
    for abstract in root.findall(qn("w:abstractNum")):
        aid = _attr(abstract, "abstractNumId") or ""
        levels: dict[int, _Level] = {}
        for lvl in abstract.findall(qn("w:lvl")):
            ilvl = int(_attr(lvl, "ilvl") or 0)
            level = _Level()
            fmt = lvl.find(qn("w:numFmt"))
            text = lvl.find(qn("w:lvlText"))
            start = lvl.find(qn("w:start"))
            level.fmt = _attr(fmt, "val") or "decimal"
            level.text = _attr(text, "val") if text is not None else f"%{ilvl + 1}."
            level.start = int(_attr(start, "val") or 1)
            level.legal = lvl.find(qn("w:isLgl")) is not None
            levels[ilvl] = level
        defs.abstract[aid] = levels
    for num in root.findall(qn("w:num")):
        nid = _attr(num, "numId") or ""
        ref = num.find(qn("w:abstractNumId"))
        defs.instance[nid] = _attr(ref, "val") or ""
        for override in num.findall(qn("w:lvlOverride")):
            ilvl = int(_attr(override, "ilvl") or 0)
            start = override.find(qn("w:startOverride"))
            if start is not None:
                defs.starts[(nid, ilvl)] = int(_attr(start, "val") or 1)
    return defs


def _num_pr(paragraph) -> tuple[str | None, int | None]:
    """(numId, ilvl) of a paragraph, from its own properties or its style chain."""
    ppr = paragraph._p.pPr
    num_id: str | None = None
    ilvl: int | None = None
    if ppr is not None and ppr.numPr is not None:
        if ppr.numPr.numId is not None:
            num_id = str(ppr.numPr.numId.val)
        if ppr.numPr.ilvl is not None:
            ilvl = int(ppr.numPr.ilvl.val)
    style = paragraph.style
    seen = 0
    while num_id is None and style is not None and seen < 10:
        spp = style.element.pPr
        if spp is not None and spp.numPr is not None and spp.numPr.numId is not None:
            num_id = str(spp.numPr.numId.val)
            if ilvl is None and spp.numPr.ilvl is not None:
                ilvl = int(spp.numPr.ilvl.val)
        style = style.base_style
        seen += 1
    return num_id, ilvl


class NumberingTracker:
    """Counts Word list numbering in document order; call ``label`` once per paragraph."""

    def __init__(self, document):
        self.defs = _read_definitions(document)
        self.counters: dict[str, dict[int, int]] = {}
        self.started: set[str] = set()

    def label(self, paragraph) -> tuple[str | None, str]:
        """(kind, label) of ``paragraph``: ``("number", "3.2.1")``, ``("bullet", "-")`` or
        ``(None, "")`` when it is not numbered (``numId`` 0 switches numbering off)."""
        num_id, ilvl = _num_pr(paragraph)
        if num_id is None or num_id == "0" or num_id not in self.defs.instance:
            return None, ""
        ilvl = ilvl or 0
        aid = self.defs.instance[num_id]
        levels = self.defs.abstract.get(aid, {})
        level = levels.get(ilvl, _Level())
        if level.fmt == "bullet":
            return "bullet", "-"
        counters = self.counters.setdefault(aid, {})
        if num_id not in self.started and any(k[0] == num_id for k in self.defs.starts):
            counters.clear()  # an instance that overrides its start restarts the list
        self.started.add(num_id)
        for k in range(ilvl):  # a level used before its parents starts them
            counters.setdefault(k, self._start(num_id, aid, k))
        if ilvl in counters:
            counters[ilvl] += 1
        else:
            counters[ilvl] = self._start(num_id, aid, ilvl)
        for deeper in [k for k in counters if k > ilvl]:
            del counters[deeper]
        text = level.text

        def sub(m: re.Match[str]) -> str:
            k = int(m.group(1)) - 1
            lv = levels.get(k, _Level())
            fmt = "decimal" if level.legal else lv.fmt
            return format_number(counters.get(k, lv.start), fmt)

        label = re.sub(r"%(\d)", sub, text).strip()
        if not label:
            return None, ""
        return "number", label

    def _start(self, num_id: str, aid: str, ilvl: int) -> int:
        if (num_id, ilvl) in self.defs.starts:
            return self.defs.starts[(num_id, ilvl)]
        return self.defs.abstract.get(aid, {}).get(ilvl, _Level()).start


__all__ = ["NumberingTracker", "format_number", "to_letters", "to_roman"]
