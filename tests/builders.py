"""Tiny builders: a test shows its whole scenario in a few lines."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Column, Table, select
from typer.testing import CliRunner, Result

from ledger.cli import app
from ledger.core.access import Role
from ledger.core.domain import GameResult, Period, Pool, parse_date
from ledger.core.records import new_game, new_player
from ledger.formats.trf import TournamentReport, TrfEvent, TrfGame, TrfPlayer, write_trf
from ledger.queries import lists as queries
from ledger.services.accounts import add_account
from ledger.services.activity import Author
from ledger.services.closing import ClosedPeriod, close_period
from ledger.services.games import add_games
from ledger.services.players import add_players
from ledger.storage.database import Ledger, open_ledger
from ledger.storage.models import Base

NOW = dt.datetime(2030, 1, 1, 12, 0)
"""The clock of service tests: every period they use has ended."""

ALLOW_REPEAT_HINT = (
    "a game played again (a match of several games on one day, or in one round) is recorded "
    "with --allow-repeat."
)
"""The line below the refusal of a game recorded twice."""


def player(
    ledger: Ledger,
    name: str = "Player",
    *,
    rating: int | None = None,
    games: int = 40,
    pool: Pool = Pool.STANDARD,
    **fields: object,
) -> int:
    """Add a player (rated when `rating` is given) and return the ID."""
    record = new_player(
        name=name,
        rating=rating,
        games=games if rating is not None else None,
        today=NOW.date(),
        **fields,  # type: ignore[arg-type]
    )
    with ledger.transaction() as session:
        (player_id,) = add_players(session, pool, [record])
    return player_id


def game(
    ledger: Ledger,
    white: int,
    black: int,
    result: str,
    date: str,
    *,
    event: str | None = None,
    round: int | None = None,
    pool: Pool = Pool.STANDARD,
) -> None:
    """Record a game; a scenario may have two players meet twice on a day (a match)."""
    record = new_game(
        date=parse_date(date),
        white=white,
        black=black,
        result=GameResult.parse(result),
        event=event,
        round=round,
        today=NOW.date(),
    )
    with ledger.transaction() as session:
        add_games(session, pool, [record], allow_repeat=True)


def close(ledger: Ledger, period: str, pool: Pool = Pool.STANDARD) -> ClosedPeriod:
    with ledger.transaction() as session:
        return close_period(session, pool, Period.parse(period), NOW)


def listing(
    ledger: Ledger, period: str | None = None, pool: Pool = Pool.STANDARD
) -> dict[int, queries.ListRow]:
    """The published list as {player ID: row}."""
    with ledger.reading() as session:
        published = queries.rating_list(session, pool, Period.parse(period) if period else None)
    return {row.id: row for row in published.rows}


def fingerprint(url: str) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, to show that a refused command wrote nothing. The ID of a
    list version is left out: it numbers publications in time, so a list published again
    after a reopen gets a new one."""
    ledger = open_ledger(url)
    try:
        with ledger.reading() as session:
            return {
                table.name: sorted(
                    (tuple(row) for row in session.execute(select(*_compared(table)))), key=repr
                )
                for table in Base.metadata.sorted_tables
            }
    finally:
        ledger.dispose()


HISTORY = ("log_entries", "list_versions", "superseded_entries")
"""What only grows: the log, and every version of every list ever published."""


def ledger_state(url: str, *, history: bool = True) -> dict[str, list[tuple[object, ...]]]:
    """`fingerprint` without the moments of closes, publications, imports and log entries
    (which are `now`); without the history, which a reopen adds to, if not `history`."""
    state = fingerprint(url)
    state["rating_periods"] = [(*row[:2], row[2] is not None) for row in state["rating_periods"]]
    state["list_versions"] = [row[:-1] for row in state["list_versions"]]
    state["log_entries"] = [row[:1] + row[2:] for row in state["log_entries"]]
    state["imports"] = [row[:5] + row[6:] for row in state["imports"]]
    return state if history else {k: v for k, v in state.items() if k not in HISTORY}


def _compared(table: Table) -> list[Column[Any]]:
    return [c for c in table.columns if (table.name, c.name) != ("list_versions", "id")]


def run(*args: str, db: str | None = None) -> Result:
    """Run the CLI as a user would, with a fixed terminal width."""
    arguments = [*args, "--db", db] if db else list(args)
    return CliRunner().invoke(app, arguments, env={"COLUMNS": "80"})


def account(ledger: Ledger, email: str, role: Role = Role.ORGANISER) -> int:
    """An account of the site; returns its ID."""
    with ledger.transaction() as session:
        return add_account(session, email, email.split("@")[0], role, Author("test"), NOW).id


def entrant(
    name: str,
    fide_id: int | None = None,
    *,
    federation: str | None = None,
    sex: str | None = None,
    birth_year: int | None = None,
    rating: int | None = None,
) -> dict[str, object]:
    """A player of a TRF report, as `trf_report` takes them (by starting rank, in order)."""
    return {
        "name": name,
        "fide_id": fide_id,
        "federation": federation,
        "sex": sex,
        "birth_year": birth_year,
        "rating": rating,
    }


def trf_report(
    event: str,
    end: str,
    players: list[dict[str, object]],
    games: list[tuple[int, int, int, str]],
) -> bytes:
    """A TRF16 report as a pairing program writes it: the header records 012, 042, 052, 062
    and 072 (lines 1 to 5), then a 001 line for each player by starting rank (line 6 on);
    `games` are (round, White's rank, Black's rank, result), every round on `end`."""
    day = parse_date(end)
    report = TournamentReport(
        event=TrfEvent(event, None, None, day, day, ()),
        players=[
            TrfPlayer(rank=rank, title=None, line=0, **fields)  # type: ignore[arg-type]
            for rank, fields in enumerate(players, start=1)
        ],
        games=[
            TrfGame(
                round, white, black, GameResult.parse(result), rated=True, date=day, lines=(0, 0)
            )
            for round, white, black, result in games
        ],
        byes=[],
    )
    return write_trf(report).encode()


REPORTED = (
    ("Adams, Ann", 1001, "NOR", "F", 1990, 2000),
    ("Brown, Bob", 1002, "NOR", "M", 1985, 1900),
    ("Clark, Cy", 1003, "SWE", "M", 1979, 1800),
    ("Dahl, Di", 1004, "SWE", "F", 2001, 1700),
)
"""Four rated players with FIDE IDs, as tournament reports name them: (name, FIDE ID,
federation, sex, birth year, rating)."""


def reported_players(ledger: Ledger) -> list[int]:
    """The `REPORTED` players in the ledger; their IDs."""
    return [
        player(ledger, name, rating=rating, fide_id=fide, federation=fed, sex=sex, birth_year=born)
        for name, fide, fed, sex, born, rating in REPORTED
    ]


def spring_open(
    *, fixed: bool = False, event: str = "Spring Open", end: str = "2026-03-29"
) -> bytes:
    """A TRF of the `REPORTED` four and a new player, Elder, Ed, in four rounds ending on
    `end`: one error (line 8, Clark's birth year given as 1980, unless `fixed`) and one
    warning (line 10, the new player born in 1920)."""
    players = [
        entrant(name, fide, federation=fed, sex=sex, birth_year=born)
        for name, fide, fed, sex, born, _ in REPORTED
    ]
    if not fixed:
        players[2] = {**players[2], "birth_year": 1980}
    players.append(entrant("Elder, Ed", birth_year=1920))
    games = [
        (1, 1, 2, "1/2-1/2"), (1, 3, 4, "1/2-1/2"),
        (2, 2, 3, "1/2-1/2"), (2, 4, 5, "1-0"),
        (3, 1, 3, "1-0"), (4, 5, 1, "0-1"),
    ]  # fmt: skip
    return trf_report(event, end, players, games)
