"""FIDE's lists by their date: the floor of each list (7.1.4 as it stood on the list's
date), FIDE's older TXT layout, and what an imported list of past years keeps."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from ledger.core import rules
from ledger.core.domain import Period, Pool
from ledger.core.errors import InvalidInput
from ledger.core.records import new_player
from ledger.formats.fide_list import FideListRow, PoolRating, write_fide_txt
from ledger.storage.database import Ledger

from builders import fingerprint, listing, run

FIDE = Path(__file__).parent / "data" / "fide"
JANUARY_2023 = FIDE / "standard_jan23frl.txt"

FLOORS = {
    "1200: the list of 1 May 2012, the last of the 1200 floor": ("2012-04", 1200),
    "1000: the list of 1 July 2012, the first of the 1000 floor": ("2012-06", 1000),
    "1000: the list of 1 February 2024, the last of the 1000 floor": ("2024-01", 1000),
    "1400: the list of 1 March 2024, the first of the 1400 floor": ("2024-02", 1400),
    "1200: the list of 1 July 2009, FIDE's first 1200 list": ("2009-06", 1200),
    "1200: any older list, the ledger's choice": ("1971-01", 1200),
    "1400: today's lists": ("2026-10", 1400),
}


@pytest.mark.parametrize(("period", "floor"), list(FLOORS.values()), ids=list(FLOORS))
def test_each_list_has_the_floor_of_its_date(period: str, floor: int) -> None:
    assert rules.rating_floor(Period.parse(period)) == floor
    assert rules.is_listed(floor, Period.parse(period))
    assert not rules.is_listed(floor - 1, Period.parse(period))


@pytest.mark.parametrize(
    ("today", "floor"),
    [("2024-02-29", 1000), ("2024-03-01", 1400), ("2026-12-06", 1400)],
    ids=["the list of 1 February 2024 in force", "the list of 1 March 2024 in force", "today"],
)
def test_a_starting_rating_begins_at_the_floor_of_the_list_in_force(
    today: str, floor: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One floor: the starting ratings the ledger accepts follow `rules.RATING_FLOORS`, so a
    floor FIDE changes from a list on is one row of that table (the close and the new
    players alike)."""
    day = dt.date.fromisoformat(today)
    new_player(name="Low, Lee", rating=floor, games=10, today=day)
    with pytest.raises(InvalidInput, match=f"ratings run from {floor} "):
        new_player(name="Low, Lee", rating=floor - 1, games=10, today=day)
    lowered = (*rules.RATING_FLOORS, (Period(2026, 11), 1300))
    monkeypatch.setattr(rules, "RATING_FLOORS", lowered)
    new_player(name="Low, Lee", rating=1300, games=10, today=dt.date(2026, 12, 6))


def test_a_real_january_2023_list_keeps_its_players_from_1000(
    ledger: Ledger, database_url: str
) -> None:
    """FIDE's standard list of January 2023 (three of its rows, as FIDE wrote them): the
    1063 of a player FIDE listed is published, under the 1000 floor of that date."""
    imported = run("import-fide-list", str(JANUARY_2023), db=database_url)
    assert imported.exit_code == 0, imported.stderr
    assert imported.stdout.startswith(
        "Published standard_jan23frl.txt as the list of 2022-12: 3 players (3 new"
    )
    rows = listing(ledger)
    assert {fide_id: row.rating for fide_id, row in rows.items()} == {
        25121731: 1063,
        5045886: 1671,
        4804929: 1876,
    }


def _row(fide_id: int, rating: int) -> FideListRow:
    return FideListRow(
        line=0,
        fide_id=fide_id,
        name=f"Player {fide_id}",
        federation="NOR",
        sex="M",
        title=None,
        women_title=None,
        other_titles=None,
        foa_title=None,
        birth_year=1990,
        flag="",
        ratings={Pool.STANDARD: PoolRating(rating=rating, games=0, k=20)},
    )


def test_a_list_after_march_2024_skips_a_rating_below_1400(
    ledger: Ledger, database_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "standard_apr24frl.txt"
    lines = write_fide_txt([_row(1, 1399), _row(2, 1400)], (Pool.STANDARD,), "APR24")
    path.write_bytes("".join(lines).encode("latin-1"))
    imported = run("import-fide-list", str(path), db=database_url)
    assert imported.exit_code == 0, imported.stderr
    assert (
        "standard_apr24frl.txt:2: standard rating 1399 is not a published rating on the list "
        "of 2024-03; its ratings run from 1400 (FIDE 7.1.4) to"
    ) in imported.stderr
    assert set(listing(ledger)) == {2}


def test_a_list_below_its_floor_is_refused_whole_when_strict(
    database_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "standard_may12frl.txt"
    lines = write_fide_txt([_row(1, 1199), _row(2, 1200)], (Pool.STANDARD,), "MAY12")
    path.write_bytes("".join(lines).encode("latin-1"))
    before = fingerprint(database_url)
    refused = run("import-fide-list", str(path), "--strict", db=database_url)
    assert refused.exit_code == 1
    assert "standard rating 1199 is not a published rating on the list of 2012-04" in (
        refused.stderr
    )
    assert fingerprint(database_url) == before


MARCH_2011 = FIDE / "players_list_mar11.txt"


def test_fides_2011_layout_is_read_as_the_list_of_its_month(
    ledger: Ledger, database_url: str
) -> None:
    """FIDE's March 2011 standard list, in its layout of the time: titles in lower case, no
    sex or K column, women marked by their flag, a blank birth year."""
    imported = run("import-fide-list", str(MARCH_2011), db=database_url)
    assert imported.exit_code == 0, imported.stderr
    assert imported.stdout == (
        "Published players_list_mar11.txt as the list of 2011-02: 3 players (3 new, "
        "0 updated); ratings: 3 standard.\n"
    )
    rows = listing(ledger)
    andreikin, sourab, sohita = rows[4158814], rows[10206612], rows[5080444]
    assert (andreikin.rating, andreikin.title, andreikin.federation) == (2686, "GM", "RUS")
    assert (sourab.rating, sourab.federation) == (1714, "BAN")
    assert (sohita.rating, sohita.flag) == (1447, "wi")


def test_a_row_of_the_2011_layout_cut_short_is_reported(database_url: str, tmp_path: Path) -> None:
    lines = MARCH_2011.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "players_list.txt"
    cut.write_bytes(b"".join([*lines, b" 4100000  Cut, Row                         \r\n"]))
    imported = run("import-fide-list", str(cut), "--strict", db=database_url)
    assert imported.exit_code == 1
    assert imported.stderr == (
        "error: players_list.txt:5: the list breaks off in the middle of its last row (the "
        "row stops at character 18, before Games (character 60); FIDE's rows are 74 "
        "characters long); download the file again: a list cut off is not imported.\n"
    )
