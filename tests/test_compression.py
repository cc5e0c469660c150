"""FIDE's compression of March 2024 (`ledger compress-ratings --period 2024-02`): the
formula, the list it publishes again, what it refuses, and the closes that wait for it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from ledger.core import compression
from ledger.core.domain import Period, Pool
from ledger.formats.fide_list import FideListRow, PoolRating, write_fide_txt
from ledger.services import compression as compressing
from ledger.storage.database import Ledger
from ledger.storage.models import PlayerRating

from builders import fingerprint, listing, run

FORMULA = {
    "1000, the old floor, becomes 1400, the new": (1000, 1400),
    "1063 gains 374.8, rounded to 375": (1063, 1438),
    "1500 gains 200": (1500, 1700),
    "1998 gains 0.8, rounded to 1": (1998, 1999),
    "1999 gains 0.4, rounded to 0": (1999, 1999),
    "2000 and above stay": (2000, 2000),
    "2850 stays": (2850, 2850),
}


@pytest.mark.parametrize(("rating", "after"), list(FORMULA.values()), ids=list(FORMULA))
def test_the_compression_is_fides_formula(rating: int, after: int) -> None:
    assert compression.compressed(rating) == after


def _row(fide_id: int, rating: int, pool: Pool = Pool.STANDARD) -> FideListRow:
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
        ratings={pool: PoolRating(rating=rating, games=40, k=20)},
    )


def _ok(*args: str, db: str) -> str:
    done = run(*args, db=db)
    assert done.exit_code == 0, done.stderr
    return done.stdout


def _february_2024(database_url: str, tmp_path: Path) -> None:
    """FIDE's list of February 2024 (in its layout, invented players), and February's games:
    player 5 falls from 1001 below 1000 (unrated on any scale), player 1 from 1063 to 1061,
    below the new floor of 1400 on the old scale."""
    path = tmp_path / "standard_feb24frl.txt"
    ratings = {1: 1063, 2: 1500, 3: 2100, 4: 1999, 5: 1001, 6: 1400}
    rows = [_row(fide_id, rating) for fide_id, rating in ratings.items()]
    path.write_bytes("".join(write_fide_txt(rows, (Pool.STANDARD,), "FEB24")).encode())
    _ok("import-fide-list", str(path), db=database_url)
    for white, black, day in ((1, 6, "2024-02-10"), (5, 6, "2024-02-11")):
        _ok(
            "add-game",
            *("--white", str(white), "--black", str(black), "--result", "0-1"),
            *("--date", day),
            db=database_url,
        )
    _ok("close-period", "2024-02", db=database_url)


def test_the_list_of_march_2024_is_published_again_compressed(
    ledger: Ledger, database_url: str, tmp_path: Path
) -> None:
    _february_2024(database_url, tmp_path)
    assert set(listing(ledger)) == {2, 3, 4, 6}
    done = _ok("compress-ratings", "--period", "2024-02", db=database_url)
    assert done == (
        "Compressed the standard list of 2024-02 (Mar 2024) as FIDE did: 3 ratings below 2000 "
        "raised by 0.4 x (2000 - rating), 1 of them kept on the list above the new floor of "
        "1400; published as version 2 of the list.\n"
    )
    rows = listing(ledger)
    assert {fide_id: (row.rating, row.change) for fide_id, row in rows.items()} == {
        1: (1437, -2 + 376),
        2: (1700, 200),
        3: (2100, 0),
        4: (1999, 0),
        6: (1642, 4 + 238),
    }
    assert listing(ledger, "2024-01")[2].rating == 1500
    assert rows[1].peak == 1437
    log = _ok("log", db=database_url)
    assert "compress-ratings 2024-02: version 2; raised 3; kept on list 1" in log


BAD = {
    "a period other than 2024-02": (
        ["--period", "2024-03"],
        "error: FIDE compressed the ratings once, on the list of 1 March 2024, period 2024-02; "
        "2024-03 is not that list.\n",
    ),
    "twice": (
        ["--period", "2024-02"],
        "error: the standard list of 2024-02 is compressed already; nothing was written.\n",
    ),
    "not a period": (
        ["--period", "March"],
        "error: period: 'March' is not a period; write it as YYYY-MM, e.g. 2026-10.\n",
    ),
}


@pytest.mark.parametrize(("arguments", "message"), list(BAD.values()), ids=list(BAD))
def test_bad_compressions_are_refused_in_one_line(
    arguments: list[str], message: str, database_url: str, tmp_path: Path
) -> None:
    _february_2024(database_url, tmp_path)
    _ok("compress-ratings", "--period", "2024-02", db=database_url)
    before = fingerprint(database_url)
    refused = run("compress-ratings", *arguments, db=database_url)
    assert (refused.exit_code, refused.stdout, refused.stderr) == (
        2 if "not a period" in message else 1,
        "",
        message,
    )
    assert fingerprint(database_url) == before


def test_fides_own_list_of_march_2024_is_not_compressed_again(
    database_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "standard_mar24frl.txt"
    rows = [_row(1, 1438), _row(2, 1700)]
    path.write_bytes("".join(write_fide_txt(rows, (Pool.STANDARD,), "MAR24")).encode())
    _ok("import-fide-list", str(path), db=database_url)
    before = fingerprint(database_url)
    refused = run("compress-ratings", "--period", "2024-02", db=database_url)
    assert (refused.exit_code, refused.stderr) == (
        1,
        "error: the standard list of 2024-02 was imported from FIDE, whose list of March 2024 "
        "is compressed already; nothing was written.\n",
    )
    assert fingerprint(database_url) == before


def test_a_compression_before_its_list_is_closed_is_refused(database_url: str) -> None:
    refused = run("compress-ratings", "--period", "2024-02", db=database_url)
    assert (refused.exit_code, refused.stderr) == (
        1,
        "error: the standard list of 2024-02 must be the newest published to be compressed; "
        "close it first.\n",
    )


def test_a_compression_that_fails_half_way_changes_nothing(
    ledger: Ledger, database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The list's rows are written, then writing the standings fails: nothing is kept."""
    _february_2024(database_url, tmp_path)
    before = fingerprint(database_url)
    written = compressing.update_rows

    def fail_at_standings(session: Any, model: Any, rows: Any) -> None:
        if model is PlayerRating:
            raise RuntimeError("disk full")
        written(session, model, rows)

    monkeypatch.setattr(compressing, "update_rows", fail_at_standings)
    with pytest.raises(RuntimeError, match="disk full"), ledger.transaction() as session:
        compressing.compress_ratings(
            session, Pool.STANDARD, compression.COMPRESSED_LIST, dt.datetime.now(dt.UTC)
        )
    assert fingerprint(database_url) == before


# -- the closes around the compression ------------------------------------------------------

AWAITS = {
    "999: below the old floor, never listed": (999, False),
    "1000: the old floor": (1000, True),
    "1399: the last rating below the new floor": (1399, True),
    "1400: the new floor": (1400, False),
}


@pytest.mark.parametrize(("rating", "awaits"), list(AWAITS.values()), ids=list(AWAITS))
def test_a_rating_below_the_new_floor_awaits_the_compression(rating: int, awaits: bool) -> None:
    assert compression.awaits_compression(rating) is awaits


RATED_FROM_IT = {
    "2024-02: the list compressed": ("2024-02", False),
    "2024-03: the first period rated from it": ("2024-03", True),
    "2024-04": ("2024-04", False),
}


@pytest.mark.parametrize(("period", "rated"), list(RATED_FROM_IT.values()), ids=list(RATED_FROM_IT))
def test_the_period_after_the_list_is_rated_from_it_compressed(period: str, rated: bool) -> None:
    assert compression.rated_from_compressed_list(Period.parse(period)) is rated


def _january_2024(
    database_url: str, tmp_path: Path, ratings: dict[int, int], pool: Pool = Pool.STANDARD
) -> None:
    """FIDE's list of January 2024 (the list of 2023-12, under the floor of 1000), closed
    through 2024-01 without games."""
    path = tmp_path / f"{pool}_jan24frl.txt"
    rows = [_row(fide_id, rating, pool) for fide_id, rating in ratings.items()]
    path.write_bytes("".join(write_fide_txt(rows, (pool,), "JAN24")).encode())
    _ok("import-fide-list", str(path), db=database_url)
    _ok("close-period", "2024-01", "--pool", pool, db=database_url)


NAMED = (
    "{ratings} from 1000 to 1399 {are} below this list's new floor of 1400 until it is "
    "compressed as FIDE did on 1 March 2024: run `ledger compress-ratings --period 2024-02` "
    "next.\n"
)
SUMMARIES = {
    "1000 and 1399 stay listed below the new floor": (
        {1: 1000, 2: 1399, 3: 1400, 4: 1999},
        NAMED.format(ratings="2 ratings", are="are"),
    ),
    "none below the new floor: no word": ({1: 1400, 2: 1999, 3: 2100}, ""),
}


@pytest.mark.parametrize(("ratings", "line"), list(SUMMARIES.values()), ids=list(SUMMARIES))
def test_the_close_of_the_list_of_2024_02_names_the_compression_when_ratings_await_it(
    database_url: str, tmp_path: Path, ratings: dict[int, int], line: str
) -> None:
    _january_2024(database_url, tmp_path, ratings)
    closed = _ok("close-period", "2024-02", db=database_url)
    assert closed.endswith("`ledger list --period 2024-02`.\n" + line)


def test_a_rating_the_new_floor_dropped_awaits_the_compression_too(
    database_url: str, tmp_path: Path
) -> None:
    """February's games take 1063 to 1061, dropped by the floor of 1400, which the
    compression keeps on the list; 1001 to 999 is below any floor."""
    path = tmp_path / "standard_feb24frl.txt"
    rows = [_row(1, 1063), _row(5, 1001), _row(6, 1400)]
    path.write_bytes("".join(write_fide_txt(rows, (Pool.STANDARD,), "FEB24")).encode())
    _ok("import-fide-list", str(path), db=database_url)
    for white, day in ((1, "2024-02-10"), (5, "2024-02-11")):
        _ok(
            "add-game",
            "--white",
            str(white),
            "--black",
            "6",
            "--result",
            "0-1",
            "--date",
            day,
            db=database_url,
        )
    closed = _ok("close-period", "2024-02", db=database_url)
    assert "2 fell below the floor." in closed
    assert closed.endswith(NAMED.format(ratings="1 rating", are="is"))


REFUSED_CLOSES = {
    "the period after the list of 2024-02, uncompressed": (
        Pool.STANDARD,
        "2024-02",
        "error: the standard list of 2024-02 holds 1 rating from 1000 to 1399, below its floor "
        "of 1400, that FIDE compressed before rating the games of 2024-03; compress the list "
        "first with `ledger compress-ratings --period 2024-02`.\n",
    ),
    "the list of 2024-02 and the period after it in one close": (
        Pool.STANDARD,
        None,
        "error: period 2024-02 closes alone: its list would hold 1 rating from 1000 to 1399, "
        "below its floor of 1400, that FIDE compressed before rating the games of 2024-03; "
        "close it first (`ledger close-period 2024-02`).\n",
    ),
    "the rapid list of 2024-02: the command names its pool": (
        Pool.RAPID,
        "2024-02",
        "error: the rapid list of 2024-02 holds 1 rating from 1000 to 1399, below its floor "
        "of 1400, that FIDE compressed before rating the games of 2024-03; compress the list "
        "first with `ledger compress-ratings --period 2024-02 --pool rapid`.\n",
    ),
}


@pytest.mark.parametrize(
    ("pool", "closed_first", "message"), list(REFUSED_CLOSES.values()), ids=list(REFUSED_CLOSES)
)
def test_a_close_after_the_list_of_2024_02_waits_for_its_compression(
    database_url: str, tmp_path: Path, pool: Pool, closed_first: str | None, message: str
) -> None:
    """Refused in one sentence naming the next step, exit 1, nothing written."""
    _january_2024(database_url, tmp_path, {1: 1063, 2: 1500, 3: 2100}, pool)
    if closed_first:
        _ok("close-period", closed_first, "--pool", pool, db=database_url)
    before = fingerprint(database_url)
    refused = run("close-period", "2024-03", "--pool", pool, db=database_url)
    assert (refused.exit_code, refused.stdout, refused.stderr) == (1, "", message)
    assert fingerprint(database_url) == before


def test_once_compressed_the_next_period_closes_from_the_compressed_list(
    ledger: Ledger, database_url: str, tmp_path: Path
) -> None:
    _january_2024(database_url, tmp_path, {1: 1063, 2: 1500, 3: 2100})
    _ok("close-period", "2024-02", db=database_url)
    _ok("compress-ratings", "--period", "2024-02", db=database_url)
    _ok("close-period", "2024-03", db=database_url)
    assert {fide_id: row.rating for fide_id, row in listing(ledger).items()} == {
        1: 1438,
        2: 1700,
        3: 2100,
    }


def test_a_list_of_2024_02_with_nothing_below_its_floor_needs_no_compression(
    ledger: Ledger, database_url: str, tmp_path: Path
) -> None:
    """**Ledger's choice**: only ratings below the new floor hold the next close back."""
    _january_2024(database_url, tmp_path, {1: 1400, 2: 1999})
    _ok("close-period", "2024-02", db=database_url)
    _ok("close-period", "2024-03", db=database_url)
    assert {fide_id: row.rating for fide_id, row in listing(ledger).items()} == {1: 1400, 2: 1999}


def test_a_compressed_list_is_never_closed_again_without_its_compression(
    ledger: Ledger, database_url: str, tmp_path: Path
) -> None:
    """A re-rate or a reopen from 2024-02 or before would close the list of 2024-02 again
    under the old scale and publish it uncompressed: refused, nothing written. The lists
    after it are re-rated and reopened as any other."""
    _january_2024(database_url, tmp_path, {1: 1063, 2: 1500, 3: 2100})

    def played(white: int, black: int, result: str, day: str, *late: str) -> str:
        return _ok(
            "add-game",
            *("--white", str(white), "--black", str(black), "--result", result),
            *("--date", day, *late),
            db=database_url,
        )

    played(1, 3, "1/2-1/2", "2024-02-10")
    _ok("close-period", "2024-02", db=database_url)
    _ok("compress-ratings", "--period", "2024-02", db=database_url)
    compressed = {fide_id: row.rating for fide_id, row in listing(ledger, "2024-02").items()}
    assert compressed[1] > 1400
    played(1, 2, "1-0", "2024-03-10")
    _ok("close-period", "2024-03", db=database_url)
    before = fingerprint(database_url)
    refusal = (
        "error: the standard list of 2024-02 is compressed as FIDE compressed it (`ledger "
        "compress-ratings`), which closing it again would not repeat: it and the lists before "
        "it cannot be reopened or re-rated; nothing was written.\n"
    )
    late = ("--late", "--reason", "a game found late")
    for refused in (
        run(*("add-game", "--white", "2", "--black", "3", "--result", "0-1"),
            *("--date", "2024-02-12", *late), db=database_url),
        run("rerate", "--from", "2024-01", "--reason", "check", db=database_url),
    ):  # fmt: skip
        assert (refused.exit_code, refused.stderr) == (1, refusal)
    assert fingerprint(database_url) == before
    played(2, 3, "1/2-1/2", "2024-03-12", *late)
    assert {fide_id: row.rating for fide_id, row in listing(ledger, "2024-02").items()} == (
        compressed
    )
    _ok("reopen-period", "2024-03", "--reason", "check", db=database_url)
    reopened = run("reopen-period", "2024-02", "--reason", "check", db=database_url)
    assert (reopened.exit_code, reopened.stderr) == (1, refusal)
