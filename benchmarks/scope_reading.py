"""Constraint-field accuracy of the ScopeQuery reading over the dev scopes' ``scopes_truth.jsonl``.

Reads each scope's RFP with the product's own path (``load_document`` + ``read_scope`` with the
golden ``as_of``, as ``eval past-performance`` and ``run`` do) and compares every constraint
field with the intended reading. A field counts when the truth states it or the product reads
one (a filter read where none is stated is an error too). Scopes are split into tuning and
validation (validation: scope number divisible by 3), and both parts are printed.

Usage (from the repository root)::

    python benchmarks/scope_reading.py [--verbose] [--json]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from rfp_retrieval.documents.extract import load_document  # noqa: E402
from rfp_retrieval.scope import read_scope  # noqa: E402
from rfp_retrieval.scope.section_lm.records import APPROX_BAND  # noqa: E402

TRUTH_FILES = (
    REPO.parent / "shared" / "data" / "pp_golden_dev" / "scopes_truth.jsonl",
    REPO.parent / "shared" / "data" / "pp_golden_dev2" / "scopes_truth.jsonl",
)
CONSTRAINT_FIELDS = (
    "references_required",
    "recency_years",
    "ended_after",
    "started_after",
    "value_min",
    "value_max",
    "value_approx",
    "customer_types_required",
    "industries_required",
)


def _stated(value: object) -> bool:
    return value not in (None, [], "")


def _same(field: str, got: object, want: object) -> bool:
    if field in ("customer_types_required", "industries_required"):
        return sorted(got or []) == sorted(want or [])
    return got == want


def expected(truth: dict) -> dict:
    """The truth line's constraint fields as the product states them: an approximate value
    alone ("approximately $14 million", min and max unstated) is the band ``APPROX_BAND`` the
    product documents as its choice (the truth files leave the band to the product)."""
    want = {f: truth.get(f) for f in CONSTRAINT_FIELDS}
    x = want["value_approx"]
    if x is not None and want["value_min"] is None and want["value_max"] is None:
        want["value_min"], want["value_max"] = int(x * APPROX_BAND[0]), int(x * APPROX_BAND[1])
    return want


def score_scope(truth: dict, folder: Path) -> dict:
    """Per-field result of one scope: ``{field: (ok, got, want)}`` for the counted fields."""
    wanted = expected(truth)
    doc = load_document(folder / truth["rfp_file"])
    as_of = dt.date.fromisoformat(truth["rfp_date"])
    reading = read_scope(doc, as_of=as_of)
    out = {}
    for f in CONSTRAINT_FIELDS:
        got, want = getattr(reading, f), wanted[f]
        if not (_stated(got) or _stated(want)):
            continue
        out[f] = (_same(f, got, want), got, want)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="print every wrong field")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    parts: dict[str, list[int]] = {"tuning": [0, 0], "validation": [0, 0]}
    by_field: dict[str, list[int]] = {f: [0, 0] for f in CONSTRAINT_FIELDS}
    wrong: list[str] = []
    for path in TRUTH_FILES:
        if not path.is_file():
            print(f"missing {path}", file=sys.stderr)
            return 2
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            truth = json.loads(line)
            part = "validation" if int(truth["scope_id"][1:]) % 3 == 0 else "tuning"
            for f, (ok, got, want) in score_scope(truth, path.parent).items():
                parts[part][0] += ok
                parts[part][1] += 1
                by_field[f][0] += ok
                by_field[f][1] += 1
                if not ok:
                    wrong.append(f"{truth['scope_id']} {f}: got {got!r} want {want!r}")
    figures = {
        name: {"right": r, "fields": n, "accuracy": round(r / n, 4) if n else None}
        for name, (r, n) in parts.items()
    }
    all_r = sum(r for r, _ in parts.values())
    all_n = sum(n for _, n in parts.values())
    figures["all"] = {"right": all_r, "fields": all_n, "accuracy": round(all_r / all_n, 4)}
    figures["by_field"] = {f: {"right": r, "fields": n} for f, (r, n) in by_field.items()}
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        for name in ("tuning", "validation", "all"):
            fig = figures[name]
            print(f"{name:<11} {fig['right']:>4} / {fig['fields']:<4} {fig['accuracy']}")
        for f, (r, n) in by_field.items():
            print(f"  {f:<24} {r:>3} / {n}")
    if args.verbose:
        print("\n".join(wrong))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
