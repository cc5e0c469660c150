"""Earlier versions of published lists, and what a re-rate changed between two versions.

A re-rate keeps each re-rated period's list rows as a superseded version. The list a
version published is rebuilt as the lists were when it was published: for each period up
to it, the version then in force (the newest one published no later, by `ListVersion.id`).
Only the players whose row in such a period differs between then and today can read
differently, so a version is today's list with just those players' rows rebuilt, and its
ranks are today's counts corrected by them; a diff compares just those players.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from sqlalchemy import CTE, and_, except_, false, func, or_, select, union, union_all
from sqlalchemy.orm import Session

from ledger.core import cadence
from ledger.core.domain import Period, Pool
from ledger.core.errors import Hint, NotFound
from ledger.queries.filters import EVERYONE, ListFilter
from ledger.queries.lists import ranking
from ledger.queries.lists.counts import RatingCounts, above
from ledger.queries.lists.published import PublishedList
from ledger.queries.lists.ranking import FEW_ROWS
from ledger.queries.lists.rows import RatingList, Version, period_figures, ranked
from ledger.queries.lists.sql import IDENTITY, PERIOD_FIGURES, best_first
from ledger.storage.batches import AnySelect, batched
from ledger.storage.models import (
    LIST_FIGURES,
    STANDING_COLUMNS,
    ListEntry,
    ListVersion,
    LogEntry,
    Player,
    SupersededEntry,
)
from ledger.storage.periods import is_closed, newest_closed_period


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
            f"versions 1 to {known[-1].number} stay readable.",
            Hint.EARLIER_VERSIONS,
        )
    raise NotFound(
        f"the {pool} list of {period} has versions 1 to {known[-1].number}; there is no "
        f"version {number}."
    )


def version_list(
    session: Session,
    pool: Pool,
    shown: Version,
    *,
    top: int | None,
    only: ListFilter | None,
    skip: int = 0,
) -> RatingList:
    """The list as an earlier (not current) version published it, best first (the `top`
    rows after `skip`), ranked like any list: places on that version, movement against the
    previous period's list as it stood when this version was published."""
    period = shown.period
    only = only or EVERYONE
    few = top is not None and top <= FEW_ROWS
    now = _ListThen.of(session, pool, period, shown.stamp, few=few)
    rows = now.rows(only, None if top is None else skip + top)[skip:]
    before = None
    previous = cadence.previous_list_period(pool, period)
    if any(each.stamp <= shown.stamp for each in versions(session, pool, previous)):
        before = _ListThen.of(session, pool, previous, shown.stamp, few=few)
    places = ranking.places(rows, only, period, now, before, skip)
    return RatingList(
        pool, period, ranked(period, rows, places), filtered=only != EVERYONE, version=shown
    )


@dataclass
class _ListThen:
    """The list in force at `period` as it stood at a version's stamp, as a correction of
    today's: the players whose rows differ, their rows then and now (listed ones), and
    how many players today's list has above a rating. A
    `ledger.queries.lists.ranking.ListSource`."""

    session: Session
    pool: Pool
    period: Period
    then_versions: dict[Period, int]
    players: set[int]
    listed: dict[int, Any]
    now: dict[int, Any]
    today: PublishedList
    ratings_now: list[int] = field(init=False)
    ratings_then: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.ratings_now = sorted(row.rating for row in self.now.values())
        self.ratings_then = sorted(row.rating for row in self.listed.values())

    @classmethod
    def of(
        cls, session: Session, pool: Pool, period: Period, stamp: int, *, few: bool
    ) -> _ListThen:
        then_versions = _versions_then(session, pool, period, stamp)
        players = set(session.scalars(_differing_players(pool, then_versions)))
        today = PublishedList(session, pool, period)
        today.count(few=few)
        return cls(
            session,
            pool,
            period,
            then_versions,
            players,
            _listed(session, pool, period, then_versions, players),
            _listed(session, pool, period, {}, players),
            today,
        )

    def above(self, rating: int) -> int:
        """How many players the list then had above `rating`."""
        return (
            self.today.above(rating)
            - above(self.ratings_now, rating)
            + above(self.ratings_then, rating)
        )

    def size(self) -> int:
        return self.above(-1)

    def counted(self, only: ListFilter) -> RatingCounts | None:
        """Not counted by rating: ranked on its rows."""
        return None

    def tied(self, only: ListFilter, ratings: Collection[int]) -> dict[int, list[int]]:
        return ranking.tied_in_rows(self, only, ratings)

    def rows(self, only: ListFilter, top: int | None) -> list[Any]:
        """The list's rows then that pass the filter, best first (the first `top`): today's,
        with the rows that differ rebuilt."""
        extra = None if top is None else top + len(self.now)
        others = self.today.rows(only, extra)
        rows = [row for row in others if row.id not in self.players] + self._passing(only)
        return sorted(rows, key=lambda row: (-row.rating, row.name, row.id))[:top]

    def _passing(self, only: ListFilter) -> list[Any]:
        """The rebuilt rows that pass the filter."""
        if only == EVERYONE or not self.listed:
            return list(self.listed.values())
        passing = _listed(
            self.session, self.pool, self.period, self.then_versions, self.listed, only
        )
        return list(passing.values())


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
    one, removed from it, changed and unchanged, each changed player's figures, and the
    reasons given for the changes that published the versions after `old` up to `new`."""

    pool: Pool
    period: Period
    old: Version
    new: Version
    new_players: list[int]
    removed_players: list[int]
    changed: list[ChangedRow]
    unchanged: int
    reasons: list[str]


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
    if from_version is None and new.number == 1:
        raise NotFound(
            f"the {pool} list of {period} has only its original version; a re-rate "
            "publishes the next."
            if to_version is None
            else f"version 1 of the {pool} list of {period} is its original; no version comes "
            "before it."
        )
    old = version(session, pool, period, new.number - 1 if from_version is None else from_version)
    at_old = _ListThen.of(session, pool, period, old.stamp, few=True)
    at_new = _ListThen.of(session, pool, period, new.stamp, few=True)
    involved = at_old.players | at_new.players
    before = _shown(period, _listed(session, pool, period, at_old.then_versions, involved))
    after = _shown(period, _listed(session, pool, period, at_new.then_versions, involved))
    changed = [
        ChangedRow(
            id=pid,
            name=row.name,
            old_rating=before[pid].rating,
            new_rating=row.rating,
            old_change=before[pid].change,
            new_change=row.change,
            old_games=before[pid].games,
            new_games=row.games,
        )
        for pid, row in after.items()
        if pid in before and before[pid] != row
    ]
    new_players = sorted(set(after) - set(before))
    return ListDiff(
        pool,
        period,
        old,
        new,
        new_players,
        sorted(set(before) - set(after)),
        sorted(changed, key=lambda row: (row.name, row.id)),
        at_new.size() - len(new_players) - len(changed),
        _reasons(session, pool, period, old, new),
    )


def _reasons(session: Session, pool: Pool, period: Period, old: Version, new: Version) -> list[str]:
    """The reasons logged with the changes (a correction, a re-rate) that published the
    versions after `old` up to `new`: each change is logged at the moment its versions were
    published, as `ledger periods` finds who published a list."""
    moments = [
        each.published_at
        for each in versions(session, pool, period)
        if old.number < each.number <= new.number
    ]
    if not moments:
        return []
    reasons = session.scalars(
        select(LogEntry.reason)
        .where(LogEntry.at.in_(moments), LogEntry.pool == pool, LogEntry.reason.is_not(None))
        .order_by(LogEntry.id)
    )
    return [reason for reason in reasons if reason]


class _Shown(NamedTuple):
    """What a diff compares of a list's row: its rating and its period's figures."""

    name: str
    rating: int
    change: int | None
    games: int


def _shown(period: Period, rows: dict[int, Any]) -> dict[int, _Shown]:
    """The rows as the list of `period` shows them: the change and games of the period
    only where the player has a row in it (`period_figures`), as `ledger list` does."""
    following = period + 1  # as `ranked` gives the K of a list's rows
    shown = {}
    for player, row in rows.items():
        figures = period_figures(row, period, following)
        shown[player] = _Shown(row.name, row.rating, figures.change, figures.games)
    return shown


def _stamps(session: Session, pool: Pool, period: Period) -> list[Version]:
    """Every version of the lists up to `period`; a closed period's newest is current, a
    reopened period's withdrawn."""
    rows = session.execute(
        select(ListVersion.period, ListVersion.version, ListVersion.published_at, ListVersion.id)
        .where(ListVersion.pool == pool, ListVersion.period <= period)
        .order_by(ListVersion.period, ListVersion.version)
    ).all()
    newest = {row.period: row.version for row in rows}
    closed = newest_closed_period(session, pool)
    return [
        Version(
            period=row.period,
            number=row.version,
            published_at=row.published_at,
            stamp=row.id,
            current=row.version == newest[row.period] and is_closed(row.period, closed),
            withdrawn=row.version == newest[row.period] and not is_closed(row.period, closed),
        )
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


def _differing_players(pool: Pool, then: dict[Period, int]) -> AnySelect:
    """The players whose list in force may differ between the versions `then` and today:
    those whose row in a period of `then` differs (or exists only then, or only now).
    Everyone else's newest row up to the period is the same then and now."""
    differing = [select(ListEntry.player_id).where(false())]
    for each, number in then.items():
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
    *(name for name in STANDING_COLUMNS if name != "first_list"),
    *(column.key for column in PERIOD_FIGURES),
    "listed",
)
"""A list row's columns after the player's identity, as `ledger.queries.lists.sql` reads a list."""


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
    in the columns of `ledger.queries.lists.sql.list_in_force`."""
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


def _listed(
    session: Session,
    pool: Pool,
    period: Period,
    then: dict[Period, int],
    players: Iterable[int],
    only: ListFilter | None = None,
) -> dict[int, Any]:
    """`players`' rows on the list in force at `period` as the versions `then` give it, if
    listed (and passing `only`), by player."""
    listed = {}
    for batch in batched(sorted(players)):
        statement = _rebuilt(pool, period, then, batch)
        if only is not None:
            statement = best_first(statement, only, period, None)
        listed.update({row.id: row for row in session.execute(statement) if row.listed})
    return listed
