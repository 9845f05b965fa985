"""Markdown (and DOCX rendered as Markdown) as clean lines: HTML comments and tables, setext
headings, pandoc grid and simple tables, broken ATX headings, escapes and blockquotes undone."""

from __future__ import annotations

import html
import re

from rfp_retrieval.documents.text import HTML_TAG, normalise_line

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_HTML_TABLE = re.compile(r"<table\b.*?</table>", re.S | re.I)
_RULE_LINE = re.compile(
    r"^\s*+[|+]?(?:\s*:?[-=]{3,}:?\s*[|+])+\s*:?[-=]*:?\s*$|^\s*+\+[-=+:]+\+\s*$"
)
r"""A table's rule line (``|---|:--:|``, ``+----+``). The indentation is taken whole
(``\s*+``): with backtracking into it, a line indented 4,000 spaces (a list nested 2,000
deep) took a second to reject."""
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!$|<>&])")


def _html_table_to_rows(match: re.Match[str]) -> str:
    html_text = match.group(0).replace("\n", " ")
    rows = re.findall(r"<tr\b.*?</tr>", html_text, flags=re.S | re.I)
    out = []
    for row in rows:
        cells = re.findall(r"<t[dh]\b[^>]*>(.*?)</t[dh]>", row, flags=re.S | re.I)
        texts = [HTML_TAG.sub(" ", c) for c in cells]
        texts = [re.sub(r"\s+", " ", t).strip() for t in texts]
        out.append("| " + " | ".join(texts) + " |")
    return "\n" + "\n".join(out) + "\n"


_HTML_HEADING = re.compile(r"<h([1-6])\b[^>]*>(.*?)</h\1\s*>", re.S | re.I)


def _html_heading_to_atx(match: re.Match[str]) -> str:
    """``<h2>3. Evaluation</h2>`` as the ATX heading ``## 3. Evaluation`` on its own line."""
    inner = " ".join(HTML_TAG.sub(" ", match.group(2)).split())
    return f"\n{'#' * int(match.group(1))} {inner}\n" if inner else "\n"


_FRONT_MATTER_END = ("---", "...")
FRONT_MATTER_MAX_LINES = 200
"""Most lines a Markdown file's YAML front matter block (between ``---`` lines) may have."""


def _front_matter_as_text(raw_lines: list[str]) -> list[str]:
    """``raw_lines`` with a leading YAML front matter block (``---`` / ``title: ...`` /
    ``---``, as static-site and pandoc Markdown start) as plain lines, one paragraph per
    ``key: value``: the closing ``---`` made the last field a setext heading in the outline
    (break-it: ``date: 2026-03-01`` was a section). Nothing is dropped; a block that is not a
    YAML mapping is left as it is."""
    if not raw_lines or raw_lines[0].strip() != "---":
        return raw_lines
    end = next(
        (
            k
            for k in range(1, min(len(raw_lines), FRONT_MATTER_MAX_LINES + 2))
            if raw_lines[k].strip() in _FRONT_MATTER_END
        ),
        None,
    )
    if end is None or end == 1:
        return raw_lines
    import yaml

    try:
        fields = yaml.safe_load("\n".join(raw_lines[1:end]))
    except yaml.YAMLError:
        return raw_lines
    if not isinstance(fields, dict):
        return raw_lines
    block: list[str] = []
    for line in raw_lines[1:end]:
        if line.strip():
            block += [line, ""]
    return ["", *block, *raw_lines[end + 1 :]]


def clean_markdown(raw_lines: list[str]) -> list[str]:
    """Markdown lines with comments removed, HTML tables turned into pipe rows, HTML headings
    into ``#`` headings (break-it: ``<h2>3. Evaluation</h2>`` was left out of the outline and
    its text joined the paragraph before), escapes undone."""
    text = "\n".join(_front_matter_as_text(raw_lines))
    text = _HTML_COMMENT.sub("", text)
    text = _HTML_TABLE.sub(_html_table_to_rows, text)
    text = _HTML_HEADING.sub(_html_heading_to_atx, text)
    # a line break inside a pipe-table cell stays inside its row
    text = re.sub(
        r"(?m)^(\s*\|.*)$",
        lambda m: re.sub(r"\s*<br\s*/?>\s*", " ", m.group(1), flags=re.I),
        text,
    )
    text = re.sub(r"<br\s*/?>", "\n", text, flags=re.I)
    text = re.sub(r"</?(?:span|div|p|sup|sub|u|font)\b[^>]*>", "", text, flags=re.I)
    out: list[str] = []
    raw = _pandoc_tables(_join_empty_atx(_setext_to_atx(text.splitlines())))
    for line in raw:
        if _RULE_LINE.match(line) or _SIMPLE_TABLE_RULE.match(line):
            continue
        line = _MD_ESCAPE.sub(r"\1", line)
        line = html.unescape(line)
        line = re.sub(r"^(\s*)(?:>\s?)+", r"\1", line)  # blockquote markers
        line = re.sub(r"^(\s*[-*+]\s+)(?:>\s?)+", r"\1", line)  # "  - > item" (pandoc)
        out.append(normalise_line(line))
    return _collapse_blank(out)


_SETEXT = re.compile(r"^(=+|-{2,})\s*$")
_SIMPLE_TABLE_RULE = re.compile(r"^\s*-{2,}(?:\s+-{2,})+\s*$|^\s{2,}-{3,}\s*$")


def _setext_to_atx(lines: list[str]) -> list[str]:
    """Pandoc-style ``Title`` / ``=====`` (H1) and ``Title`` / ``-----`` (H2) as ``#`` headings."""
    out: list[str] = []
    for line in lines:
        m = _SETEXT.match(line)
        if m and out and out[-1].strip() and not re.match(r"^\s*(?:[|#>]|[*+-]\s)", out[-1]):
            prev = out.pop().strip()
            out.append(("# " if m.group(1)[0] == "=" else "## ") + prev)
            continue
        out.append(line)
    return out


_EMPTY_ATX = re.compile(r"^\s{0,3}(#{1,6})\s*$")


_GRID_RULE = re.compile(r"^\s*\+(?:[-=:]+\+)+\s*$")
_COLUMN_RULE = re.compile(r"^\s*-{2,}(?:\s+-{2,})+\s*$")
_FULL_RULE = re.compile(r"^\s*-{10,}\s*$")


def _pandoc_tables(lines: list[str]) -> list[str]:
    """Pandoc grid tables (``+---+``) and simple / multiline tables (``---- ----`` column
    rules) as ``| a | b |`` rows, one row per table row, multi-line cells joined.

    A pandoc hard break (trailing backslash) inside a cell becomes a space. Lines that are not
    part of such a table pass through unchanged.
    """
    out: list[str] = []
    i = 0
    n = len(lines)
    while i < n:
        if _GRID_RULE.match(lines[i]):
            j = i
            while j < n and (_GRID_RULE.match(lines[j]) or lines[j].lstrip().startswith("|")):
                j += 1
            out += _grid_rows(lines[i:j])
            i = j
            continue
        if _COLUMN_RULE.match(lines[i]):
            table, start = _simple_table(lines, i)
            if table:
                del out[len(out) - (i - start) :]  # the header lines already copied
                out += ["", *table[0], ""]
                i = table[1]
                continue
        out.append(lines[i])
        i += 1
    return out


def _cell_text(parts: list[str]) -> str:
    text = " ".join(p.strip().rstrip("\\").strip() for p in parts if p.strip())
    return re.sub(r"\s+", " ", text).strip()


def _grid_rows(block: list[str]) -> list[str]:
    rule = next(ln for ln in block if _GRID_RULE.match(ln))
    bounds = [k for k, ch in enumerate(rule) if ch == "+"]
    rows: list[str] = []
    current: list[list[str]] = []

    def flush() -> None:
        if current:
            cells = [_cell_text([row[c] for row in current]) for c in range(len(bounds) - 1)]
            if any(cells):
                rows.append("| " + " | ".join(cells) + " |")
            current.clear()

    for line in block:
        if _GRID_RULE.match(line):
            flush()
            continue
        padded = line.ljust(bounds[-1] + 1)
        current.append([padded[bounds[c] + 1 : bounds[c + 1]] for c in range(len(bounds) - 1)])
    flush()
    return ["", *rows, ""]


def _simple_table(lines: list[str], at: int) -> tuple[tuple[list[str], int] | None, int]:
    """((rows, end index), first line index) of the pandoc simple/multiline table whose column
    rule is ``lines[at]``; (None, at) when it is not one."""
    spans = [(m.start(), m.end()) for m in re.finditer(r"-{2,}", lines[at])]
    header: list[str] = []
    k = at - 1
    while k >= 0 and lines[k].strip() and not _FULL_RULE.match(lines[k]):
        header.insert(0, lines[k])
        k -= 1
    multiline = k >= 0 and bool(_FULL_RULE.match(lines[k]))
    start = k if multiline else k + 1
    rows: list[list[str]] = []
    current: list[str] = []
    j = at + 1
    while j < len(lines):
        line = lines[j]
        if _FULL_RULE.match(line) or _COLUMN_RULE.match(line):
            j += 1
            break
        if not line.strip():
            if current:
                rows.append(current)
                current = []
            if not multiline:
                break
            j += 1
            continue
        current.append(line)
        if not multiline:
            rows.append(current)
            current = []
        j += 1
    if current:
        rows.append(current)
    if not rows:
        return None, at

    def cells(physical: list[str]) -> list[str]:
        out = []
        for c, (a, _) in enumerate(spans):
            end = spans[c + 1][0] if c + 1 < len(spans) else None
            begin = a if c else 0
            out.append(_cell_text([ln[begin:end] if len(ln) > begin else "" for ln in physical]))
        return out

    table = ["| " + " | ".join(cells(header)) + " |"] if header else []
    table += ["| " + " | ".join(cells(row)) + " |" for row in rows]
    return (table, j), start


def _join_empty_atx(lines: list[str]) -> list[str]:
    """``####`` alone on a line with its text on the next line (a pandoc export slip) is one
    heading: ``#### 9.6.4 Phase 2 - Oral Interview``."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        broken = re.match(r"^(\s{0,3}#{1,6}\s.*?)\\\s*$", lines[i])
        if broken and i + 1 < len(lines) and lines[i + 1].strip():
            # "### **\\" + "Rules**": a heading broken by a pandoc hard line break
            out.append(f"{broken.group(1).rstrip()} {lines[i + 1].strip()}")
            i += 2
            continue
        m = _EMPTY_ATX.match(lines[i])
        if (
            m
            and i + 1 < len(lines)
            and lines[i + 1].strip()
            and not lines[i + 1].lstrip().startswith(("#", "|", "<"))
        ):
            out.append(f"{m.group(1)} {lines[i + 1].strip()}")
            i += 2
            continue
        out.append(lines[i])
        i += 1
    return out


def _collapse_blank(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if not line.strip():
            if out and out[-1] == "":
                continue
            out.append("")
        else:
            out.append(line)
    while out and out[0] == "":
        out.pop(0)
    while out and out[-1] == "":
        out.pop()
    return out
