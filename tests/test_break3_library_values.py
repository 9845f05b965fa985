"""Break-it pass 3, library value and date cells as real spreadsheets hold them: an amount in
another currency or a negative amount is reported (never read as US dollars, never as a
positive value); European "Mio"/"Mrd" scales; a dotted date is day.month.year; a UK slash
date is reported saying how to write it; an impossible date names the part."""

from __future__ import annotations

import pytest

from rfp_retrieval.library.dates import parse_period_of_performance
from rfp_retrieval.library.ingest import load_library
from rfp_retrieval.library.money import parse_contract_value
from rfp_retrieval.library.records import ContractValue
from rfp_retrieval.quantities.dates import parse_date_bound

HEADER = (
    "PP #,Contract Name,Customer,Customer Type,Role,Contract Type,Contract Value,"
    "Period of Performance,Technologies,Domains,Description,Results / Outcomes\n"
)


def _row(entry_id: str, value: str, period: str) -> str:
    return (
        f"{entry_id},Portal,City Agency,Federal - Civilian,Prime,Stand-alone Contract,{value},"
        f"{period},Java,Grants,Built the portal.,Cut processing time 30%\n"
    )


@pytest.mark.parametrize(
    ("text", "currency"),
    [
        ("EUR 1.2M", "EUR"),
        ("€1.2M", "€"),
        ("1.000.000 €", "€"),
        ("$1.2M CAD", "CAD"),
        ("C$4M", "C$"),
        ("GBP 2,000,000", "GBP"),
        ("£2M", "£"),
        ("2.5 million euros", "euros"),
    ],
)
def test_an_amount_in_another_currency_is_reported_not_read_as_dollars(text, currency):
    with pytest.raises(ValueError, match="not US dollars: convert it to USD") as caught:
        parse_contract_value(text)
    assert f"is in {currency}," in str(caught.value)


@pytest.mark.parametrize("text", ["-$500K", "$-500,000", "($500,000)", "−1.2M", -250000, -1.5])
def test_a_negative_amount_is_reported_not_read_as_positive(text):
    with pytest.raises(ValueError, match="is negative: give what the contract is worth in USD"):
        parse_contract_value(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("USD 1.2M", ContractValue(1_200_000, 1_200_000)),
        ("US$ 1.2 million", ContractValue(1_200_000, 1_200_000)),
        ("1.2 Mio USD", ContractValue(1_200_000, 1_200_000)),
        ("$2,5 Mio", ContractValue(2_500_000, 2_500_000)),
        ("$1,2 Mrd", ContractValue(1_200_000_000, 1_200_000_000)),
        ("$1M - $2M", ContractValue(1_000_000, 2_000_000)),  # a dash range is not negative
        ("$2.4M (Euro-zone subcontract)", ContractValue(2_400_000, 2_400_000)),
    ],
)
def test_dollar_amounts_are_still_read(text, expected):
    assert parse_contract_value(text) == expected


def test_a_library_row_in_euros_is_rejected_naming_the_row_and_currency(tmp_path):
    (tmp_path / "matrix.csv").write_text(
        HEADER
        + _row("PP-1", "EUR 1.2M", "2020-01-01 - 2022-12-31")
        + _row("PP-2", "-$500K", "2020-01-01 - 2022-12-31")
        + _row("PP-3", "$3.1M", "01.02.2020 – 31.12.2022"),
        encoding="utf-8",
    )
    load = load_library(tmp_path)
    assert [e.id for e in load.entries] == ["PP-3"]
    (entry,) = load.entries
    assert (entry.contract.start_date, entry.contract.end_date) == (
        "2020-02-01",
        "2022-12-31",
    )
    reasons = {(r.file, r.row): r.reason for r in load.rejected}
    assert reasons[("matrix.csv", 2)].startswith("PP-1: Contract Value: contract value 'EUR")
    assert "is in EUR, not US dollars" in reasons[("matrix.csv", 2)]
    assert "is negative" in reasons[("matrix.csv", 3)]


def test_a_writeup_amount_in_another_currency_or_negative_is_rejected(tmp_path):
    writeups = tmp_path / "writeups"
    writeups.mkdir()
    for number, value in ((1, '"€2.5M"'), (2, "-1200000")):
        (writeups / f"PP-{number}.md").write_text(
            f"---\nid: PP-{number}\ntitle: Work {number}\ncustomer:\n  type: federal-civilian\n"
            f"contract:\n  value_min: {value}\n  start_date: 2020-01-01\n---\n\n# Work\n",
            encoding="utf-8",
        )
    load = load_library(tmp_path)
    assert load.entries == []
    reasons = sorted(r.reason for r in load.rejected)
    assert "contract value_min: contract value '€2.5M' is in €, not US dollars" in reasons[0]
    assert "contract value_min: contract value -1200000 is negative" in reasons[1]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("01.02.2020 – 31.12.2022", ("2020-02-01", "2022-12-31")),
        ("01.02.2020-31.12.2022", ("2020-02-01", "2022-12-31")),
        ("1.2.20 - 31.12.22", ("2020-02-01", "2022-12-31")),
        ("01.10.2019 to present", ("2019-10-01", "ongoing")),
        ("02/01/2020 - 12/31/2022", ("2020-02-01", "2022-12-31")),  # slashes stay US order
    ],
)
def test_a_dotted_date_is_day_month_year(text, expected):
    assert parse_period_of_performance(text) == expected


def test_a_uk_slash_date_is_reported_with_the_iso_spelling():
    with pytest.raises(ValueError) as caught:
        parse_period_of_performance("15/01/2020 - 14/01/2023")
    assert str(caught.value) == (
        "period of performance '15/01/2020 - 14/01/2023': '15/01/2020' is day/month/year, but "
        "a date with slashes is read month/day/year (US order): write it as year-month-day, "
        "e.g. 2020-01-15"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2020-13-01", "'2020-13-01' is not a calendar date (month must be in 1..12)"),
        ("2019-02-30", "'2019-02-30' is not a calendar date (day is out of range for month)"),
        ("31.02.2020", "'31.02.2020' is not a calendar date (day is out of range for month)"),
    ],
)
def test_an_impossible_date_names_itself(text, message):
    with pytest.raises(ValueError) as caught:
        parse_date_bound(text, "start")
    assert str(caught.value) == message


def test_an_award_whose_obligations_net_negative_drafts_its_ceiling_not_a_negative_value(
    tmp_path,
):
    from rfp_retrieval.library import awards

    export = tmp_path / "awards.csv"
    export.write_text(
        "piid,department_name,department_id,obligated_amount,base_and_all_options_value,"
        "effective_date,current_completion_date,contract_action_type\n"
        "W91QUZ22F0210,DEPT OF THE ARMY,9700,-100000.00,2500000.00,2022-02-01,2023-01-31,"
        "DELIVERY ORDER\n"
        "W91QUZ22F0211,DEPT OF THE ARMY,9700,-5.00,,2022-02-01,2023-01-31,DELIVERY ORDER\n",
        encoding="utf-8",
    )
    result = awards.import_awards([export])
    values = {e.id: e.contract.value for e, _ in result.drafts}
    assert values == {
        "AW-W91QUZ22F0210": ContractValue(2_500_000, 2_500_000, funded=None),
        "AW-W91QUZ22F0211": ContractValue(None, None, funded=None),
    }
    awards.write_drafts(result, tmp_path / "drafts")
    loaded = load_library(tmp_path / "drafts")
    assert loaded.rejected == []
    assert sorted(e.id for e in loaded.entries) == ["AW-W91QUZ22F0210", "AW-W91QUZ22F0211"]
