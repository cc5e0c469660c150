"""The ledger's data in the federations' formats: a published list as FIDE list rows, an event
as a tournament report. Read side: queries only, never a commit; the format modules
(`ledger.formats.fide_list`, `ledger.formats.trf`) turn these records into text.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import CompoundSelect, func, select
from sqlalchemy.orm import Session

from ledger.core import rules
from ledger.core.domain import Period, Pool
from ledger.core.errors import InvalidInput, NotFound
from ledger.core.progress import NO_PROGRESS, Progress, counted
from ledger.formats import fide_list as fide_lists
from ledger.formats import trf
from ledger.formats.fide_list import FideListRow, PoolRating
from ledger.queries import lists as queries
from ledger.queries.overviews import unknown_event
from ledger.storage.batches import BATCH_SIZE, AnyRow, AnySelect, collector_paused, select_in
from ledger.storage.models import Bye, Event, Game, Player, PlayerRating


def fide_list_file(
    session: Session,
    pools: Sequence[Pool],
    period: Period | None,
    xml: bool,
    progress: Progress = NO_PROGRESS,
) -> Iterator[str]:
    """The lists of `period` in FIDE's TXT or XML layout, chunk by chunk: the combined file
    for the three pools, else the single-pool file."""
    period, rows = fide_list_rows(session, pools, period, progress)
    if xml:
        return fide_lists.write_fide_xml(rows, tuple(pools))
    return fide_lists.write_fide_txt(rows, tuple(pools), fide_lists.list_month(period))


def fide_list_rows(
    session: Session, pools: Sequence[Pool], period: Period | None, progress: Progress = NO_PROGRESS
) -> tuple[Period, Iterator[FideListRow]]:
    """The lists in force at `period` (default: the first pool's newest) as FIDE's rows,
    ordered by name as FIDE's files are, streamed: every player with a FIDE ID, rated or not
    in a combined file, those rated in the pool in a single-pool one.

    The flag is that of the first pool that lists the player (`w` alone for one on no list).
    """
    period, _ = queries.published_period(session, pools[0], period)
    statement: AnySelect = (
        select(*_IDENTITY)
        .where(Player.fide_id.is_not(None))
        .order_by(Player.sort_name, Player.fide_id)
    )
    starts: dict[Pool, tuple[int, Period]] = {}
    for pool, (in_force, published) in _in_force(session, pools, period).items():
        listed = published.subquery()
        joined = (listed, listed.c.id == Player.id)
        statement = statement.add_columns(*(listed.c[name] for name in _STANDING))
        statement = statement.join(*joined) if len(pools) == 1 else statement.outerjoin(*joined)
        starts[pool] = (len(statement.selected_columns) - len(_STANDING), in_force)
    stage = progress.stage(f"Writing the list of {period}", _rows_counted(session, pools))
    rows = session.execute(statement.execution_options(yield_per=BATCH_SIZE))
    return period, _fide_rows(counted(rows, stage), pools, starts)


def _fide_rows(
    rows: Iterable[AnyRow], pools: Sequence[Pool], starts: dict[Pool, tuple[int, Period]]
) -> Iterator[FideListRow]:
    """Each player's row (`_fide_row`), with Python's cycle collector paused while they
    stream (`storage.batches.collector_paused`): each row makes several objects and no
    cycle, and the collector's passes over them took about a quarter of a file's time."""
    with collector_paused():
        for row in rows:
            yield _fide_row(row, pools, starts)


def _rows_counted(session: Session, pools: Sequence[Pool]) -> int | None:
    """The rows of a combined file, every player with a FIDE ID (a count on an index); None
    for a single-pool file, whose count would cost a good part of writing it."""
    if len(pools) == 1:
        return None
    return session.scalar(select(func.count()).where(Player.fide_id.is_not(None)))


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


@dataclass(frozen=True, slots=True)
class _Standing:
    """A player's row on one pool's list, as `queries.period_figures` reads it."""

    birth_year: int | None
    rating: int
    games_completed: int
    ever_2400: bool
    peak: int
    last_active: Period | None
    period: Period
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
            in_force, is_newest = queries.published_period(session, pool, as_of=first_day_after)
        except NotFound:
            continue
        lists[pool] = (in_force, queries.list_statement(pool, in_force, is_newest))
    return lists


def _fide_row(
    row: AnyRow, pools: Sequence[Pool], starts: dict[Pool, tuple[int, Period]]
) -> FideListRow:
    """A player's row: their standing on each pool's list (unrated where it has none);
    `starts` says where each listed pool's columns begin in the row, and its list's period.
    The federation and title are those of the first pool that lists the player, as its list
    shows them (as recorded for one on no list)."""
    ratings, flags, shown = {}, [], []
    for pool in pools:
        if pool not in starts:
            ratings[pool] = PoolRating(None, 0, None)
            continue
        start, period = starts[pool]
        values = row[start : start + len(_STANDING)]
        if values[0] is None:
            ratings[pool] = PoolRating(None, 0, None)
            continue
        standing = _Standing(row.birth_year, *values)
        _, games, k, _ = queries.period_figures(standing, period, period + 1)
        ratings[pool] = PoolRating(standing.rating, games, k)
        flags.append(rules.list_flag(row.sex == "F", standing.last_active, period))
        shown.append((standing.federation, standing.title))
    federation, title = shown[0] if shown else (row.federation, row.title)
    return FideListRow(
        fide_id=row.fide_id,
        name=row.name,
        federation=federation,
        sex=row.sex,
        title=title,
        women_title=row.women_title,
        other_titles=row.other_titles,
        foa_title=row.foa_title,
        ratings=ratings,
        birth_year=row.birth_year,
        flag=flags[0] if flags else ("w" if row.sex == "F" else ""),
        line=0,
    )


def tournament_report(session: Session, pool: Pool, name: str) -> trf.TournamentReport:
    """The event `name` of `pool` as a tournament report, its players numbered by rating
    (then name) as pairing programs number them."""
    event = session.scalars(select(Event).where(Event.pool == pool, Event.name == name)).first()
    if event is None:
        raise unknown_event(session, pool, name)
    games = session.scalars(select(Game).where(Game.event_id == event.id)).all()
    byes = session.scalars(select(Bye).where(Bye.event_id == event.id)).all()
    _refuse_what_a_report_cannot_hold(name, games, byes)
    ranks, players = _numbered_players(session, pool, games, byes)
    round_dates = _round_dates(games, byes)
    return trf.TournamentReport(
        event=trf.TrfEvent(
            event.name, event.city, event.federation, event.start_date, event.end_date, round_dates
        ),
        players=players,
        games=[
            _trf_game(game, ranks)
            for game in sorted(games, key=lambda game: (game.round, ranks[game.white_id]))
        ],
        byes=[
            trf.TrfBye(
                bye.round,
                ranks[bye.player_id],
                trf.BYE_CODES[bye.kind],
                round_dates[bye.round - 1] or event.end_date,
                0,
            )
            for bye in sorted(byes, key=lambda bye: (bye.round, ranks[bye.player_id]))
        ],
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


def _numbered_players(
    session: Session, pool: Pool, games: Sequence[Game], byes: Sequence[Bye]
) -> tuple[dict[int, int], list[trf.TrfPlayer]]:
    ids = {g.white_id for g in games} | {g.black_id for g in games} | {b.player_id for b in byes}
    statement = select(Player, PlayerRating.rating).outerjoin(
        PlayerRating, (PlayerRating.player_id == Player.id) & (PlayerRating.pool == pool)
    )
    found = sorted(
        select_in(session, statement, Player.id, ids),
        key=lambda row: (-(row.rating or 0), row.Player.name, row.Player.id),
    )
    ranks = {row.Player.id: rank for rank, row in enumerate(found, start=1)}
    players = [
        trf.TrfPlayer(
            rank=ranks[row.Player.id],
            sex=row.Player.sex,
            title=row.Player.title,
            name=row.Player.name,
            rating=row.rating,
            federation=row.Player.federation,
            fide_id=row.Player.fide_id,
            birth_year=row.Player.birth_year,
            line=0,
        )
        for row in found
    ]
    return ranks, players


def _round_dates(games: Sequence[Game], byes: Sequence[Bye]) -> tuple[dt.date | None, ...]:
    """Each round's date: the earliest of its games."""
    rounds = max([g.round or 0 for g in games] + [b.round for b in byes], default=0)
    dates: list[dt.date | None] = [None] * rounds
    for game in games:
        assert game.round is not None
        current = dates[game.round - 1]
        dates[game.round - 1] = game.date if current is None else min(current, game.date)
    return tuple(dates)


def _trf_game(game: Game, ranks: dict[int, int]) -> trf.TrfGame:
    assert game.round is not None
    return trf.TrfGame(
        round=game.round,
        white=ranks[game.white_id],
        black=ranks[game.black_id],
        result=game.result,
        rated=game.rated and game.result.is_played,
        date=game.date,
        lines=(0, 0),
    )
