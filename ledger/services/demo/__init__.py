"""A demo ledger that shows what the ledger is: five months of a federation's rating work,
each step through the service its command calls, logged as the "Demo rating officer".

- 300 players with starting ratings from an earlier list, 30 newcomers without, and a rapid
  club of 40 rated in rapid alone;
- each month events are played and the month is closed: five lists, with movement. Month 1
  has a grandmasters' round robin and a 121-player open, month 2 a junior championship,
  month 3 a weekend congress imported from its arbiter's TRF report (with byes), month 4 a
  city open, month 5 a masters' round robin and a federation open;
- a newcomer plays three club games in month 2 and three in month 3, and is first rated on
  month 3's list from the six games pooled (8.2);
- a transfer: a titled player's federation changes after month 2's list (`edit-player`),
  carried from the next list;
- a correction, with its reason, of a game of month 4: months 4 and 5 are re-rated, and
  their lists have a second version;
- a rapid list: the rapid club's opens of months 4 and 5, each closed;
- the site's accounts, a demo officer's and a demo organiser's, and the organiser's report of
  a club evening this month, submitted: it waits in the officer's queue (`reports`).

Results are drawn at random (seeded) from FIDE's expected scores.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from ledger.core.domain import GameResult, Period, Pool
from ledger.core.errors import Conflict
from ledger.core.records import NewGame, NewPlayer, new_game, new_player
from ledger.formats import trf
from ledger.services.activity import Author
from ledger.services.closing import ClosedPeriod, close_period
from ledger.services.corrections import correct_game
from ledger.services.demo import field
from ledger.services.demo.field import Entrant, Event
from ledger.services.demo.reports import DEMO_OFFICER, DEMO_ORGANISER, add_demo_site
from ledger.services.edits import PlayerEdit, edit_player
from ledger.services.games import add_games
from ledger.services.players import add_players
from ledger.services.tournaments import import_trf
from ledger.storage.database import Ledger, open_ledger, shown_url
from ledger.storage.models import Event as StoredEvent
from ledger.storage.models import Game, Player

DEMO_URL = "sqlite:///ledger-demo.db"
SEED = 2026
MONTHS = 5
OFFICER = Author("Demo rating officer")
TRANSFER = Author(OFFICER.operator, "transfer registered by FIDE")
CORRECTION = Author(OFFICER.operator, "arbiter's report: the game was drawn, not won")
NEWCOMER = "Okafor, Nneka"
CONGRESS = "Weekend Congress"
CORRECTED_EVENT = "City Open"
TRANSFERRED = 11
"""The roster's player whose federation changes: a titled one."""
NOON = dt.time(12)


@dataclass(frozen=True, slots=True)
class DemoSummary:
    closed: ClosedPeriod
    next_steps: str


@dataclass(frozen=True, slots=True)
class _Cast:
    """The demo's players as it pairs them: the roster, the newcomer, the rapid club."""

    roster: list[Entrant]
    newcomer: Entrant
    rapid_club: list[Entrant]


def build_demo(url: str, pool: Pool, *, replace: bool, now: dt.datetime) -> DemoSummary:
    """Fill an empty database at `url` with the demo: five months of `pool` closed, the last
    being last month, and two months of a second pool (rapid, or blitz for a rapid demo)."""
    if replace:
        _remove_sqlite_file(url)
    months = [Period.of(now.date()) - back for back in range(MONTHS, 0, -1)]
    randomness = random.Random(SEED)
    ledger = open_ledger(url)
    try:
        cast = _cast(ledger, url, pool, randomness, months[0], now.date())
        for index, period in enumerate(months):
            _play(ledger, pool, randomness, cast, index, period, now)
            closed = _close(ledger, pool, period, now)
            if index == 1:
                moment = dt.datetime.combine(_day(period + 1, 5), NOON)
                _transfer(ledger, cast.roster[TRANSFERRED], moment)
        _correct(ledger, pool, months[3], now)
        _rapid_months(ledger, pool, randomness, cast, months[-2:], now)
        with ledger.transaction() as session:
            report = add_demo_site(session, pool, randomness, cast.roster, now, OFFICER)
        suggested = _suggested_game(ledger, pool, months[-1])
    finally:
        ledger.dispose()
    steps = _next_steps(url, months, cast.newcomer.id, suggested) + "\n" + _sign_in(report)
    return DemoSummary(closed, steps)


def _remove_sqlite_file(url: str) -> None:
    database = make_url(url).database
    if database:
        for suffix in ("", "-wal", "-shm"):
            Path(database + suffix).unlink(missing_ok=True)


def _cast(
    ledger: Ledger, url: str, pool: Pool, randomness: random.Random, first: Period, today: dt.date
) -> _Cast:
    """Record the players, in `pool` and in the second pool's rapid club."""
    roster = field.roster(randomness, first, today)
    newcomer = new_player(
        name=NEWCOMER, federation="ENG", sex="F", birth_year=first.year - 15, today=today
    )
    club = field.rapid_club(randomness, first, today)
    with ledger.transaction() as session:
        if session.scalar(select(func.count()).select_from(Player)):
            raise Conflict(
                f"the demo needs an empty database; {shown_url(url)} already holds a ledger."
            )
        ids = add_players(session, pool, [*roster, newcomer])
        club_ids = add_players(session, _second_pool(pool), club)
    return _Cast(
        roster=_entrants(ids[:-1], roster),
        newcomer=Entrant(ids[-1], None, newcomer),
        rapid_club=_entrants(club_ids, club),
    )


def _entrants(ids: list[int], players: list[NewPlayer]) -> list[Entrant]:
    return [
        Entrant(each, player.starting.rating if player.starting else None, player)
        for each, player in zip(ids, players, strict=True)
    ]


def _second_pool(pool: Pool) -> Pool:
    return Pool.BLITZ if pool is Pool.RAPID else Pool.RAPID


def _play(
    ledger: Ledger,
    pool: Pool,
    randomness: random.Random,
    cast: _Cast,
    index: int,
    period: Period,
    now: dt.datetime,
) -> None:
    """Record month `index`'s events: their games, or the congress's report."""
    roster, today = cast.roster, now.date()
    with ledger.transaction() as session:
        games = [
            game
            for event in _events(randomness, roster, index, period)
            for game in field.games(randomness, event, today)
        ]
        if index in (1, 2):
            games += _club_evenings(cast, index, period, today)
        add_games(session, pool, games)
        if index == 2:
            _import_congress(session, pool, randomness, roster, period)


def _events(
    randomness: random.Random, roster: list[Entrant], index: int, period: Period
) -> list[Event]:
    """The events played in month `index` (the congress, imported, aside)."""
    match index:
        case 0:
            return [
                Event("Grandmasters Round Robin", _day(period, 3), roster[:10], None),
                Event("Autumn Open", _day(period, 11), randomness.sample(roster[10:], 120), 9),
            ]
        case 1:
            by_rating = sorted(roster, key=lambda entrant: entrant.rating or 0)
            return [Event("Junior Championship", _day(period, 18), by_rating[40:80], 7)]
        case 3:
            rated = roster[field.TITLED : field.RATED]
            return [Event(CORRECTED_EVENT, _day(period, 8), randomness.sample(rated, 100), 7)]
        case 4:
            return [
                Event("Masters Round Robin", _day(period, 3), roster[:10], None),
                Event("Federation Open", _day(period, 14), randomness.sample(roster[10:], 80), 5),
            ]
    return []


def _day(period: Period, day: int) -> dt.date:
    return dt.date(period.year, period.month, day)


def _club_evenings(cast: _Cast, index: int, period: Period, today: dt.date) -> list[NewGame]:
    """The newcomer's three club games of a month against rated club players: half the
    points in each month's."""
    opponents = cast.roster[100 + 3 * index : 103 + 3 * index]
    results = (GameResult.BLACK_WINS, GameResult.DRAW, GameResult.WHITE_WINS)
    name = f"Club Evenings {_day(period, 1):%b %Y}"
    return [
        new_game(
            date=_day(period, 7 * week + 5),
            white=cast.newcomer.id,
            black=opponent.id,
            result=outcome,
            event=name,
            round=week + 1,
            today=today,
        )
        for week, (opponent, outcome) in enumerate(zip(opponents, results, strict=True))
    ]


def _import_congress(
    session: Session, pool: Pool, randomness: random.Random, roster: list[Entrant], period: Period
) -> None:
    """The weekend congress, 81 players over five rounds, from its arbiter's TRF report:
    the odd one out unpaired in each round, two half-point byes in the last."""
    congress = Event(CONGRESS, _day(period, 23), randomness.sample(roster, 81), 5)
    report = field.tournament_report(randomness, congress, {5: 2})
    content = trf.write_trf(report).encode()
    moment = dt.datetime.combine(_day(period, 27), NOON)
    import_trf(session, pool, "weekend-congress.trf", content, moment, author=OFFICER)


def _close(ledger: Ledger, pool: Pool, period: Period, now: dt.datetime) -> ClosedPeriod:
    """Close `period` as an officer would, on the 3rd of the next month (or now, if sooner)."""
    with ledger.transaction() as session:
        return close_period(session, pool, period, _closing_moment(period, now), OFFICER)


def _closing_moment(period: Period, now: dt.datetime) -> dt.datetime:
    return min(dt.datetime.combine(_day(period + 1, 3), dt.time(10)), now)


def _transfer(ledger: Ledger, entrant: Entrant, moment: dt.datetime) -> None:
    """The player's federation changes, carried from the next list."""
    moved_to = next(each for each in ("ENG", "NOR") if each != entrant.player.federation)
    with ledger.transaction() as session:
        edit_player(session, entrant.id, PlayerEdit(federation=moved_to), moment, TRANSFER)


def _correct(ledger: Ledger, pool: Pool, period: Period, now: dt.datetime) -> None:
    """The arbiter reports that a decisive game of the city open was drawn."""
    with ledger.transaction() as session:
        game_id = session.scalar(
            select(func.min(Game.id))
            .join(StoredEvent, StoredEvent.id == Game.event_id)
            .where(
                StoredEvent.pool == pool,
                StoredEvent.name == CORRECTED_EVENT,
                Game.result.in_((GameResult.WHITE_WINS, GameResult.BLACK_WINS)),
            )
        )
        assert game_id is not None
        correct_game(session, game_id, GameResult.DRAW, now, CORRECTION)


def _rapid_months(
    ledger: Ledger,
    pool: Pool,
    randomness: random.Random,
    cast: _Cast,
    months: list[Period],
    now: dt.datetime,
) -> None:
    """The rapid club's open of each month, seven rounds over four days, each closed."""
    second = _second_pool(pool)
    for period in months:
        event = Event(f"Rapid Open {_day(period, 1):%b %Y}", _day(period, 20), cast.rapid_club, 7)
        with ledger.transaction() as session:
            add_games(session, second, field.games(randomness, event, now.date()))
        _close(ledger, second, period, now)


def _suggested_game(ledger: Ledger, pool: Pool, period: Period) -> int:
    """A game of the last month that `correct-game --result 0-1` changes: not won by Black."""
    with ledger.reading() as session:
        game_id = session.scalar(
            select(func.min(Game.id)).where(
                Game.pool == pool,
                Game.period == period,
                Game.result.in_((GameResult.WHITE_WINS, GameResult.DRAW)),
            )
        )
    assert game_id is not None
    return game_id


def _next_steps(url: str, months: list[Period], newcomer: int, game: int) -> str:
    demo = f" --db {shown_url(url)}"
    last = months[-1]
    return "\n".join(
        (
            f"This demo ledger is {shown_url(url)}: {MONTHS} months, {months[0]} to {last}. "
            "Try next:",
            f"  ledger list{demo} --top 20",
            f"  ledger explain {newcomer}{demo} --period {months[2]}    (a first rating)",
            f"  ledger log{demo}",
            f"  ledger add-game{demo} --white 1 --black 2 --result 1/2-1/2 --date {last + 1}-01",
            f"  ledger correct-game {game}{demo} --result 0-1 --reason 'arbiter report'",
            f"  ledger diff{demo} --period {last}",
            "Your own ledger is sqlite:///ledger.db (or --db, or LEDGER_DATABASE_URL).",
            f"See the demo in a browser: ledger serve{demo}, then open http://127.0.0.1:8000/",
        )
    )


def _sign_in(report: int) -> str:
    """The demo accounts' sign-in, for trying the site's reports in a browser."""
    return "\n".join(
        (
            "Sign in at http://127.0.0.1:8000/sign-in (demo accounts: these passwords are "
            "for this demo alone):",
            *(
                f"  {each.role:<9}  {each.email:<24}  password: {each.password}"
                for each in (DEMO_OFFICER, DEMO_ORGANISER)
            ),
            f"Report {report} waits in the officer's queue: http://127.0.0.1:8000/desk/queue",
        )
    )
