"""The ledger's data in the federations' formats: a published list as FIDE list rows, an event
as a tournament report. Read side: queries only, never a commit; the format modules
(`ledger.formats.fide_list`, `ledger.formats.trf`) turn these records into text.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from typing import Any, NamedTuple

from sqlalchemy import CompoundSelect, func, select, union
from sqlalchemy.orm import Session

from ledger.core import cadence, rules
from ledger.core.domain import Period, Pool
from ledger.core.errors import InvalidInput, NotFound
from ledger.core.progress import NO_PROGRESS, Progress, Stage, counted
from ledger.formats import fide_list as fide_lists
from ledger.formats import trf
from ledger.formats.fide_list import UNRATED, FideListRow, PoolRating
from ledger.queries.entrants import EventEntrant, event_entrants
from ledger.queries.lists.in_force import published_period
from ledger.queries.lists.rows import period_figures
from ledger.queries.lists.sql import list_statement
from ledger.queries.overviews import unknown_event
from ledger.storage.batches import AnySelect, Values, driver_rows
from ledger.storage.interpreter import collector_paused
from ledger.storage.models import Bye, Event, Game, Player, stored_period
from ledger.storage.periods import is_closed, newest_closed_period


def fide_list_file(
    session: Session,
    pools: Sequence[Pool],
    period: Period | None,
    *,
    xml: bool,
    progress: Progress = NO_PROGRESS,
    ledger_ids: bool = False,
) -> Iterator[str]:
    """The lists of `period` in FIDE's TXT or XML layout, chunk by chunk: the combined file
    for the three pools, else the single-pool file. FIDE's files list players by FIDE ID;
    with `ledger_ids` the ID column holds the ledger's IDs instead, and every player is in
    it (a national list in FIDE's layout)."""
    period, rows = fide_list_rows(session, pools, period, progress, ledger_ids=ledger_ids)
    if xml:
        return fide_lists.write_fide_xml(rows, tuple(pools))
    return fide_lists.write_fide_txt(rows, tuple(pools), fide_lists.list_month(period))


def fide_list_rows(
    session: Session,
    pools: Sequence[Pool],
    period: Period | None,
    progress: Progress = NO_PROGRESS,
    *,
    ledger_ids: bool = False,
) -> tuple[Period, Iterator[FideListRow]]:
    """The lists in force at `period` (default: the first pool's newest) as FIDE's rows,
    ordered by name as FIDE's files are, streamed: every player with a FIDE ID, rated or not
    in a combined file, those rated in the pool in a single-pool one; with `ledger_ids`,
    every player, under their ledger ID.

    The flag is that of the first pool that lists the player (`w` alone for one on no list).

    The players and each pool's list stream side by side in the file's order, as plain
    tuples, and each player takes their row of each list as it comes (`_ListRows`): no list
    is held. Joined to the players in SQL, SQLite built an index of each list and searched
    the three for every player, and the rows came through SQLAlchemy's processing.
    """
    period, _ = published_period(session, pools[0], period)
    counted = _rows_counted(session, pools, ledger_ids=ledger_ids)
    stage = progress.stage(f"Writing the list of {period}", counted)
    written, order = (
        (Player.id.is_not(None), (Player.sort_name, Player.id))
        if ledger_ids
        else (Player.fide_id.is_not(None), (Player.sort_name, Player.fide_id))
    )
    lists = [
        _ListRows(session, pool, in_force, _in_file_order(statement, written, order))
        for pool, (in_force, statement) in _in_force(session, pools, period).items()
    ]
    shown = (Player.id, Player.id) if ledger_ids else (Player.id, Player.fide_id)
    players = select(*shown, *_IDENTITY[2:]).where(written).order_by(*order)
    rows = chain.from_iterable(driver_rows(session, players))
    return period, _fide_rows(rows, pools, lists, stage)


class _Listed(NamedTuple):
    """What a player's row shows of one pool's list: its rating, games and K, the list's
    flag, and the federation and title it shows."""

    rating: PoolRating
    flag: str
    federation: str | None
    title: str | None


def _in_file_order(
    statement: AnySelect | CompoundSelect[*tuple[Any, ...]], written: Any, order: Any
) -> AnySelect:
    """The rows of a pool's list (`list_statement`) of the players `written`, in the file's
    `order`: ID, sex, birth year and `_STANDING`."""
    listed = statement.subquery()
    return (
        select(listed.c.id, listed.c.sex, listed.c.birth_year, *listed.c[_STANDING])
        .join(Player, Player.id == listed.c.id)
        .where(written)
        .order_by(*order)
    )


class _ListRows:
    """One pool's list in force, read in the file's order beside its players: what each
    row shows (`_Listed`), taken by its player as the file reaches them, each rating,
    games and K held once (a list has a few thousand of them)."""

    def __init__(
        self,
        session: Session,
        pool: Pool,
        period: Period,
        players: AnySelect,
    ) -> None:
        self.pool = pool
        self.period = period
        self.following = period + 1
        self._ratings: dict[PoolRating, PoolRating] = {}
        self._rows = chain.from_iterable(driver_rows(session, players))
        self._next = next(self._rows, None)

    def take(self, player_id: int) -> _Listed | None:
        """The player's row, if the list holds them: the next row, read in the players'
        order."""
        row = self._next
        if row is None or row[_PLAYER_ID] != player_id:
            return None
        self._next = next(self._rows, None)
        _, sex, birth_year, *values = row
        return self._listed(sex, birth_year, values)

    def _listed(self, sex: str | None, birth_year: int | None, values: list[Any]) -> _Listed:
        rating, games_completed, ever_2400, peak, last_active, period, *figures = values
        standing = _Standing(
            birth_year,
            rating,
            games_completed,
            bool(ever_2400),
            peak,
            stored_period(last_active),
            stored_period(period),
            *figures,
        )
        in_period = period_figures(standing, self.period, self.following)
        shown = PoolRating(rating, in_period.games, in_period.k)
        return _Listed(
            self._ratings.setdefault(shown, shown),
            rules.list_flag(woman=sex == "F", last_active=standing.last_active, period=self.period),
            standing.federation,
            standing.title,
        )


def _fide_rows(
    rows: Iterable[Values], pools: Sequence[Pool], lists: Sequence[_ListRows], stage: Stage
) -> Iterator[FideListRow]:
    """Each player's row (`_fide_row`) with their rows of the pools' lists, counted as it
    is written, with Python's cycle collector paused while they stream
    (`storage.interpreter.collector_paused`): each row makes several objects and no cycle,
    and the collector's passes over them took about a quarter of a file's time. A
    single-pool file skips the players its list does not hold."""
    with collector_paused():
        yield from counted(_written_rows(rows, pools, lists), stage)


def _written_rows(
    rows: Iterable[Values], pools: Sequence[Pool], lists: Sequence[_ListRows]
) -> Iterator[FideListRow]:
    single = len(pools) == 1
    for row in rows:
        listed = [(pool_list.pool, pool_list.take(row[_PLAYER_ID])) for pool_list in lists]
        if single and (not listed or listed[0][1] is None):
            continue
        yield _fide_row(row, pools, listed)


def _rows_counted(session: Session, pools: Sequence[Pool], *, ledger_ids: bool) -> int | None:
    """The rows of a combined file, every player with a FIDE ID (a count on an index), or
    every player; None for a single-pool file, whose count would cost a good part of
    writing it."""
    if len(pools) == 1:
        return None
    if ledger_ids:
        return session.scalar(select(func.count()).select_from(Player))
    return session.scalar(select(func.count()).where(Player.fide_id.is_not(None)))


def fide_list_left_out(session: Session, pools: Sequence[Pool], period: Period | None) -> int:
    """How many players a FIDE file of the lists of `period` (as `fide_list_rows` reads
    them) leaves out for want of a FIDE ID, FIDE's layout listing players by it: of a
    combined file every such player, rated or not, as the file with the ledger's IDs holds
    them all; of a single pool's, those its list rates."""
    without_id = select(func.count()).select_from(Player).where(Player.fide_id.is_(None))
    if len(pools) > 1:
        return session.scalar(without_id) or 0
    period, _ = published_period(session, pools[0], period)
    listed = [
        select(statement.subquery().c.id)
        for _, statement in _in_force(session, pools, period).values()
    ]
    if not listed:
        return 0
    return session.scalar(without_id.where(Player.id.in_(union(*listed)))) or 0


_PLAYER_ID = 0
"""The place of the player's ledger ID in a row of `_IDENTITY`."""
_IDENTITY = (
    Player.id,
    Player.fide_id,
    Player.name,
    Player.federation,
    Player.sex,
    Player.title,
    Player.women_title,
    Player.other_titles,
    Player.foa_title,
    Player.birth_year,
)
_STANDING = (
    "rating",
    "games_completed",
    "ever_2400",
    "peak",
    "last_active",
    "period",
    "change",
    "games",
    "k_next",
    "k_applied",
    "federation",
    "title",
)


class _Standing(NamedTuple):
    """A player's row on one pool's list, as `period_figures` reads it (a named
    tuple: a file makes one for each rated player of each pool)."""

    birth_year: int | None
    rating: int
    games_completed: int
    ever_2400: bool
    peak: int
    last_active: Period | None
    period: Period | None
    """The period of the list row the figures come from: another (or None, no row) where
    the player has none in the list's period."""
    change: int | None
    games: int
    k_next: int | None
    k_applied: int | None
    federation: str | None
    title: str | None


def _in_force(
    session: Session, pools: Sequence[Pool], period: Period
) -> dict[Pool, tuple[Period, AnySelect | CompoundSelect[*tuple[Any, ...]]]]:
    """Each pool's list in force at `period` (its newest published up to it), where there
    is one: the list's period and its statement."""
    first_day_after = dt.date((period + 1).year, (period + 1).month, 1)
    lists = {}
    for pool in pools:
        try:
            in_force, is_newest = published_period(session, pool, as_of=first_day_after)
        except NotFound:
            continue
        lists[pool] = (in_force, list_statement(pool, in_force, is_newest=is_newest))
    return lists


def _fide_row(
    row: Values, pools: Sequence[Pool], listed: Sequence[tuple[Pool, _Listed | None]]
) -> FideListRow:
    """A player's row (`_IDENTITY`, as the driver gives it): their standing on each pool's
    list that holds them (`listed`; unrated in the others). The flag, federation and title
    are those of the first pool that lists the player (as recorded for one on no list, `w`
    alone for a woman)."""
    (_, fide_id, name, federation, sex, title, women, others, foa, birth_year) = row
    ratings = dict.fromkeys(pools, UNRATED)
    first: _Listed | None = None
    for pool, on_list in listed:
        if on_list is not None:
            ratings[pool] = on_list.rating
            first = first or on_list
    if first is None:
        flag = "w" if sex == "F" else ""
    else:
        flag, federation, title = first.flag, first.federation, first.title
    return FideListRow(
        fide_id=fide_id,
        name=name,
        federation=federation,
        sex=sex,
        title=title,
        women_title=women,
        other_titles=others,
        foa_title=foa,
        ratings=ratings,
        birth_year=birth_year,
        flag=flag,
        line=0,
    )


def tournament_report(session: Session, pool: Pool, name: str) -> trf.TournamentReport:
    """The event `name` of `pool` as the tournament report it was rated from: its players
    by their starting numbers (the report's own, where it was imported from one; else by
    rating), each with the rating the event is rated with and the report's rank, its games
    (a forfeit reported without colours written without them), its byes, and the records
    its report kept. The same report whatever the day it is written (`queries.entrants`)."""
    event = session.scalars(select(Event).where(Event.pool == pool, Event.name == name)).first()
    if event is None:
        raise unknown_event(session, pool, name)
    games = session.scalars(select(Game).where(Game.event_id == event.id)).all()
    byes = session.scalars(select(Bye).where(Bye.event_id == event.id)).all()
    _refuse_what_a_report_cannot_hold(name, games, byes)
    period = cadence.list_period(pool, Period.of(event.end_date))
    rated = is_closed(period, newest_closed_period(session, pool))
    entrants = event_entrants(session, pool, event.id, period, rated=rated)
    numbers = {entrant.id: entrant.number for entrant in entrants}
    round_dates = _round_dates(games, byes)
    records = tuple(event.report_records.split("\n")) if event.report_records else ()
    return trf.TournamentReport(
        event=trf.TrfEvent(
            event.name,
            event.city,
            event.federation,
            event.start_date,
            event.end_date,
            round_dates,
            records,
        ),
        players=[_trf_player(entrant) for entrant in entrants],
        games=[
            _trf_game(game, numbers)
            for game in sorted(games, key=lambda game: (game.round, numbers[game.white_id]))
        ],
        byes=[
            trf.TrfBye(
                bye.round,
                numbers[bye.player_id],
                trf.BYE_CODES[bye.kind],
                round_dates[bye.round - 1] or event.end_date,
                0,
            )
            for bye in sorted(byes, key=lambda bye: (bye.round, numbers[bye.player_id]))
        ],
    )


def _trf_player(entrant: EventEntrant) -> trf.TrfPlayer:
    return trf.TrfPlayer(
        rank=entrant.number,
        sex=entrant.sex,
        title=entrant.title,
        name=entrant.name,
        rating=entrant.rating,
        federation=entrant.federation,
        fide_id=entrant.fide_id,
        birth_year=entrant.birth_year,
        line=0,
        place=entrant.rank,
        points=entrant.points,
    )


def _refuse_what_a_report_cannot_hold(
    name: str, games: Sequence[Game], byes: Sequence[Bye]
) -> None:
    """A report has one block per player and round: every game needs a round, and no
    player may have two games (or a game and a bye) in one round."""
    unnumbered = [game.id for game in games if game.round is None]
    if unnumbered:
        raise InvalidInput(
            f"event {name!r}: game {unnumbered[0]} has no round number; a tournament report "
            "needs every game's round."
        )
    seen: set[tuple[int | None, int]] = set()
    for round_, player in [
        *((g.round, p) for g in games for p in (g.white_id, g.black_id)),
        *((b.round, b.player_id) for b in byes),
    ]:
        if (round_, player) in seen:
            raise InvalidInput(
                f"event {name!r}: player {player} has two games in round {round_}; a "
                "tournament report holds one per player and round."
            )
        seen.add((round_, player))


def _round_dates(games: Sequence[Game], byes: Sequence[Bye]) -> tuple[dt.date | None, ...]:
    """Each round's date: the earliest of its games."""
    rounds = max([g.round or 0 for g in games] + [b.round for b in byes], default=0)
    dates: list[dt.date | None] = [None] * rounds
    for game in games:
        assert game.round is not None
        current = dates[game.round - 1]
        dates[game.round - 1] = game.date if current is None else min(current, game.date)
    return tuple(dates)


def _trf_game(game: Game, numbers: dict[int, int]) -> trf.TrfGame:
    assert game.round is not None
    return trf.TrfGame(
        round=game.round,
        white=numbers[game.white_id],
        black=numbers[game.black_id],
        result=game.result,
        rated=game.rated and game.result.is_played,
        date=game.date,
        lines=(0, 0),
        colours=game.colours,
    )
