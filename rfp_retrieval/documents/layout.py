"""PDF page layout: text lines with their font size, weight and position (pdfplumber).

Why pdfplumber and not pypdf: pypdf's ``extract_text`` returns a string per page and loses the
character geometry, so headings can only be guessed from wording; its layout mode re-flows
columns with runs of spaces that break words. pdfplumber (on pdfminer.six) gives every
character with its font name, size and box, groups them into lines by position, and lets
us (1) tell a 16-point bold ``Introduction`` from body text, (2) see paragraph breaks as
vertical gaps and write them as blank lines, and (3) split a bold margin label ("Contract /
Type" in a left side column) off the body line it shares a baseline with. pypdf is still used
to detect encryption (``pdf_reader._pdf_password``) because it reports it without parsing pages.
The price is speed: pdfminer interprets every content stream in Python (about 5-15 pages a
second on one core; see ``benchmarks/bench_pdf_parse.py``).

``LineStyle`` travels with each line through cleaning into ``outline.parse_outline``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|,b\b|-b\b", re.I)
"""Font names that mark bold text (``TimesNewRomanPS-BoldMT``, ``Arial,Bold``)."""

PARAGRAPH_GAP = 0.6
"""A vertical gap larger than this many font sizes between two lines is a paragraph break."""

SIDE_GAP = 12.0
"""Points of empty space that separate a side-column label from the body on one baseline."""

CELL_NUMBER = re.compile(r"^(?:[A-Z]{1,3}[.\-])?\d{1,3}(?:\.\d{1,3})*\.?$")
"""An item number alone in a table's number column: decimal (``5``, ``5.1``, ``3.1.2``) with an
optional part or prefix (``L.2``, ``C.3.2``, ``T-01``)."""


@dataclass(frozen=True)
class LineStyle:
    """Typography of one PDF text line.

    ``size`` is the dominant font size in points (by character count), ``bold`` the share of
    bold characters (0..1), ``x0`` the left edge in points; ``side`` marks a label split off
    from a side column (never a heading).
    """

    size: float
    bold: float
    x0: float
    side: bool = False


def _style(chars: list[dict], side: bool = False) -> LineStyle:
    sizes: Counter[float] = Counter()
    bold = 0
    for c in chars:
        sizes[round(float(c.get("size", 0.0)) * 2) / 2] += 1
        if BOLD_FONT.search(str(c.get("fontname", ""))):
            bold += 1
    size = sizes.most_common(1)[0][0] if sizes else 0.0
    return LineStyle(size, bold / len(chars) if chars else 0.0, float(chars[0]["x0"]), side)


def _text_of(chars: list[dict]) -> str:
    """Text of a run of characters (space glyphs kept), with a space where two glyphs are
    further apart than 15% of the font size (a word gap; letters inside a word touch)."""
    out: list[str] = []
    prev = None
    for c in chars:
        if not c["text"].strip():
            out.append(" ")
            continue
        gap = float(c["x0"]) - float(prev["x1"]) if prev is not None else 0.0
        if prev is not None and gap > max(1.0, 0.15 * float(c.get("size", 10.0))):
            out.append(" ")
        out.append(c["text"])
        prev = c
    return re.sub(r"\s+", " ", "".join(out)).strip()


def _split_side_label(chars: list[dict]) -> tuple[list[dict], list[dict]] | None:
    """(label chars, body chars) when a bold run at the left is followed by a wide gap and
    non-bold text; None otherwise. ``chars`` include space glyphs."""
    visible = [c for c in chars if c["text"].strip()]
    if len(visible) < 4:
        return None
    for k in range(1, len(visible)):
        gap = float(visible[k]["x0"]) - float(visible[k - 1]["x1"])
        if gap < SIDE_GAP:
            continue
        left, right = visible[:k], visible[k:]
        label = "".join(c["text"] for c in left)
        if any(ch.isdigit() for ch in label) or sum(ch.isalpha() for ch in label) < 3:
            return None  # a hanging section number ("A.1.1.   This is ...") stays on its line
        left_bold = sum(1 for c in left if BOLD_FONT.search(str(c.get("fontname", ""))))
        right_bold = sum(1 for c in right if BOLD_FONT.search(str(c.get("fontname", ""))))
        if left_bold >= 0.8 * len(left) and right_bold <= 0.2 * len(right) and len(left) <= 40:
            split_x = float(right[0]["x0"])
            return (
                [c for c in chars if float(c["x0"]) < split_x],
                [c for c in chars if float(c["x0"]) >= split_x],
            )
        return None
    return None


def page_lines(page) -> list[tuple[str, LineStyle | None]]:
    """Text lines of a pdfplumber page with their style, blank lines at paragraph gaps.

    Lines come from ``page.extract_text_lines`` (the same grouping as ``extract_text``).
    ``(cid:NN)`` glyph placeholders are dropped. A side-column label is returned as its own
    line (style ``side=True``) before the body line it shared a baseline with.
    """
    out: list[tuple[str, LineStyle | None]] = []
    prev_bottom: float | None = None
    raw = page.extract_text_lines(return_chars=True, strip=True)
    raw = place_cell_numbers(raw, lambda: _rules(page))
    for k, line in enumerate(raw):
        chars = [c for c in line.get("chars", []) if c.get("text", "").strip()]
        text = re.sub(r"\(cid:\d+\)", "", line.get("text", ""))
        if not chars:
            out.append((text, None))
            continue
        style = _style(chars)
        top = float(line["top"])
        if prev_bottom is not None and top - prev_bottom > PARAGRAPH_GAP * max(style.size, 6.0):
            if out and out[-1][0].strip():
                out.append(("", None))
        prev_bottom = max(prev_bottom or 0.0, float(line["bottom"]))
        split = _split_side_label(list(line.get("chars", [])))
        if split is not None:
            label, body = split
            _add_side_label(out, _text_of(label), _style(label, side=True))
            out.append((re.sub(r"\(cid:\d+\)", "", _text_of(body)), _style(body)))
            continue
        if _is_side_line(raw, k, style, text):
            _add_side_label(out, text, LineStyle(style.size, style.bold, style.x0, side=True))
            continue
        out.append((text, style))
    return out


def _rules(page) -> list[tuple[float, float, float]]:
    """Horizontal rules drawn on ``page`` (table borders): (top, x0, x1) in points."""
    try:
        edges = page.horizontal_edges
    except Exception:  # a malformed graphics object: read the text without rules
        return []
    return [(float(e["top"]), float(e["x0"]), float(e["x1"])) for e in edges]


def _number_split(chars: list[dict]) -> tuple[list[dict], list[dict]] | None:
    """(number chars, rest) when a line opens with an item number (``CELL_NUMBER``) as a word
    of its own; None otherwise. ``rest`` is empty for a line that is the number alone."""
    visible = [c for c in chars if c["text"].strip()]
    for k in range(1, len(visible) + 1):
        if k < len(visible):
            gap = float(visible[k]["x0"]) - float(visible[k - 1]["x1"])
            if gap <= max(1.0, 0.15 * float(visible[k].get("size", 10.0))):
                continue  # letters of one word
        if not CELL_NUMBER.match("".join(c["text"] for c in visible[:k])):
            return None
        if k == len(visible):
            return visible, []
        split_x = float(visible[k]["x0"])
        return visible[:k], [c for c in chars if float(c["x0"]) >= split_x]
    return None


def place_cell_numbers(raw: list[dict], rules: Callable[[], list]) -> list[dict]:
    """Put the number of a table row back at the start of its text when the row's cells are
    centred vertically.

    A number column centred against a question that wraps over two lines puts the number on a
    line of its own between the question's lines ("...update the resident" / "5.1" / "when the
    work order closes?"); over three lines, on the middle line's baseline. A row's number
    labels the whole row, as a proposal manager reads the table, so it goes in front of the
    row's first line. The row is the run of lines at the text's left edge around the number,
    bounded above and below by a paragraph gap, a drawn horizontal rule (``rules``: a callable
    giving (top, x0, x1) of each rule, called once a candidate is seen) or the page's edge,
    and the number must sit at its middle (as many lines above as below, give or take one).
    Other cells centred on the number's baseline right of the text column (a page limit, a
    score: ``_columns_apart``) move to the end of the row's last line, where a one-line row
    has them. A number on its row's first line, and a numbered paragraph whose wrapped lines
    hang under its text (the previous paragraph's lines end at a numbered line, not at a
    boundary), are left alone. ``raw`` is ``extract_text_lines(return_chars=True)`` output
    (not modified)."""
    out = [dict(line) for line in raw]
    ruled: list | None = None
    k = 1
    while k < len(out):
        split = _number_split(list(out[k].get("chars", [])))
        above = out[k - 1]
        if split is None or not above.get("chars"):
            k += 1
            continue
        number, rest = split
        text_x = float(above["x0"])
        seen = [c for c in rest if c["text"].strip()]
        if text_x <= float(number[-1]["x1"]) or (seen and float(seen[0]["x0"]) < text_x - 2):
            k += 1
            continue
        if ruled is None:
            ruled = rules()
        first = k - 1
        while first > 0 and _joined(out[first - 1], out[first], text_x, ruled):
            first -= 1
        last = k + 1
        while last < len(out) and _joined(out[last - 1], out[last], text_x, ruled, below=True):
            last += 1
        bounded = (first == 0 or _parted(out[first - 1], out[first], ruled)) and (
            last == len(out) or _parted(out[last - 1], out[last], ruled)
        )
        above_n, below_n = k - first, last - k - 1
        right = max(float(out[j]["x1"]) for j in range(first, last) if j != k)
        rest, tail = _columns_apart(rest, text_x, right)
        if (
            _parted(above, out[k], ruled)
            or not bounded
            or abs(above_n - below_n) > 1
            or (rest and abs(float(rest[0]["x0"]) - text_x) > 2)
            or (tail and float(tail[0]["x0"]) <= right)
        ):
            k += 1
            continue
        if not rest and below_n == 0:
            k += 1
            continue
        out[first] = _with_chars(out[first], [*number, *out[first]["chars"]])
        if rest:
            out[k] = _with_chars(out[k], rest)
        if tail:  # the row's other cells (a page limit, a score) follow its text, as they
            end = out[last - 1]  # do on a row of one line
            out[last - 1] = _with_chars(end, [*end["chars"], *tail])
        if rest:
            k += 1
        else:
            del out[k]
    return out


def _columns_apart(chars: list[dict], text_x: float, right: float) -> tuple[list[dict], list[dict]]:
    """(text, other cells) of a row line's chars after its number. The text starts at
    ``text_x``; other cells (a page limit, a score) start right of ``right``, the right edge
    of the row's other text lines, after a gap wider than half the font size (justified text
    never reaches past its column's edge). Chars that start right of ``text_x`` with no text
    before them are all other cells."""
    visible = [c for c in chars if c["text"].strip()]
    if not visible:
        return [], []
    if float(visible[0]["x0"]) > text_x + 2:
        return [], visible
    for j in range(1, len(visible)):
        gap = float(visible[j]["x0"]) - float(visible[j - 1]["x1"])
        if gap > 0.5 * float(visible[j].get("size", 10.0)) and float(visible[j]["x0"]) > right:
            cut = float(visible[j]["x0"])
            return [c for c in chars if float(c["x0"]) < cut], visible[j:]
    return chars, []


def _with_chars(line: dict, chars: list[dict]) -> dict:
    """``line`` holding ``chars`` (its text and left edge read from them)."""
    return {**line, "text": _text_of(chars), "x0": float(chars[0]["x0"]), "chars": chars}


def _parted(upper: dict, lower: dict, rules: list[tuple[float, float, float]]) -> bool:
    """True when a paragraph gap or a horizontal rule under the text separates two lines."""
    sizes = [float(c.get("size", 0.0)) for c in lower.get("chars", [])] or [10.0]
    if float(lower["top"]) - float(upper["bottom"]) > PARAGRAPH_GAP * max(max(sizes), 6.0):
        return True
    x = max(float(lower["x0"]), float(upper["x0"]))
    return any(
        float(upper["bottom"]) - 1 <= top <= float(lower["top"]) + 1 and x0 <= x <= x1
        for top, x0, x1 in rules
    )


def _joined(upper: dict, lower: dict, text_x: float, rules: list, below: bool = False) -> bool:
    """True when ``upper`` and ``lower`` are lines of one table cell whose text starts at
    ``text_x`` (``below``: ``lower`` is the new line, ``upper`` the cell so far)."""
    new = lower if below else upper
    if not new.get("chars") or abs(float(new["x0"]) - text_x) > 2:
        return False
    return not _parted(upper, lower, rules)


def _is_side_line(raw: list[dict], k: int, style: LineStyle, text: str) -> bool:
    """A short bold line in a left label column: a neighbouring line of plain (not bold) body
    text starts 40 pt further right within one and a half line heights."""
    if style.bold < 0.8 or len(text.split()) > 4:
        return False
    top = float(raw[k]["top"])
    for j in (k - 1, k + 1):
        if 0 <= j < len(raw):
            other = raw[j]
            chars = [c for c in other.get("chars", []) if c.get("text", "").strip()]
            if not chars or _style(chars).bold > 0.3:
                continue
            near = abs(float(other["top"]) - top) <= 1.5 * max(style.size, 6.0)
            if near and float(other["x0"]) >= style.x0 + 40:
                return True
    return False


def _add_side_label(out: list[tuple[str, LineStyle | None]], text: str, style: LineStyle) -> None:
    """Put a side-column label on its own line before the paragraph it labels (the last line
    that starts at the label's left edge), joining its fragments ("Type of" + "Contract")."""
    at = len(out)
    for i in range(len(out) - 1, -1, -1):
        line_text, line_style = out[i]
        if not line_text.strip():
            break
        if line_style is not None and line_style.side:
            out[i] = (f"{line_text} {text}", line_style)  # a further fragment of the label
            return
        if line_style is not None and abs(line_style.x0 - style.x0) <= 5:
            at = i
            break
    before = out[at - 1] if at > 0 else None
    if before is not None and before[1] is not None and before[1].side:
        out[at - 1] = (f"{before[0]} {text}", before[1])
        return
    out.insert(at, (text, style))


def body_size(styles: list[LineStyle | None], lines: list[str]) -> float:
    """The body-text font size: the size carrying the most characters."""
    weight: Counter[float] = Counter()
    for style, line in zip(styles, lines, strict=False):
        if style is not None and not style.side:
            weight[style.size] += len(line)
    return weight.most_common(1)[0][0] if weight else 0.0
