"""A value limit in a foreign currency is not dropped silently (new-user trial: "EUR 5
million" read no value filter and the trace said "not stated"): it is shown as not compared
(no exchange rates at run time), and a USD bound elsewhere is still read."""

from __future__ import annotations

import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.report.filters import filter_sentence
from rfp_retrieval.scope import read_scope
from rfp_retrieval.scope.section_lm.value import FOREIGN_NOT_COMPARED


def _read(tmp_path, sentences: str):
    path = tmp_path / "rfp.md"
    path.write_text(
        "# Request for Proposals: Case Management Support\n\n## L.4 Past Performance\n\n"
        + sentences
        + "\n",
        encoding="utf-8",
    )
    return read_scope(load_document(path))


@pytest.mark.parametrize(
    ("sentence", "phrase"),
    [
        (
            "Each past performance reference must have a value of at least EUR 5 million.",
            "EUR 5 million",
        ),
        ("Past performance references shall be valued at no more than €2.5M.", "€2.5M"),
        (
            "Past performance references must each exceed 3 million euros in value.",
            "3 million euros",
        ),
    ],
)
def test_a_foreign_currency_value_is_shown_as_not_compared(tmp_path, sentence, phrase):
    reading = _read(tmp_path, sentence)
    assert (reading.value_min, reading.value_max) == (None, None)
    [item] = [t for t in reading.trace if t["filter"] == "value"]
    assert item["reading"] == {"stated": phrase, "unknown": FOREIGN_NOT_COMPARED}
    assert item["section"].endswith("L.4 Past Performance")
    text = filter_sentence(item)
    assert text.startswith(f"contract value stated as '{phrase}'")
    assert "not compared" in text and "no value filter" in text


def test_a_usd_bound_in_a_later_sentence_is_still_read(tmp_path):
    reading = _read(
        tmp_path,
        "Past performance references may be for contracts valued at EUR 4 million or more. "
        "For U.S. contracts, past performance references must be valued at least $5 million.",
    )
    assert (reading.value_min, reading.value_max) == (5_000_000, None)
    assert [t["reading"]["min"] for t in reading.trace if t["filter"] == "value"] == [5_000_000]
