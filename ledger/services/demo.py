"""A realistic demo ledger: a federation's players and a month of games from several events.

Everything goes through the same services as real data: players with starting ratings
from an earlier list (and some newcomers), games from round robins and Swiss events, then
the period is closed. Results are drawn at random (seeded) from the FIDE expected scores.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from ledger.core import rules
from ledger.core.domain import GameResult, Period, Pool
from ledger.core.errors import Conflict
from ledger.core.records import NewGame, NewPlayer, new_game, new_player
from ledger.services.closing import ClosedPeriod, close_period
from ledger.services.games import add_games
from ledger.services.players import add_players
from ledger.storage.database import open_ledger, shown_url
from ledger.storage.models import Player

DEMO_URL = "sqlite:///ledger-demo.db"
SEED = 2026

# fmt: off
_GIVEN = (
    "Anna", "Boris", "Carla", "Daniel", "Elena", "Farid", "Greta", "Hugo", "Irina", "Jonas",
    "Kateryna", "Liam", "Maria", "Nikolai", "Olga", "Pablo", "Quentin", "Rosa", "Stefan",
    "Tatiana", "Umar", "Vera", "Wei", "Ximena", "Yusuf", "Zofia", "Arjun", "Bianca", "Chen",
    "Dmitri", "Emil", "Freya", "Gukesh", "Hanna", "Ivan", "Julia", "Kamil", "Lucia", "Magnus",
    "Nodira",
)
_SURNAMES = (
    "Andersen", "Bauer", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Horvath", "Ivanova",
    "Jensen", "Kowalski", "Lopez", "Müller", "Novak", "Olsen", "Petrov", "Quispe", "Rossi",
    "Schmidt", "Tanaka", "Usmanov", "Virtanen", "Wagner", "Xu", "Yilmaz", "Zhang", "Abdullayev",
    "Berg", "Carvalho", "Dvořák", "Esposito", "Fernández", "Gupta", "Hansen", "Iyer", "Janssen",
    "Kumar", "Larsen", "Moreau", "Nakamura",
)
_FEDERATIONS = (
    "NOR", "ENG", "FRA", "GER", "ESP", "ITA", "NED", "POL", "IND", "USA", "CZE", "HUN", "UZB",
    "CHN",
)
# fmt: on


@dataclass(frozen=True, slots=True)
class DemoSummary:
    closed: ClosedPeriod
    next_steps: str


@dataclass(frozen=True, slots=True)
class _Entrant:
    id: int
    rating: int | None


def build_demo(url: str, pool: Pool, *, replace: bool, now: dt.datetime) -> DemoSummary:
    """Fill an empty database at `url` with the demo and close its period (last month)."""
    if replace:
        _remove_sqlite_file(url)
    period = Period.of(now.date()) - 1
    randomness = random.Random(SEED)
    ledger = open_ledger(url)
    try:
        with ledger.transaction() as session:
            if session.scalar(select(func.count()).select_from(Player)):
                raise Conflict(
                    f"the demo needs an empty database; {shown_url(url)} already holds a ledger."
                )
            roster = _players(randomness, period, now.date())
            ids = add_players(session, pool, roster)
            entrants = [
                _Entrant(i, p.starting.rating if p.starting else None)
                for i, p in zip(ids, roster, strict=True)
            ]
            games = _month_of_games(randomness, period, entrants, now.date())
            add_games(session, pool, games)
        with ledger.transaction() as session:
            closed = close_period(session, pool, period, now)
    finally:
        ledger.dispose()
    return DemoSummary(closed, _next_steps(url, period))


def _remove_sqlite_file(url: str) -> None:
    database = make_url(url).database
    if database:
        for suffix in ("", "-wal", "-shm"):
            Path(database + suffix).unlink(missing_ok=True)


def _players(randomness: random.Random, period: Period, today: dt.date) -> list[NewPlayer]:
    """300 players: a few elite grandmasters, titled players, club players, juniors, newcomers."""
    roster = []
    for number in range(300):
        rating = _starting_rating(randomness, number)
        titled = number < 40
        junior = not titled and randomness.random() < 0.3
        birth_year = period.year - (
            randomness.randint(10, 18) if junior else randomness.randint(19, 70)
        )
        roster.append(
            new_player(
                name=f"{randomness.choice(_SURNAMES)}, {randomness.choice(_GIVEN)}",
                federation=randomness.choice(_FEDERATIONS),
                sex="F" if randomness.random() < 0.2 else "M",
                title=_title(rating),
                birth_year=birth_year,
                rating=rating,
                games=None if rating is None else _games_completed(randomness, titled),
                peak=None if rating is None else rating + randomness.choice((0, 0, 15, 60)),
                today=today,
            )
        )
    return roster


def _starting_rating(randomness: random.Random, number: int) -> int | None:
    if number < 8:
        return randomness.randint(2650, 2830)
    if number < 40:
        return randomness.randint(2300, 2640)
    if number < 270:
        return max(1400, min(2290, round(randomness.gauss(1850, 230))))
    return None


def _games_completed(randomness: random.Random, titled: bool) -> int:
    if titled:
        return randomness.randint(300, 1500)
    return randomness.choice((0, 8, 15, 25, 40, 120, 400))


def _title(rating: int | None) -> str | None:
    for floor, title in ((2500, "GM"), (2400, "IM"), (2300, "FM")):
        if rating is not None and rating >= floor:
            return title
    return None


def _month_of_games(
    randomness: random.Random, period: Period, entrants: list[_Entrant], today: dt.date
) -> list[NewGame]:
    start = dt.date(period.year, period.month, 1)
    elite = entrants[:10]
    by_rating = sorted(entrants, key=lambda e: e.rating or 0)
    events = (
        ("Grandmasters Round Robin", start + dt.timedelta(days=2), elite, None),
        ("Autumn Open", start + dt.timedelta(days=10), randomness.sample(entrants[10:], 121), 9),
        ("Junior Championship", start + dt.timedelta(days=18), by_rating[40:80], 7),
        ("Weekend Congress", start + dt.timedelta(days=23), randomness.sample(entrants, 80), 5),
    )
    games = []
    for name, first_day, field, rounds in events:
        pairings = _round_robin(field) if rounds is None else _swiss(randomness, field, rounds)
        for round_number, pairs in enumerate(pairings, start=1):
            day = first_day + dt.timedelta(days=(round_number - 1) // 2)
            games += [
                new_game(
                    date=day,
                    white=white.id,
                    black=black.id,
                    result=_result(randomness, white, black),
                    event=name,
                    round=round_number,
                    today=today,
                )
                for white, black in pairs
            ]
    return games


def _round_robin(field: list[_Entrant]) -> list[list[tuple[_Entrant, _Entrant]]]:
    """The circle method: every player meets every other once, colours alternating."""
    players = list(field)
    rounds = []
    for number in range(len(players) - 1):
        pairs = [(players[i], players[-1 - i]) for i in range(len(players) // 2)]
        rounds.append([(b, a) if number % 2 else (a, b) for a, b in pairs])
        players.insert(1, players.pop())
    return rounds


def _swiss(
    randomness: random.Random, field: list[_Entrant], rounds: int
) -> list[list[tuple[_Entrant, _Entrant]]]:
    """A rough Swiss: each round pairs neighbours in a shuffled rating order (one bye if odd)."""
    pairings = []
    for _ in range(rounds):
        order = sorted(field, key=lambda e: (e.rating or 1500) + randomness.randint(-150, 150))
        pairs = list(zip(order[0::2], order[1::2], strict=False))
        pairings.append([(a, b) if randomness.random() < 0.5 else (b, a) for a, b in pairs])
    return pairings


def _result(randomness: random.Random, white: _Entrant, black: _Entrant) -> GameResult:
    if randomness.random() < 0.01:
        return GameResult.WHITE_WINS_BY_FORFEIT
    expected = rules.expected_score((white.rating or 1500) - (black.rating or 1500)) / 100
    draw = 0.3
    roll = randomness.random()
    if roll < expected - draw / 2:
        return GameResult.WHITE_WINS
    if roll < expected + draw / 2:
        return GameResult.DRAW
    return GameResult.BLACK_WINS


def _next_steps(url: str, period: Period) -> str:
    demo = f" --db {shown_url(url)}"
    return "\n".join(
        (
            f"This demo ledger is {shown_url(url)}. Try next:",
            f"  ledger list{demo} --top 20",
            f"  ledger list{demo} --format json --top 3",
            f"  ledger add-game{demo} --white 1 --black 2 --result 1/2-1/2 --date {period + 1}-01",
            f"  ledger close-period {period + 1}{demo}    (once {period + 1} has ended)",
            f"  ledger correct-game 1{demo} --result 0-1 --reason 'arbiter report'",
            f"  ledger diff{demo} --period {period}",
            "Your own ledger is sqlite:///ledger.db (or --db, or LEDGER_DATABASE_URL).",
            f"See the demo in a browser: ledger serve{demo}, then open http://127.0.0.1:8000/",
        )
    )
