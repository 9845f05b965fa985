"""``run --json`` never shows a signed zero: a penalty of nothing is 0.0, not -0.0."""

from __future__ import annotations

import json
import math
import re

from rfp_retrieval.cli.shapes import run_references
from rfp_retrieval.retrieval.config import RankingConfig
from rfp_retrieval.retrieval.past_performance import rank_references
from rfp_retrieval.retrieval.references import references_frame
from tests.test_overrides import _entries, _scope, _vectors


def test_a_cap_that_takes_nothing_back_is_printed_as_zero():
    # default mode: no entry's issuer bumps exceed the cap, so the cap takes back -max(0, .)
    result = rank_references(_entries(), _vectors(), _scope(), RankingConfig())
    assert [r.id for r in result.references] == ["PP-1", "PP-2", "PP-3"]
    refs = run_references(references_frame("rfp-md", result), None)
    caps = [ref["components"]["issuer_bump_cap"] for ref in refs]
    assert caps == [0.0, 0.0, 0.0]
    assert [math.copysign(1.0, c) for c in caps] == [1.0, 1.0, 1.0]
    printed = json.dumps(refs)
    assert '"issuer_bump_cap": 0.0,' in printed
    assert re.findall(r"-0\.0(?![0-9])", printed) == []  # no signed zero anywhere
