"""Earlier versions of published lists, and what a re-rate changed between two versions.

A re-rate keeps each re-rated period's list rows as a superseded version. The list a
version published is rebuilt as the lists were when it was published: for each period up
to it, the version then in force (the newest one published no later, by `ListVersion.id`).
Only the players with a row in a period whose version then differs from today's can read
differently, so the rebuild reads today's list for everyone else and rebuilds just those
players' rows; a diff compares just those players.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import CTE, and_, except_, false, func, or_, select, union, union_all
from sqlalchemy.orm import Session

from ledger.domain import Period, Pool
from ledger.errors import NotFound
from ledger.list_sql import IDENTITY
from ledger.models import LIST_FIGURES, ListEntry, ListVersion, Player, SupersededEntry
from ledger.queries import (
    ListFilter,
    Ranks,
    RatingList,
    above,
    best_first,
    list_statement,
    published_period,
    ranked,
    rating_list,
)
from ledger.services.batches import AnySelect
from ledger.services.periods import is_closed, newest_closed_period

ORIGINAL = 1
"""The version a period's close published: the "original" list."""


@dataclass(frozen=True, slots=True)
class Version:
    """One publication of a period's list. `number` 1 is the original."""

    period: Period
    number: int
    published_at: dt.datetime
    stamp: int
    current: bool

    @property
    def label(self) -> str:
        kind = "original" if self.number == ORIGINAL else "revised"
        return f"version {self.number} ({kind}{', current' if self.current else ''})"


def versions(session: Session, pool: Pool, period: Period) -> list[Version]:
    """Every version of the period's list ever published, oldest first; the newest is
    current unless the period was reopened (its list withdrawn)."""
    return [each for each in _stamps(session, pool, period) if each.period == period]


def version(session: Session, pool: Pool, period: Period, number: int | None) -> Version:
    """Version `number` of the period's list (default: the current one)."""
    known = versions(session, pool, period)
    if not known:
        raise NotFound(f"no {pool} list was published for period {period}.")
    for each in known:
        if each.number == number or (number is None and each.current):
            return each
    if number is None:
        raise NotFound(
            f"the {pool} list of {period} was withdrawn (the period was reopened); its "
            f"versions 1 to {known[-1].number} stay readable with --version."
        )
    raise NotFound(
        f"the {pool} list of {period} has versions 1 to {known[-1].number}; there is no "
        f"version {number}."
    )


def published_list(
    session: Session,
    pool: Pool,
    period: Period | None = None,
    number: int | None = None,
    top: int | None = None,
    only: ListFilter | None = None,
    as_of: dt.date | None = None,
) -> RatingList:
    """`ledger.queries.rating_list`, or with `number` the list as that version of the
    period published it. A list a re-rate revised says which version it is."""
    if number is None:
        published = rating_list(session, pool, period, top, only, as_of)
        shown = version(session, pool, published.period, None)
        return replace(published, version=shown if shown.number > ORIGINAL else None)
    return _version_list(
        session, pool, period or published_period(session, pool)[0], number, top, only
    )


def _version_list(
    session: Session,
    pool: Pool,
    period: Period,
    number: int,
    top: int | None,
    only: ListFilter | None,
) -> RatingList:
    """The list as version `number` of the period published it, best first, ranked like
    any list: world ranks on that version, movement against the previous period's list
    as it stood when this version was published."""
    shown = version(session, pool, period, number)
    if shown.current:
        return published_list(session, pool, period, None, top, only)
    only = only or ListFilter()
    whole = _version_rows(session, pool, period, shown.stamp).subquery()
    rows = session.execute(best_first(select(whole), only, period, top)).all()
    ratings = sorted(session.scalars(select(whole.c.rating)))
    world = {row.id: 1 + above(ratings, row.rating) for row in rows}
    previous: dict[int, int] = {}
    if any(each.stamp <= shown.stamp for each in versions(session, pool, period - 1)):
        before = _version_rows(session, pool, period - 1, shown.stamp).subquery()
        then = dict(session.execute(select(before.c.id, before.c.rating)).all())
        ratings_before = sorted(then.values())
        previous = {pid: 1 + above(ratings_before, then[pid]) for pid in world if pid in then}
    return RatingList(
        pool,
        period,
        ranked(period, rows, Ranks(world, previous)),
        only != ListFilter(),
        shown,
    )


@dataclass(frozen=True, slots=True)
class ChangedRow:
    """A player on both versions whose published figures differ."""

    id: int
    name: str
    old_rating: int
    new_rating: int
    old_change: int | None
    new_change: int | None
    old_games: int
    new_games: int


@dataclass(frozen=True, slots=True)
class ListDiff:
    """Two versions of a period's list compared: counts of the players new to the later
    one, removed from it, changed and unchanged, and each changed player's figures."""

    pool: Pool
    period: Period
    old: Version
    new: Version
    new_players: list[int]
    removed_players: list[int]
    changed: list[ChangedRow]
    unchanged: int


def list_diff(
    session: Session,
    pool: Pool,
    period: Period,
    from_version: int | None = None,
    to_version: int | None = None,
) -> ListDiff:
    """Compare two versions of the period's list (default: the one before the current
    version, and the current one)."""
    new = version(session, pool, period, to_version)
    old = version(session, pool, period, new.number - 1 if from_version is None else from_version)
    if old.number == new.number and from_version is None:
        raise NotFound(
            f"the {pool} list of {period} has only its original version; a re-rate "
            "publishes the next."
        )
    involved = union(
        _differing_players(session, pool, period, old.stamp),
        _differing_players(session, pool, period, new.stamp),
    ).subquery()
    before = _listed_rows(session, pool, period, old.stamp, select(involved.c.player_id))
    after = _listed_rows(session, pool, period, new.stamp, select(involved.c.player_id))
    changed = [
        ChangedRow(
            pid,
            row.name,
            before[pid].rating,
            row.rating,
            before[pid].change,
            row.change,
            before[pid].games,
            row.games,
        )
        for pid, row in after.items()
        if pid in before and _figures(before[pid]) != _figures(row)
    ]
    size = _count(session, _version_rows(session, pool, period, new.stamp))
    new_players = sorted(set(after) - set(before))
    return ListDiff(
        pool,
        period,
        old,
        new,
        new_players,
        sorted(set(before) - set(after)),
        sorted(changed, key=lambda row: (row.name, row.id)),
        size - len(new_players) - len(changed),
    )


def _figures(row: Any) -> tuple[int, int | None, int]:
    return row.rating, row.change, row.games


def _stamps(session: Session, pool: Pool, period: Period) -> list[Version]:
    """Every version of the lists up to `period`; a closed period's newest is current."""
    rows = session.execute(
        select(ListVersion.period, ListVersion.version, ListVersion.published_at, ListVersion.id)
        .where(ListVersion.pool == pool, ListVersion.period <= period)
        .order_by(ListVersion.period, ListVersion.version)
    ).all()
    newest = {row.period: row.version for row in rows}
    closed = newest_closed_period(session, pool)
    return [
        Version(*row, row.version == newest[row.period] and is_closed(row.period, closed))
        for row in rows
    ]


def _versions_then(session: Session, pool: Pool, period: Period, stamp: int) -> dict[Period, int]:
    """The periods up to `period` whose list in force at `stamp` is not today's: the
    version then in force of each."""
    then: dict[Period, Version] = {}
    for each in _stamps(session, pool, period):
        if each.stamp <= stamp:
            then[each.period] = each
    return {p: each.number for p, each in then.items() if not each.current}


def _superseded(pool: Pool, then: dict[Period, int]) -> Any:
    """SQL for "a superseded row of a version then in force"."""
    if not then:
        return false()
    return (SupersededEntry.pool == pool) & or_(
        *(
            and_(SupersededEntry.period == p, SupersededEntry.version == number)
            for p, number in then.items()
        )
    )


def _differing_players(session: Session, pool: Pool, period: Period, stamp: int) -> AnySelect:
    """The players whose list in force at `period` may differ between `stamp` and today:
    those whose row in a period whose version then is not today's differs (or exists only
    then, or only now). Everyone else's newest row up to `period` is the same then and now."""
    differing = [select(ListEntry.player_id).where(false())]
    for each, number in _versions_then(session, pool, period, stamp).items():
        old = select(SupersededEntry.player_id, *_figures_of(SupersededEntry)).where(
            SupersededEntry.pool == pool,
            SupersededEntry.period == each,
            SupersededEntry.version == number,
        )
        new = select(ListEntry.player_id, *_figures_of(ListEntry)).where(
            ListEntry.pool == pool, ListEntry.period == each
        )
        for rows in (except_(old, new).subquery(), except_(new, old).subquery()):
            differing.append(select(rows.c.player_id))
    return union(*differing).subquery().select()


def _figures_of(model: type[ListEntry] | type[SupersededEntry]) -> list[Any]:
    return [getattr(model, name) for name in LIST_FIGURES]


_ROW_COLUMNS = (
    "rating",
    "games_completed",
    "ever_2400",
    "peak",
    "peak_period",
    "last_active",
    "period",
    "previous_rating",
    "change",
    "games",
    "k_applied",
    "k_next",
    "listed",
)


def _rows_then(pool: Pool, period: Period, then: dict[Period, int], players: Any) -> CTE:
    """Each of `players`' list rows up to `period`, as the versions in `then` published them."""
    today = select(*(ListEntry.__table__.c[name] for name in ("player_id", *_ROW_COLUMNS))).where(
        ListEntry.pool == pool,
        ListEntry.period <= period,
        ListEntry.period.not_in(list(then)),
        ListEntry.player_id.in_(players),
    )
    superseded = select(
        *(SupersededEntry.__table__.c[name] for name in ("player_id", *_ROW_COLUMNS))
    ).where(_superseded(pool, then), SupersededEntry.player_id.in_(players))
    return union_all(today, superseded).cte("rows_then")


def _rebuilt(pool: Pool, period: Period, then: dict[Period, int], players: Any) -> AnySelect:
    """`players`' rows on the list in force at `period` as it stood then (listed or not),
    in the columns of `ledger.list_sql.list_in_force`."""
    rows = _rows_then(pool, period, then, players)
    newest = (
        select(rows.c.player_id, func.max(rows.c.period).label("period"))
        .group_by(rows.c.player_id)
        .subquery()
    )
    return (
        select(*IDENTITY, *(rows.c[name] for name in _ROW_COLUMNS))
        .join(newest, (rows.c.player_id == newest.c.player_id) & (rows.c.period == newest.c.period))
        .join(Player, Player.id == rows.c.player_id)
    )


def _version_rows(session: Session, pool: Pool, period: Period, stamp: int) -> AnySelect:
    """Every row of the list in force at `period` as it stood at `stamp`: today's list for
    the players it cannot differ for, the rebuilt rows of the others."""
    players = _differing_players(session, pool, period, stamp)
    newest = period == newest_closed_period(session, pool)
    today_list = list_statement(pool, period, newest).subquery()
    unchanged = select(today_list).where(today_list.c.id.not_in(players))
    rebuilt = _rebuilt(pool, period, _versions_then(session, pool, period, stamp), players)
    rebuilt_listed = rebuilt.subquery()
    columns = [rebuilt_listed.c[c.name] for c in today_list.c]
    return select(union_all(unchanged, select(*columns).where(rebuilt_listed.c.listed)).subquery())


def _listed_rows(
    session: Session, pool: Pool, period: Period, stamp: int, players: Any
) -> dict[int, Any]:
    """`players`' rows on the list of `period` as it stood at `stamp`, if listed then."""
    then = _versions_then(session, pool, period, stamp)
    rows = session.execute(_rebuilt(pool, period, then, players)).all()
    return {row.id: row for row in rows if row.listed}


def _count(session: Session, statement: AnySelect) -> int:
    return session.scalar(select(func.count()).select_from(statement.subquery())) or 0
