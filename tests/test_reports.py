"""`ledger stats`, `peaks` and `history`, checked by hand on a small ledger."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from ledger.core.domain import Period, Pool
from ledger.core.errors import InvalidInput, NotFound
from ledger.queries.reports import list_statistics, peaks, rank_history
from ledger.storage.database import Ledger

from builders import close, game, player, run


@pytest.fixture
def small(ledger: Ledger) -> dict[str, int]:
    """Five players; Ann (a woman) beats Bob in October and takes first place."""
    ids = {
        "Bob": player(ledger, "Bob", rating=2310, games=50, federation="NOR", peak=2350),
        "Ann": player(ledger, "Ann", rating=2300, games=50, federation="NOR", sex="F"),
        "Cid": player(ledger, "Cid", rating=2240, games=50, federation="ENG"),
        "Dee": player(ledger, "Dee", rating=2205, games=50, federation="ENG", sex="F"),
        "Eve": player(ledger, "Eve", rating=1900, games=50, federation="ENG", sex="F"),
    }
    close(ledger, "2026-09")
    game(ledger, ids["Ann"], ids["Bob"], "1-0", "2026-10-03")
    game(ledger, ids["Cid"], ids["Eve"], "1/2-1/2", "2026-10-04")
    close(ledger, "2026-10")
    return ids


def test_stats_counts_players_by_band(ledger: Ledger, small: dict[str, int]) -> None:
    with ledger.reading() as session:
        report = list_statistics(session, Pool.STANDARD, start=2200, band=50)
    # Ann 2300 + 20 x (1 - 0.49) = 2310.2 -> 2310; Bob 2310 - 10 = 2300;
    # Cid 2240 draws 1900 (D 340, PD 0.88): 20 x -0.38 = -7.6 -> 2232; Eve +8 -> 1908.
    assert [(b.low, b.high, b.players, b.women) for b in report.bands] == [
        (2300, 2349, 2, 1),
        (2250, 2299, 0, 0),
        (2200, 2249, 2, 1),
    ]
    assert (report.rated_players, report.women, report.games_rated) == (5, 3, 2)
    assert report.below_the_bands == 1  # Eve, 1908
    # Changes of the rated players: +10, -10, -8, +8 -> average 0.00.
    assert report.average_change == Decimal("0.00")


def test_stats_of_an_earlier_list_and_bad_bands(ledger: Ledger, small: dict[str, int]) -> None:
    with ledger.reading() as session:
        september = list_statistics(session, Pool.STANDARD, Period(2026, 9), 2000, 200)
        with pytest.raises(InvalidInput, match="band: 0 is not a band width"):
            list_statistics(session, Pool.STANDARD, band=0)
    assert [(b.low, b.players) for b in september.bands] == [(2200, 4), (2000, 0)]
    assert (september.games_rated, september.average_change) == (0, None)


def test_peaks_with_the_list_reached_on(ledger: Ledger, small: dict[str, int]) -> None:
    with ledger.reading() as session:
        rows = peaks(session, Pool.STANDARD, min_rating=2300)
        women = peaks(session, Pool.STANDARD, women=True, federation="eng")
    assert [(r.rank, r.name, r.peak, r.peak_period) for r in rows] == [
        (1, "Bob", 2350, None),
        (2, "Ann", 2310, Period(2026, 10)),
    ]
    assert [(r.name, r.peak) for r in women] == [("Dee", 2205), ("Eve", 1908)]


def test_history_of_the_first_place(ledger: Ledger, small: dict[str, int]) -> None:
    with ledger.reading() as session:
        holders = rank_history(session, Pool.STANDARD, rank=1)
        english = rank_history(session, Pool.STANDARD, rank=2, federation="ENG")
        with pytest.raises(InvalidInput, match="rank: 0 is not a rank"):
            rank_history(session, Pool.STANDARD, rank=0)
    assert [(str(h.period), h.name, h.lists_held) for h in holders] == [
        ("2026-09", "Bob", 1),
        ("2026-10", "Ann", 1),
    ]
    assert [(str(h.period), h.name) for h in english] == [("2026-09", "Dee"), ("2026-10", "Dee")]


def test_tied_players_share_the_rank(ledger: Ledger) -> None:
    player(ledger, "Twin A", rating=2000)
    player(ledger, "Twin B", rating=2000)
    close(ledger, "2026-10")
    with ledger.reading() as session:
        holders = rank_history(session, Pool.STANDARD)
        assert rank_history(session, Pool.STANDARD, rank=2) == []
    assert [h.name for h in holders] == ["Twin A", "Twin B"]


def test_reports_on_the_command_line(database_url: str) -> None:
    refused = run("stats", db=database_url)
    assert refused.exit_code == 1
    assert refused.stderr.startswith("error: no standard list has been published yet")
    run(
        "add-player",
        "--name",
        "Ann",
        "--rating",
        "2300",
        "--games",
        "40",
        "--sex",
        "F",
        db=database_url,
    )
    run("close-period", "2026-10", db=database_url)
    data = json.loads(run("stats", "--format", "json", db=database_url).stdout)
    assert data["bands"][0] == {
        "low": 2300,
        "high": 2349,
        "players": 1,
        "active": 1,
        "women": 1,
        "women_active": 1,
    }
    assert [band["players"] for band in data["bands"]] == [1, 0, 0]
    assert "Ann" in run("peaks", db=database_url).stdout
    rows = run("history", "--format", "csv", db=database_url).stdout.splitlines()
    assert rows == [
        "period,list_name,id,name,federation,rating,lists_held",
        "2026-10,Nov 2026,1,Ann,,2300,1",
    ]
    assert "2300-2349" in run("stats", db=database_url).stdout


def test_no_list_means_no_history(ledger: Ledger) -> None:
    with ledger.reading() as session, pytest.raises(NotFound):
        rank_history(session, Pool.STANDARD)


def test_empty_bands_are_shown_with_zeros(ledger: Ledger) -> None:
    player(ledger, "High", rating=2410)
    player(ledger, "Low", rating=2210, sex="F")
    close(ledger, "2026-10")
    with ledger.reading() as session:
        report = list_statistics(session, Pool.STANDARD, start=2200, band=100)
    assert [(b.low, b.players, b.women) for b in report.bands] == [
        (2400, 1, 0),
        (2300, 0, 0),
        (2200, 1, 1),
    ]
    assert (report.women, report.women_active) == (1, 1)
