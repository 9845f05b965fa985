"""The score chart of the brief: each reference's summed score parts as a labelled stacked bar.

Pure functions over ``pp_references`` rows; the SVG is inline (no script, no external asset)
and every label is escaped.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from rfp_retrieval.retrieval.components import COMPONENT, REGISTRY, summed_parts


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


# The chart's stacking order and colour of each positive part (column -> colour); labels and
# kinds come from the registry of score components (``retrieval.components.REGISTRY``).
BAR_COLOURS: dict[str, str] = {
    "weighted_narrative": "#4e79a7",
    "weighted_technical": "#59a14f",
    "weighted_whole": "#76b7b2",
    "weighted_section_max": "#9c755f",
    "weighted_outcome": "#f28e2b",
    "domain_match": "#b07aa1",
    "lexical_match": "#79706e",  # not a second teal beside whole entry (trial)
    "recency_bump": "#edc948",
    "agency_bump": "#ff9da7",
    "sector_bump": "#bab0ac",
}
# Components summed into the score, in stacking order: (column, label, colour).
POSITIVE_PARTS: tuple[tuple[str, str, str], ...] = tuple(
    (name, COMPONENT[name].label, colour) for name, colour in BAR_COLOURS.items()
)
PENALTY_PARTS: tuple[tuple[str, str], ...] = tuple(
    (c.name, c.label) for c in REGISTRY if c.kind == "penalty"
)
PENALTY_COLOUR = "#e15759"
LABEL_MIN_WIDTH = 34
"""A segment at least this wide (px) carries its value as a label."""


def score_parts(
    components: Mapping[str, float | None],
) -> tuple[list[tuple[str, str, float]], list[tuple[str, str, float]]]:
    """The summed parts of one reference's score: (positives, penalties).

    Each part is ``(column, label, value)``; positives are > 0 (stacking order of
    ``POSITIVE_PARTS``), penalties < 0. Raw cosines are not parts, except ``whole`` in the
    naive mode, where it is the whole score (``components.summed_parts``). Zero and missing
    components are left out.
    """
    parts = {c.name: (c, value) for c, value in summed_parts(components)}
    positives = [
        (key, label, parts[key][1])
        for key, label, _ in POSITIVE_PARTS
        if key in parts and parts[key][1] > 0
    ]
    positives += [(c.name, c.label, v) for c, v in parts.values() if c.raw and v > 0]
    penalties = [
        (key, label, parts[key][1])
        for key, label in PENALTY_PARTS
        if key in parts and parts[key][1] < 0
    ]
    return positives, penalties


def _colour(key: str) -> str:
    return BAR_COLOURS.get(key, "#76b7b2")


def score_chart_svg(references: Sequence[Mapping[str, Any]], width: int = 760) -> str:
    """An inline SVG: one stacked horizontal bar per reference.

    Positive components are stacked left to right from 0; penalties are drawn as a separate
    red bar under it, growing right from 0 with the magnitude of the penalty. Scale: the
    largest positive total (at least 0.1) spans the plot width. A segment wide enough carries
    its value (``class="seg-label"``); the legend lists only the parts drawn. A pick a writer
    brought in (``override_by`` set) says so under its score: its rank is the writer's, not
    the score's. Returns '' for no references.
    """
    if not references:
        return ""
    label_w, pad, bar_h, gap = 170, 12, 22, 30
    plot_w = width - label_w - 2 * pad - 60
    rows = [score_parts(r) for r in references]
    totals = [sum(v for _, _, v in positives) for positives, _ in rows]
    scale = plot_w / max(max(totals), 0.1)
    # the legend lists only the segments some bar draws, in stacking order
    drawn = {key for positives, _ in rows for key, _, _ in positives}
    legend = [(label, _colour(key)) for key, label, _ in POSITIVE_PARTS if key in drawn]
    legend += [
        (label, _colour(key))
        for positives, _ in rows
        for key, label, _ in positives
        if key not in BAR_COLOURS
    ]
    legend = list(dict.fromkeys(legend))
    if any(penalties for _, penalties in rows):
        legend.append(("penalties", PENALTY_COLOUR))
    rows_h = len(references) * (bar_h * 2 + gap)
    legend_y = pad + rows_h + 6
    height = legend_y + 22 * ((len(legend) + 3) // 4) + pad
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="score-chart" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        'aria-label="Score components per reference">'
    ]
    for i, ref in enumerate(references):
        positives, penalties = rows[i]
        y = pad + i * (bar_h * 2 + gap)
        out.append(
            f'<text x="{pad}" y="{y + 15}" class="ref-label">#{_e(ref.get("rank"))} '
            f"{_e(ref.get('id'))}</text>"
        )
        writer = ", writer override" if ref.get("override_by") is not None else ""
        out.append(
            f'<text x="{pad}" y="{y + bar_h + 15}" class="sub">score '
            f"{float(ref.get('score') or 0):.3f}{writer}</text>"
        )
        x = label_w + pad
        for key, label, value in positives:
            w = value * scale
            out.append(
                f'<rect class="part" data-part="{key}" x="{x:.1f}" y="{y}" width="{w:.1f}" '
                f'height="{bar_h}" fill="{_colour(key)}"><title>{_e(label)} +{value:.3f}</title>'
                "</rect>"
            )
            if w >= LABEL_MIN_WIDTH:
                out.append(
                    f'<text class="seg-label" x="{x + 3:.1f}" y="{y + 15}">+{value:.2f}</text>'
                )
            x += w
        before = " before penalties" if penalties else ""  # trial: read as the score
        out.append(
            f'<text x="{x + 4:.1f}" y="{y + 15}" class="sub">+{totals[i]:.3f}{before}</text>'
        )
        px = label_w + pad
        for key, label, value in penalties:
            w = -value * scale
            out.append(
                f'<rect class="penalty" data-part="{key}" x="{px:.1f}" y="{y + bar_h + 2}" '
                f'width="{w:.1f}" height="{bar_h - 8}" fill="{PENALTY_COLOUR}">'
                f"<title>{_e(label)} {value:.3f}</title></rect>"
            )
            px += w
        if penalties:
            total_pen = sum(v for _, _, v in penalties)
            names = ", ".join(label for _, label, _ in penalties)
            out.append(
                f'<text x="{px + 4:.1f}" y="{y + bar_h + 13}" class="sub">'
                f"{total_pen:.3f} penalties ({_e(names)})</text>"
            )
    for j, (label, colour) in enumerate(legend):
        lx = pad + (j % 4) * 180
        ly = legend_y + (j // 4) * 22
        out.append(
            f'<rect class="legend" x="{lx}" y="{ly}" width="12" height="12" fill="{colour}"></rect>'
        )
        out.append(f'<text x="{lx + 16}" y="{ly + 11}" class="sub">{_e(label)}</text>')
    out.append("</svg>")
    return "\n".join(out)
