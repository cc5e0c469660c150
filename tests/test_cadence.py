"""FIDE's lists at their own cadence: quarterly to the list of July 2009, every two months
to the list of July 2012, monthly since; a period covers the months since the list before,
and only its last month publishes a list."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from ledger import queries
from ledger.core import cadence
from ledger.core.domain import Period, Pool
from ledger.formats.fide_list import FideListRow, PoolRating, write_fide_txt
from ledger.storage.database import Ledger
from ledger.storage.models import Game, ListVersion

from builders import fingerprint, listing, run

STANDARD = Pool.STANDARD
P = Period.parse

PERIODS = {
    "quarterly: 2009-05 is rated on the list of 1 July 2009": ("2009-05", "2009-06"),
    "quarterly: 2009-06, the last quarterly period, publishes it": ("2009-06", "2009-06"),
    "bi-monthly: 2009-07 goes with 2009-08, the first bi-monthly period": ("2009-07", "2009-08"),
    "bi-monthly: 2011-01 is rated on the list of 1 March 2011": ("2011-01", "2011-02"),
    "bi-monthly: 2012-05 goes with 2012-06, the last bi-monthly period": ("2012-05", "2012-06"),
    "monthly: 2012-07, the first monthly period": ("2012-07", "2012-07"),
    "monthly: 2026-10": ("2026-10", "2026-10"),
    "quarterly: the ledger's first month, 1970-01": ("1970-01", "1970-03"),
}


@pytest.mark.parametrize(("month", "period"), list(PERIODS.values()), ids=list(PERIODS))
def test_a_month_is_rated_in_the_period_that_covers_it(month: str, period: str) -> None:
    assert cadence.list_period(STANDARD, P(month)) == P(period)
    assert cadence.is_list_period(STANDARD, P(month)) is (month == period)
    assert P(month) in cadence.months_of(STANDARD, P(period))


COVERS = {
    "the last quarterly list, 1 July 2009": ("2009-06", ["2009-04", "2009-05", "2009-06"]),
    "the first bi-monthly list, 1 September 2009": ("2009-08", ["2009-07", "2009-08"]),
    "the last bi-monthly list, 1 July 2012": ("2012-06", ["2012-05", "2012-06"]),
    "the first monthly list, 1 August 2012": ("2012-07", ["2012-07"]),
}


@pytest.mark.parametrize(("period", "months"), list(COVERS.values()), ids=list(COVERS))
def test_each_list_covers_the_months_since_the_list_before(period: str, months: list[str]) -> None:
    assert [str(month) for month in cadence.months_of(STANDARD, P(period))] == months
    previous = cadence.previous_list_period(STANDARD, P(period))
    assert cadence.next_list_period(STANDARD, previous) == P(period)


def test_rapid_and_blitz_are_monthly_in_every_year() -> None:
    for pool in (Pool.RAPID, Pool.BLITZ):
        assert cadence.list_periods(pool, P("2011-01"), P("2011-03")) == [
            P("2011-01"),
            P("2011-02"),
            P("2011-03"),
        ]


def test_the_list_periods_of_2011_are_every_other_month() -> None:
    assert [str(p) for p in cadence.list_periods(STANDARD, P("2011-01"), P("2011-12"))] == [
        "2011-02",
        "2011-04",
        "2011-06",
        "2011-08",
        "2011-10",
        "2011-12",
    ]


def _old_layout(month: str, rows: list[tuple[int, str, str, str, int, int, str, str]]) -> bytes:
    """A standard list in FIDE's 2001-2012 TXT layout (`tests/data/fide/players_list_mar11.txt`
    shows FIDE's own rows in it)."""
    lines = [f"ID number Name                              TitlFed  {month} GamesBorn  Flag"]
    for fide_id, name, title, fed, rating, games, born, flag in rows:
        line = (
            f"{fide_id:>8}  {name:<34}{title:<4}{fed:<5}{rating:>4}  {games:>3}  {born:<4}  {flag}"
        )
        lines.append(line.rstrip().ljust(70))
    return "".join(f"{line}\r\n" for line in lines).encode("latin-1")


def _modern(path: Path, month: str, ratings: dict[int, int]) -> Path:
    rows = [
        FideListRow(
            line=0,
            fide_id=fide_id,
            name=NAMES[fide_id],
            federation=FEDS[fide_id],
            sex="F" if fide_id == SOHITA else "M",
            title="GM" if fide_id == ANDREIKIN else None,
            women_title=None,
            other_titles=None,
            foa_title=None,
            birth_year=None,
            flag="",
            ratings={STANDARD: PoolRating(rating=rating, games=0, k=None)},
        )
        for fide_id, rating in ratings.items()
    ]
    file = path / f"standard_{month.lower()}frl.txt"
    file.write_bytes("".join(write_fide_txt(rows, (STANDARD,), month)).encode("latin-1"))
    return file


ANDREIKIN, SOURAB, SOHITA = 4158814, 10206612, 5080444
NAMES = {ANDREIKIN: "Andreikin, Dmitry", SOURAB: "A K M, Sourab", SOHITA: "A, Sohita"}
FEDS = {ANDREIKIN: "RUS", SOURAB: "BAN", SOHITA: "IND"}
MARCH_2011 = Path(__file__).parent / "data" / "fide" / "players_list_mar11.txt"


def _ok(*args: str, db: str) -> str:
    done = run(*args, db=db)
    assert done.exit_code == 0, done.stderr
    return done.stdout


def _published(ledger: Ledger) -> list[str]:
    with ledger.reading() as session:
        return [
            str(period)
            for period in session.scalars(
                select(ListVersion.period).where(ListVersion.pool == STANDARD).distinct()
            )
        ]


def test_a_history_of_fide_lists_from_2011_2013_and_2024(
    ledger: Ledger, database_url: str, tmp_path: Path
) -> None:
    """FIDE's lists of 2011 at their bi-monthly dates, of 2013 and 2024 monthly: every row
    kept, no list FIDE did not publish, the history and the peaks as FIDE shows them."""
    may = tmp_path / "players_list_may11.txt"
    may.write_bytes(
        _old_layout(
            "May11",
            [
                (ANDREIKIN, NAMES[ANDREIKIN], "g", "RUS", 2690, 7, "1990", ""),
                (SOURAB, NAMES[SOURAB], "", "BAN", 1714, 0, "", ""),
                (SOHITA, NAMES[SOHITA], "", "IND", 1440, 3, "1995", "w"),
            ],
        )
    )
    _ok("import-fide-list", str(MARCH_2011), db=database_url)
    _ok("import-fide-list", str(may), db=database_url)
    assert _published(ledger) == ["2011-02", "2011-04"]
    _ok("close-period", "2012-11", db=database_url)
    _ok(
        "import-fide-list",
        str(_modern(tmp_path, "JAN13", {ANDREIKIN: 2709, SOURAB: 1702, SOHITA: 1431})),
        db=database_url,
    )
    _ok(
        "import-fide-list",
        str(_modern(tmp_path, "FEB13", {ANDREIKIN: 2705, SOURAB: 1702, SOHITA: 1420})),
        db=database_url,
    )
    _ok("close-period", "2024-01", db=database_url)
    _ok(
        "import-fide-list",
        str(_modern(tmp_path, "MAR24", {ANDREIKIN: 2721, SOURAB: 1826, SOHITA: 1652})),
        db=database_url,
    )
    published = _published(ledger)
    assert published[:10] == [
        "2011-02",
        "2011-04",
        "2011-06",
        "2011-08",
        "2011-10",
        "2011-12",
        "2012-02",
        "2012-04",
        "2012-06",
        "2012-07",
    ]
    assert len(published) == 9 + (2024 - 2013) * 12 + 8
    assert {fide_id: row.rating for fide_id, row in listing(ledger).items()} == {
        ANDREIKIN: 2721,
        SOURAB: 1826,
        SOHITA: 1652,
    }
    with ledger.reading() as session:
        holders = queries.rank_summary(session, STANDARD)
        peaks = {
            row.id: (row.peak, str(row.peak_period)) for row in queries.peaks(session, STANDARD)
        }
    assert [(row.id, row.lists_held) for row in holders] == [(ANDREIKIN, len(published))]
    assert peaks == {
        ANDREIKIN: (2721, "2024-02"),
        SOURAB: (1826, "2024-02"),
        SOHITA: (1652, "2024-02"),
    }


def _started_2011(database_url: str) -> None:
    _ok("import-fide-list", str(MARCH_2011), db=database_url)


def test_a_game_of_a_month_without_a_list_is_rated_in_the_period_that_covers_it(
    ledger: Ledger, database_url: str
) -> None:
    _started_2011(database_url)
    added = _ok(
        "add-game",
        "--white",
        str(SOURAB),
        "--black",
        str(SOHITA),
        "--result",
        "1-0",
        "--date",
        "2011-03-15",
        db=database_url,
    )
    assert "2011-04" in added
    assert "2011-03-15" in _ok("games", "--period", "2011-03", db=database_url)
    _ok("close-period", "2011-04", db=database_url)
    with ledger.reading() as session:
        assert session.scalars(select(Game.period)).all() == [P("2011-04")]
    assert _published(ledger) == ["2011-02", "2011-04"]
    assert listing(ledger)[SOURAB].games == 1


BAD = {
    "closing a month without a list": (
        ["close-period", "2011-03"],
        "error: period 2011-03 publishes no standard list: FIDE's standard lists came every 2 "
        "months then; use 2011-04, the period of the May 2011 list, which covers 2011-03 to "
        "2011-04.\n",
    ),
    "importing a list as a month without one": (
        ["import-fide-list", "{list}", "--period", "2011-05"],
        "error: period 2011-05 publishes no standard list: FIDE's standard lists came every 2 "
        "months then; use 2011-06, the period of the Jul 2011 list, which covers 2011-05 to "
        "2011-06.\n",
    ),
}


@pytest.mark.parametrize(("arguments", "message"), list(BAD.values()), ids=list(BAD))
def test_a_month_without_a_list_is_refused_in_one_sentence(
    arguments: list[str], message: str, database_url: str
) -> None:
    _started_2011(database_url)
    combined = MARCH_2011.parent / "players_list_foa.txt"
    before = fingerprint(database_url)
    refused = run(*(arg.replace("{list}", str(combined)) for arg in arguments), db=database_url)
    assert (refused.exit_code, refused.stdout, refused.stderr) == (1, "", message)
    assert fingerprint(database_url) == before


def test_the_list_of_a_month_without_one_names_the_list_that_covers_it(database_url: str) -> None:
    _started_2011(database_url)
    asked = run("list", "--period", "2011-01", db=database_url)
    assert (asked.exit_code, asked.stderr) == (
        1,
        "error: no standard list was published for period 2011-01 (FIDE's lists came less "
        "often then: the list of 2011-02 covers it); the newest is 2011-02.\n",
    )
