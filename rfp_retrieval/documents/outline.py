"""The RFP outline: numbered and unnumbered sections found in the clean text, as a tree.

Two reading modes share one numbering table (``NUMBERING_SCHEMES``):

- ``markdown`` (Markdown files and DOCX, which extraction renders as Markdown): ATX headings
  (``## 2.1 Scope``), bold paragraph headings (``**1. General.** Please submit...``) and plain
  paragraphs that open with a multi-part label (``3.1.4 Describe...``, ``L.5.1 Provide...``,
  ``IV.A.1 ...``, ``Question 12. ...``). A single ``1.`` at the start of a plain line is a Markdown
  ordered-list item, never a heading.
- ``plain`` (PDF and text): numbered lines, ``SECTION ONE`` / ``ADDENDUM L`` lines, plus two
  unnumbered forms: a Title-Case label alone on its line ending with a colon (``Background:``)
  and a short ALL-CAPS line (``STATEMENT OF WORK``). Because plain text has no markup, numbered
  candidates are checked against their context: a table of contents is skipped, single-level
  numbers must run in sequence (a ``1.`` list restarting inside a section is a list), and the
  numbering family that opens the document's top level (decimal, UCF letter or roman) keeps it.

Level comes from the numbering depth (``3`` -> 1, ``3.4.7`` -> 3, ``1.0`` -> 1, ``C.3.2`` -> 3 with
the UCF letter as level 1, ``Sec. 1.04`` -> 2, ``IV.B.2`` -> 3). Schemes marked ``relative``
(``Question 12.``, ``(a)``, ``a.``, unnumbered plain headings) sit one level below the section
they appear in. An unnumbered Markdown heading takes its level from its ``#`` count; when the
document opens with an unnumbered H1 that H1 is the document title, a level-0 root that every
other top-level section hangs from (the section paths of ``answers_qrels_dev.jsonl`` start with
it).

Where each part lives: the numbering table, depths and number normalisation in ``numbering``;
the heading candidates of Markdown and tables of contents in ``headings``; those of plain text
and PDF typography in ``plain_headings``; this module filters the candidates in context and
builds the tree.
"""

from __future__ import annotations

import re
from dataclasses import replace

from rfp_retrieval.documents.headings import (
    DOT_LEADER,
    HeadingCandidate,
    is_caps,
    is_toc_body,
    markdown_candidate,
    toc_lines,
)
from rfp_retrieval.documents.layout import LineStyle
from rfp_retrieval.documents.numbering import (
    LIST_ITEM_SCHEME,
    list_family,
    normalise_number,
)
from rfp_retrieval.documents.plain_headings import (
    HeadingLayout,
    plain_candidate,
)
from rfp_retrieval.documents.records import Section


def _filter_plain(cands: list[HeadingCandidate], n_lines: int) -> list[HeadingCandidate]:
    """Context checks for plain text: sequences and ownership of the top level.

    The first numbering scheme to open a top-level section owns the top level: later top-level
    candidates of another scheme (a ``Section 1.`` list inside ``ADDENDUM L``, a ``3.`` list
    inside ``SECTION TWO``, a ``1.`` list inside a closing ``Appendix B``) are list items.
    Sequenced schemes must count up (gaps of one allowed); a run of bare ``1.``/``I.`` headings
    shorter than three is a list, unless the run is roman and each stands alone on its line
    in capitals (``_standalone_caps``).
    """
    owner: str | None = None
    last_seq: dict[str, int] = {}
    restarted: dict[str, tuple[int, int]] = {}  # scheme -> (value, line) of a restarted list
    in_appendix = False  # after a closing appendix's heading
    appendix_done = False  # its numbered items restarted at 1: later lists are no sections
    last_item = 0  # number of the last appendix item
    runs: dict[str, list[HeadingCandidate]] = {}
    kept: list[HeadingCandidate] = []
    for c in cands:
        if (
            c.family == "appendix"
            and not appendix_done
            and c.line > 0.05 * n_lines
            and _restarts_after(cands, c)
        ):
            in_appendix = True
        if (
            c.family == "appendix"
            and owner is None
            and c.line > 0.05 * n_lines
            and not _first_section_follows(cands, c)
        ):
            owner = "appendix"  # numbering that restarts inside a closing appendix is a list
        if c.scheme is None or c.scheme.relative or c.family == "appendix":
            kept.append(c)
            continue
        if (
            in_appendix
            and c.depth() == 1
            and c.scheme.name == "decimal"
            and c.heading
            and is_caps(c.heading)
            and (c.seq_value or 0) >= last_item  # a repeated line is no restart
        ):
            # "1. AUTHORITY-The Purchasing Agent ...": numbered run-in caps paragraphs of a
            # closing appendix (general conditions) are its sections, one level below it,
            # while they count up. A restart at 1 ("1. GENERAL" of each later attachment)
            # ends the run for the rest of the document: those are the attachments' lists.
            last_item = c.seq_value or last_item
            c.scheme = replace(c.scheme, name="appendix-item", relative=True)
            kept.append(c)
            continue
        if (
            in_appendix
            and c.depth() == 1
            and c.scheme.name == "decimal"
            and (c.seq_value or 0) < last_item
        ):
            in_appendix, appendix_done = False, True
        if c.depth() == 1:
            name = c.scheme.name
            if name == "section-word":
                ident = (c.number or "").split()[-1].rstrip(".")
                if re.fullmatch(r"[A-M]", ident) and (ident not in "IVX" or owner == "ucf-section"):
                    name = "ucf-section"  # "Section I" is Contract Clauses in a UCF document
            if name in ("addendum", "ucf", "ucf-letter"):
                name = "ucf-section"
            if owner is not None and name != owner:
                if owner != "ucf-section" and name == "section-word" and _standalone_titled(c):
                    # "Section 1 – Cover Letter" on its own line under "III. CAPABILITIES
                    # STATEMENT": the word Section marks a heading, one level below. In a
                    # UCF document "Section N" lines inside Section L are a list of volumes.
                    kept.append(_as_list_item(c))
                continue
            if c.scheme.needs_sequence and c.seq_value is not None and name != "ucf-section":
                prev = last_seq.get(name)
                ok = (prev is None and c.seq_value <= 2) or (
                    prev is not None and prev < c.seq_value <= prev + 2
                )
                run = restarted.get(name)
                if run is not None and c.seq_value == run[0] + 1 and c.line - run[1] <= 3:
                    # the next item of a list that restarted its numbering inside a section
                    # ("1. Infrastructure", "2. Application Development" under 1.3)
                    restarted[name] = (c.seq_value, c.line)
                    if _titled_item(c):
                        kept.append(_as_list_item(c))
                    continue
                if not ok:
                    if prev is not None and c.seq_value <= prev:
                        restarted[name] = (c.seq_value, c.line)
                        if _titled_item(c):
                            kept.append(_as_list_item(c))
                    continue
                restarted.pop(name, None)
                last_seq[name] = c.seq_value
                if name in ("decimal", "roman") and "." not in (c.number or "").rstrip("."):
                    runs.setdefault(name, []).append(c)
            if owner is None:
                owner = name
        kept.append(c)
    drop = {
        id(c)
        for name, run in runs.items()
        if len(run) < 3 and not (name == "roman" and all(_standalone_caps(c) for c in run))
        for c in run
    }
    return [c for c in kept if id(c) not in drop]


def _standalone_caps(c: HeadingCandidate) -> bool:
    """A heading alone on its line in capitals (``I. REQUIREMENTS``, ``II. SUBMISSION
    INSTRUCTIONS``): with a roman number, a top-level heading even when the document has only
    two of them (a short list's items run on in sentence case; a form's ``1. PAYING OFFICE``
    boxes are decimal and stay out)."""
    return not c.rest and bool(c.heading) and is_caps(c.heading) and len(c.heading.split()) <= 8


def _standalone_titled(c: HeadingCandidate) -> bool:
    """A heading with a short title alone on its line (``Section 2 - Capabilities
    Statement``), no run-in text after it."""
    return c.kind == "heading" and bool(c.heading) and not c.rest and len(c.heading.split()) <= 10


def _titled_item(c: HeadingCandidate) -> bool:
    """A single-level numbered line with a run-in title and its text on the same line
    (``1. Cover Letter: The letter will indicate ...``)."""
    return c.kind == "heading" and bool(c.heading) and len(c.rest.split()) >= 4


def _as_list_item(c: HeadingCandidate) -> HeadingCandidate:
    """A numbered item of a list restarting inside a section, read as a sub-section nested by
    its label's family (the run-in list item of ``headings.runin_list_heading``)."""
    return replace(c, scheme=LIST_ITEM_SCHEME, source="runin")


def _unclosed_paren(text: str) -> int | None:
    """Index of the first ``(`` that ``text`` never closes, else None."""
    stack: list[int] = []
    for k, ch in enumerate(text):
        if ch == "(":
            stack.append(k)
        elif ch == ")" and stack:
            stack.pop()
    return stack[0] if stack else None


def _opens_its_child(idx: int, cands: list[HeadingCandidate], body_lines) -> bool:
    """The heading at ``idx`` is followed directly by its own first sub-section (``1.`` then
    ``1.1.``) whose body has text, or which opens its own first sub-section in turn (``5.``,
    ``5.1.``, ``5.1.1. To meet ...``): a real heading, not a table-of-contents copy."""
    if idx + 1 >= len(cands) or not cands[idx].number or not cands[idx + 1].number:
        return False
    parent = normalise_number(cands[idx].number)
    child = normalise_number(cands[idx + 1].number)
    if not child.startswith(parent + "."):
        return False
    if cands[idx + 1].rest or not is_toc_body(body_lines(idx + 1, cands)):
        return True
    return _opens_its_child(idx + 1, cands, body_lines)


def _first_section_follows(cands: list[HeadingCandidate], appendix: HeadingCandidate) -> bool:
    """Whether the next top-level numbered candidate after ``appendix`` is the document's
    first section word (``SECTION ONE`` after a contents page's ``Attachment 1: ...``): the
    appendix line is then a listing before the body, not a closing appendix. A ``1.`` list
    after the appendix is its own list and does not count."""
    for c in cands:
        if c.line <= appendix.line or c.scheme is None or c.scheme.relative:
            continue
        if c.family == "appendix" or c.depth() != 1:
            continue
        return c.scheme.name == "section-word" and c.seq_value == 1
    return False


def _restarts_after(cands: list[HeadingCandidate], appendix: HeadingCandidate) -> bool:
    """Whether the first single-level decimal candidate after ``appendix`` is numbered 1: the
    appendix opens a part with its own numbering (general conditions after special
    provisions), not a reference to an appendix in running text."""
    for c in cands:
        if c.line <= appendix.line or c.scheme is None or c.scheme.name != "decimal":
            continue
        if c.depth() == 1:
            return c.seq_value == 1
    return False


_UCF_PART = re.compile(r"SECTION\s+[A-M]")


def _drop_running_heading_copies(
    cands: list[HeadingCandidate], lines: list[str], page_of_line: list[int]
) -> list[HeadingCandidate]:
    """Keep the first of identical headings (same number and heading) that recur at the top
    of later pages: a running header over part of a document (``Appendix A GENERAL
    CONDITIONS ...`` on every appendix page, ``SECTION A – CONTRACT ADMINISTRATION DATA`` on
    every page of a UCF section) that the page cleaner kept because it is on fewer than half
    the pages. Top of a page: among its first three non-blank lines. The first copy
    must itself be at a page top (a running header is); an earlier mention of the same label
    inside a page (``ATTACHMENT A`` in a list of attachments) does not count. A UCF part
    (``SECTION A``) opens once: its first copy counts wherever it stands, and every later copy
    with the same title is dropped wherever the text layer put it on the page. A page-top
    (or page-bottom) heading that repeats the number of the section still open at its depth
    (``ATTACHMENT P``
    atop each page of Attachment P, running on with that page's first line) is that
    section's running label too, whatever its text (page bottom: among its last three
    non-blank lines, a running footer); an attachment's label (the appendix family) wherever
    the text layer put it: an attachment is labelled once, its label recurring inside it is
    its running label."""

    def at_page_top(i: int) -> bool:
        page = page_of_line[i] if i < len(page_of_line) else None
        k, above = i - 1, 0
        while k >= 0 and page_of_line[k] == page:
            if lines[k].strip():
                above += 1
            k -= 1
        return above < 3

    def at_page_bottom(i: int) -> bool:
        page = page_of_line[i] if i < len(page_of_line) else None
        k, below = i + 1, 0
        while k < len(lines) and k < len(page_of_line) and page_of_line[k] == page:
            if lines[k].strip():
                below += 1
            k += 1
        return below < 3

    seen: set[tuple[str, str]] = set()
    kept: list[HeadingCandidate] = []
    open_at: dict[int, str] = {}  # depth -> the number of the section open at that depth
    for c in cands:
        key = ((c.number or "").strip().upper(), c.heading.strip().upper())
        top = at_page_top(c.line)
        depth = c.depth() if c.number else 0
        number = normalise_number(c.number) if c.number else ""
        edge = top or at_page_bottom(c.line) or c.family == "appendix"
        if edge and c.kind == "heading" and number and open_at.get(depth) == number:
            # "ATTACHMENT P" at the top of the next page of Attachment P, whatever text the
            # line runs on with: the running label of a continuation page, no new section
            continue
        if number:
            open_at = {d: n for d, n in open_at.items() if d < depth}
            open_at[depth] = number
        if key in seen and c.kind == "heading" and (top or _UCF_PART.fullmatch(key[0])):
            # a UCF part ("SECTION A") opens once: a later copy with the same title is its
            # running header wherever the text layer put it on the page
            continue
        if top or _UCF_PART.fullmatch(key[0]):
            # only a page-top heading can be the first of a running header: the same label
            # inside a page (a list of attachments) does not make the real heading a copy
            seen.add(key)
        kept.append(c)
    return kept


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:48] or "section"


def _first_sentence(text: str, limit: int = 100) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    m = re.match(r"^(.+?[.?!])(?=\s+[A-Z(]|$)", text)
    sentence = m.group(1) if m else text
    if len(sentence) > limit:
        cut = sentence[:limit].rsplit(" ", 1)[0]
        sentence = cut.rstrip(",;:") + "…"
    return sentence


def parse_outline(
    lines: list[str],
    mode: str,
    page_of_line: list[int] | None = None,
    line_styles: list[LineStyle | None] | None = None,
) -> list[Section]:
    """The outline of a document given its clean text ``lines``.

    ``mode`` is ``"markdown"`` (Markdown, DOCX) or ``"plain"`` (PDF, text). ``page_of_line`` gives
    the 1-based PDF page of each line (None for formats without pages); ``line_styles`` the
    PDF typography of each line (``layout.LineStyle``), which lets larger or bold unnumbered
    lines become headings (levels by font size) and keeps unstyled ALL-CAPS form lines out.
    Returns sections in document order; each section's ``body`` is the text from the end of
    its heading to the next heading (for a numbered paragraph, the paragraph text itself);
    ``line`` is 1-based.
    A table of contents, or a heading repeated later with an empty body, is dropped.
    Raises ValueError for an unknown ``mode``.
    """
    if mode not in ("markdown", "plain"):
        raise ValueError(f"unknown outline mode {mode!r}; use 'markdown' or 'plain'")
    toc = (
        toc_lines(lines)
        if mode == "plain"
        else {i for i, ln in enumerate(lines) if DOT_LEADER.search(ln)}
    )
    layout = HeadingLayout.of(lines, line_styles) if mode == "plain" else None
    cands: list[HeadingCandidate] = []
    skip_to = 0
    for i in range(len(lines)):
        if i < skip_to or i in toc or not lines[i].strip():
            continue
        if mode == "markdown":
            c = markdown_candidate(lines, i)
        else:
            c = plain_candidate(lines, i, page_of_line, layout)
        if c is not None:
            cands.append(c)
            skip_to = i + 1 + c.extra
    if mode == "plain":
        cands = _filter_plain(cands, len(lines))
        if page_of_line and max(page_of_line) >= 5:
            first_page = sum(1 for k, ln in enumerate(lines) if ln.strip() and page_of_line[k] == 1)
            if first_page <= 25:  # a cover page: its big type is a title block, not headings
                cands = [c for c in cands if c.source != "layout" or page_of_line[c.line] != 1]
        numbered = [c for c in cands if c.scheme is not None and not c.scheme.relative]
        if len(numbered) >= 3:  # numbering carries the levels; styled headings nest relatively
            first = numbered[0].line
            cands = [c for c in cands if c.source != "layout" or c.line > first]
            for c in cands:
                if c.source == "layout":
                    c.source = "caps"
    else:
        # bold-only lines before the first numbered section are cover-page lines
        first_real = next((k for k, c in enumerate(cands) if c.number is not None), 0)
        cands = [
            c
            for k, c in enumerate(cands)
            if k >= first_real or not (c.source == "bold" and c.number is None)
        ]

    # drop table-of-contents copies: same number later, nothing but links/entries in between
    def body_lines(idx: int, items: list[HeadingCandidate]) -> list[str]:
        end = items[idx + 1].line if idx + 1 < len(items) else len(lines)
        return lines[items[idx].line + 1 + items[idx].extra : end]

    if mode == "plain" and page_of_line:
        cands = _drop_running_heading_copies(cands, lines, page_of_line)
    later_numbers: dict[str, int] = {}
    for c in cands:
        if c.number:
            later_numbers[normalise_number(c.number)] = (
                later_numbers.get(normalise_number(c.number), 0) + 1
            )
    kept: list[HeadingCandidate] = []
    seen: dict[str, int] = {}
    for idx, c in enumerate(cands):
        if c.number:
            key = normalise_number(c.number)
            seen[key] = seen.get(key, 0) + 1
            remaining = later_numbers[key] - seen[key]
            if (
                remaining > 0
                and not c.rest
                and is_toc_body(body_lines(idx, cands))
                and not _opens_its_child(idx, cands, body_lines)
            ):
                continue
        kept.append(c)
    cands = kept

    return _build_sections(lines, cands, mode, page_of_line)


def _layout_title_block(lines: list[str], cands: list[HeadingCandidate]) -> int:
    """How many candidates open a PDF with its title block (0 when none): the first line of
    the text, unnumbered, in the largest type of the document (no later heading as large),
    and the lines right under it in type larger than every later heading (``Sources Sought
    Notice`` / ``Airport Wayfinding Support Services`` over bold body-size headings). The
    title is the outline's root, its other lines are no sections (as a Markdown title block).
    """
    if not cands or cands[0].source != "layout" or cands[0].number is not None:
        return 0
    if cands[0].hashes != 1 or any(ln.strip() for ln in lines[: cands[0].line]):
        return 0
    layout = [c for c in cands[1:] if c.source == "layout" and c.number is None]
    if not layout or any(c.hashes == 1 for c in layout):
        return 0
    k = 1
    while k < len(cands) and cands[k].source == "layout" and cands[k].number is None:
        later = [c.hashes for c in cands[k + 1 :] if c.source == "layout" and c.number is None]
        if not later or cands[k].hashes >= min(later):
            break
        k += 1
    return k


def _numbered_level_by_hashes(cands: list[HeadingCandidate]) -> dict[int, int]:
    """``#`` count -> outline level of the numbered Markdown headings written with that many
    ``#``, where at least two of them are and all agree (``## Sec. 6.02`` and ``## Sec.
    6.03`` are level 2: ``##`` is level 2). A depth whose numbered headings disagree, or has
    fewer than two, is left out. The caller caps the level at one below the open numbered
    section."""
    seen: dict[int, set[int]] = {}
    counts: dict[int, int] = {}
    for c in cands:
        if c.source == "atx" and c.scheme is not None and not c.scheme.relative:
            seen.setdefault(c.hashes, set()).add(c.depth())
            counts[c.hashes] = counts.get(c.hashes, 0) + 1
    return {h: next(iter(v)) for h, v in seen.items() if len(v) == 1 and counts[h] >= 2}


def _build_sections(
    lines: list[str], cands: list[HeadingCandidate], mode: str, page_of_line: list[int] | None
) -> list[Section]:
    sections: list[Section] = []
    used: set[str] = set()
    # stack entries: (level, key, relative?)
    stack: list[tuple[int, str, bool]] = []
    root_key: str | None = None
    ranks: dict[str, int] = {}  # key -> font rank of a layout heading
    rank_levels: dict[int, int] = {}  # font rank -> level of its first unnumbered heading
    families: dict[str, str] = {}  # key -> list family of a run-in list item (``list_family``)
    labels: dict[str, str] = {}  # key -> label of a run-in list item
    title_shift = 0
    first_is_title = (
        mode == "markdown"
        and bool(cands)
        and cands[0].source == "atx"
        and cands[0].hashes == 1
        and cands[0].number is None
    )
    if first_is_title and len(cands) > 1:
        # a title block: a second unnumbered title line right under the title (another H1, or
        # any heading when the title is set off by a setext "=====" rule), with nothing but
        # blank lines between them ("REQUEST FOR QUOTATION" / "Department of State
        # TalentMAP"), is the title's second line, not a section
        second = cands[1]
        between = lines[cands[0].line + 1 + cands[0].extra : second.line]
        underlined = any(re.fullmatch(r"\s*={3,}\s*", ln) for ln in between)

        # ... unless unnumbered "#" sections come back after deeper headings below it: then
        # "#" is the section level (a Word Title style over Heading 1 sections) and the second
        # "#" is the first section (a title block of several "#" lines has no "##" between them)
        def _h1(c) -> bool:
            return c.source == "atx" and c.hashes == 1 and c.number is None

        h1_sections_follow = any(
            _h1(c) and any(not _h1(d) for d in cands[2:j]) for j, c in enumerate(cands) if j > 2
        )
        if (
            second.source == "atx"
            and second.number is None
            and (underlined or (second.hashes == cands[0].hashes and not h1_sections_follow))
            and not any(ln.strip().strip("=-") for ln in between)
        ):
            cands = [cands[0]] + cands[2:]
    if mode == "plain" and _layout_title_block(lines, cands):
        first_is_title = True
        cands = [cands[0]] + cands[_layout_title_block(lines, cands) :]
    if first_is_title and mode == "markdown":
        # "# Title" then "## Section": the title is the root and "##" is level 1. When
        # unnumbered sections are "#" too (a Word Title style over Heading 1/Heading 2), "#"
        # stays level 1 and "##" level 2 instead of both collapsing to level 1. (Numbered
        # headings take their level from the numbering either way.)
        more_h1 = any(c.source == "atx" and c.hashes == 1 and c.number is None for c in cands[1:])
        title_shift = 0 if more_h1 else 1

    hash_levels = _numbered_level_by_hashes(cands) if mode == "markdown" else {}
    numbered_keys: set[str] = set()  # keys of sections with a read, non-relative number

    for idx, c in enumerate(cands):
        end = cands[idx + 1].line if idx + 1 < len(cands) else len(lines)
        body_parts = [c.rest] if c.rest else []
        body_parts += lines[c.line + 1 + c.extra : end]
        body = "\n".join(body_parts).strip()
        heading = c.heading
        open_at = _unclosed_paren(heading)
        if open_at is not None and open_at > 3:
            # a title cut at the line end inside a parenthetical note: the title is before it
            heading = heading[:open_at].rstrip(" -,:")
        if c.kind == "paragraph" or not heading and c.number:
            heading = _first_sentence(body) if c.kind == "paragraph" else heading

        base = c.number.rstrip(".") if c.number else _slug(heading)
        key = base if base not in used else f"{base}@{c.line + 1}"
        used.add(key)

        is_root = idx == 0 and first_is_title
        if is_root:
            level = 0
            parent = None
            root_key = key
        elif c.scheme is not None and not c.scheme.relative:
            level = c.depth()
            while stack and (stack[-1][0] >= level):
                stack.pop()
            parent = stack[-1][1] if stack else root_key
        elif c.scheme is None and c.source == "layout" and c.hashes in rank_levels:
            # the type of an earlier unnumbered heading: its level again ("Questions" in the
            # bold of "Background" after "II. SUBMISSION INSTRUCTIONS" is a top-level
            # section, not a child of II.)
            level = rank_levels[c.hashes]
            while stack and stack[-1][0] >= level:
                stack.pop()
            parent = stack[-1][1] if stack else root_key
        elif c.scheme is None and c.source == "layout":
            # font ranks can skip levels (18 pt, 16 pt, then body-size run-in headings); the
            # outline does not: pop by rank, then sit one below the parent
            while stack and ranks.get(stack[-1][1], stack[-1][0]) >= c.hashes:
                stack.pop()
            parent = stack[-1][1] if stack else root_key
            level = stack[-1][0] + 1 if stack else 1
            rank_levels[c.hashes] = level
        elif c.scheme is None and c.source == "atx":
            # the "#" depth settles the level of a heading whose numbering is not read ("## Sec
            # 6.01" among "## Sec. 6.02"): the level the numbered headings of its depth have,
            # never deeper than one below the open numbered section (front matter before
            # "# Section 1" stays level 1)
            level = max(1, c.hashes - title_shift)
            if c.hashes in hash_levels:
                numbered_open = [lv for lv, k, _ in stack if k in numbered_keys]
                cap = numbered_open[-1] + 1 if numbered_open else 1
                level = max(1, min(hash_levels[c.hashes], cap))
            while stack and stack[-1][0] >= level:
                stack.pop()
            parent = stack[-1][1] if stack else root_key
        elif c.source == "runin":
            # a list item with a run-in title: a sibling of the open item of its family
            # (``a.`` after ``a.``-``f.``), else a child of the innermost open item (``i.``
            # under ``g.``), else one below the enclosing section
            while stack and stack[-1][2] and families.get(stack[-1][1], "leaf") == "leaf":
                stack.pop()  # other relative headings and unnumbered run-ins are leaves
            chain = [k for k in range(len(stack)) if families.get(stack[k][1], "leaf") != "leaf"]
            letters = [stack[k][1] for k in chain if families[stack[k][1]].endswith("letter")]
            previous = labels.get(letters[-1]) if letters else None
            family = list_family(c.number, previous) if c.number else "leaf"
            hit = next((k for k in reversed(chain) if families[stack[k][1]] == family), None)
            if hit is not None:
                del stack[hit:]
            level = stack[-1][0] + 1 if stack else 1
            parent = stack[-1][1] if stack else root_key
        else:  # relative: one below the enclosing non-relative section
            while stack and stack[-1][2]:
                stack.pop()
            level = stack[-1][0] + 1 if stack else 1
            parent = stack[-1][1] if stack else root_key
        relative = (c.scheme is None and c.source not in ("atx", "layout")) or (
            c.scheme is not None and c.scheme.relative
        )
        if c.source == "runin":
            families[key] = family
            labels[key] = c.number or ""
        if not is_root:
            stack.append((level, key, relative))
            if c.scheme is not None and not c.scheme.relative:
                numbered_keys.add(key)
            if c.source == "layout" and c.scheme is None:
                ranks[key] = c.hashes
        page = page_of_line[c.line] if page_of_line and c.line < len(page_of_line) else None
        number = c.number.strip() if c.number else None
        if c.kind == "paragraph":
            title = ""
        elif number and heading:
            title = f"{number}{c.sep}{heading}"
        else:
            title = number or heading
        section = Section(
            key=key,
            number=c.number.strip() if c.number else None,
            heading=heading,
            level=level,
            parent=parent,
            body=body,
            line=c.line + 1,
            page=page,
            kind=c.kind,
            title=title,
        )
        sections.append(section)
    return sections


__all__ = [
    "parse_outline",
]
