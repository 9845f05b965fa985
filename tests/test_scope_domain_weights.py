"""The RFP's domain weights travel from the reading into the stored scope_query row, back into
the ScopeQuery the ranker uses, and out as plain Dagster metadata."""

import datetime as dt

import numpy as np

from rfp_retrieval.retrieval.scope_query import (
    domain_weights_metadata,
    scope_query_frame,
    scope_query_from_row,
)
from rfp_retrieval.scope import ScopeReading


def _reading() -> ScopeReading:
    return ScopeReading(
        issuer="Defense Information Systems Agency",
        issuer_acronym="DISA",
        emphasized_domains=["cybersecurity", "identity-access"],
        domain_weights={
            "cybersecurity": 0.364,
            "identity-access": 0.364,
            "infrastructure-operations": 0.121,
            "help-desk": 0.0303,
        },
    )


def test_domain_weights_round_trip_through_the_scope_query_row():
    reading = _reading()
    texts = dict.fromkeys(("narrative", "technical", "outcome", "whole"), "text")
    frame = scope_query_frame(
        "rfp-1",
        "ECDIOS",
        reading,
        texts,
        np.eye(4, 3, dtype=np.float32),
        "all-MiniLM-L6-v2",
        dt.date(2026, 9, 22),
        "issue date",
    )
    row = frame.row(0, named=True)
    assert row["domain_weights"][0] == {"domain": "cybersecurity", "weight": 0.364}
    query = scope_query_from_row(row)
    assert query.domain_weights == reading.domain_weights
    assert query.emphasized_domains == ("cybersecurity", "identity-access")


def test_domain_weights_metadata_is_a_plain_sorted_rounded_dict():
    reading = _reading()
    expected = {
        "cybersecurity": 0.364,
        "identity-access": 0.364,
        "infrastructure-operations": 0.121,
        "help-desk": 0.03,
    }
    meta = domain_weights_metadata(reading)
    assert meta == expected
    assert list(meta) == list(expected)  # largest first, ties by tag
    assert all(type(k) is str and type(v) is float for k, v in meta.items())
    # the stored row's list-of-records form gives the same dict
    row = {
        "domain_weights": [{"domain": d, "weight": w} for d, w in reading.domain_weights.items()]
    }
    assert domain_weights_metadata(row) == expected
    assert domain_weights_metadata(ScopeReading()) == {}
    assert domain_weights_metadata(reading, digits=1) == {
        "cybersecurity": 0.4,
        "identity-access": 0.4,
        "infrastructure-operations": 0.1,
        "help-desk": 0.0,
    }
