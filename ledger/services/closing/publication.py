"""The list a close publishes for one period: its rows are staged (`STAGED_LIST_ROWS`), those
of the rated players in SQL and the few others here, then written set-wise
(`ledger.services.closing.writes`)."""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from contextlib import ExitStack

from sqlalchemy import ColumnElement, Table, func, select
from sqlalchemy.orm import Session

from ledger.core import rules
from ledger.core.domain import Period, Pool
from ledger.services import list_details
from ledger.services.closing import rows, writes
from ledger.services.closing.first_ratings import toward_first_ratings
from ledger.services.closing.rows import STAGED, StagedRow
from ledger.services.closing.standings import Standing, read_standings, standings
from ledger.services.list_details import Details
from ledger.storage.batches import bulk_write, driver_rows, driver_rows_in, insert_values
from ledger.storage.database import sorting_in_runs
from ledger.storage.models import Player, PlayerRating
from ledger.storage.staging import (
    JOINING_PLAYERS,
    PERIOD_SCORES,
    SHOWN_DETAILS,
    STAGED_LIST_ROWS,
    counted_for_the_planner,
    staged,
)


class Publication:
    """The list of `pool` and `period` a close publishes. `joining`: the pending starting
    ratings this list carries in a re-rate (None: all of them); `shown`: the federations and
    titles it showed before a re-rate (None: those recorded)."""

    def __init__(
        self,
        pool: Pool,
        period: Period,
        *,
        joining: AbstractSet[int] | None = None,
        shown: Mapping[int, Details] | None = None,
    ) -> None:
        self.pool = pool
        self.period = period
        self.joining = joining
        self.shown = shown
        self.rows: list[StagedRow] = []
        self.staged = 0
        self.players_rated = 0
        self.newly_rated = 0
        self.unrated_by_floor = 0

    def publish(self, session: Session) -> None:
        """Write the list: the rows of the players the period rated or gave a first rating,
        then those of the starting ratings joining it and of the players whose details it
        carries anew, each with the standing it replaces kept (`PriorStanding`) and the new
        one."""
        with ExitStack() as tables:
            tables.enter_context(staged(session, STAGED_LIST_ROWS))
            shown = self._staged_shown(session, tables)
            self._add_rated(session, shown)
            for standing in toward_first_ratings(
                session, self.pool, self.period, self.shown
            ).values():
                self._first_rating(standing)
            self._stage(session)
            self._add_pending(session, tables, shown)
            self._add_changed_details(session)
            self._stage(session)
            self.staged = _staged_rows(session)
            counted_for_the_planner(session, STAGED_LIST_ROWS)
            self._write(session)

    def _staged_shown(self, session: Session, tables: ExitStack) -> Table | None:
        """In a re-rate, the details the list showed, staged for the set-wise rows."""
        if self.shown is None:
            return None
        tables.enter_context(staged(session, SHOWN_DETAILS))
        shown = [(player, shown.federation, shown.title) for player, shown in self.shown.items()]
        insert_values(session, SHOWN_DETAILS, ("player_id", "federation", "title"), shown)
        return SHOWN_DETAILS

    def _add_rated(self, session: Session, shown: Table | None) -> None:
        """8.3: the rows of the players the period's figures rate, set-wise: their scores
        staged (`rows.period_scores`), then their rows (`rows.stage_rated`)."""
        with staged(session, PERIOD_SCORES):
            with sorting_in_runs(session):
                session.execute(rows.period_scores(self.pool, self.period))
            counted_for_the_planner(session, PERIOD_SCORES)
            session.execute(rows.stage_rated(session, self.pool, self.period, shown))
        self.players_rated = _staged_rows(session)
        self.unrated_by_floor = _staged_rows(session, ~STAGED.listed)

    def _first_rating(self, standing: Standing) -> None:
        """8.2: a first rating once the pooled games suffice."""
        outcome = rules.initial_rating(standing.initial_games, self.period)
        if outcome is None:
            return
        rating, games = outcome
        self.newly_rated += 1
        state = rules.state_after(
            rating,
            games_completed=games,
            ever_2400=standing.ever_2400,
            peak=standing.peak,
            birth_year=standing.birth_year,
        )
        self._publish(standing, state, games=standing.initial_games_in_period, played=True)

    def _publish(
        self,
        standing: Standing,
        state: rules.RatingState,
        *,
        games: int,
        played: bool,
        previous_rating: int | None = None,
        change: int | None = None,
    ) -> None:
        """The list row and new standing of a listed player given a first rating in the
        period (active on its list), or of one whose row only carries new details (not
        `played`)."""
        new = rules.standing_after(
            state,
            self.period,
            peak_before=standing.peak,
            peak_period_before=standing.peak_period,
            last_active=self.period if played else standing.last_active,
        )
        self.rows.append(
            StagedRow(
                player_id=standing.player_id,
                had_standing=standing.has_row,
                joining=False,
                first_list=standing.first_list or self.period,
                rating=new.rating,
                listed=new.listed,
                k_next=new.k_next,
                games_completed=new.games_completed,
                ever_2400=new.ever_2400,
                peak=new.peak,
                peak_period=new.peak_period,
                last_active=new.last_active,
                federation=standing.details.federation,
                title=standing.details.title,
                previous_rating=previous_rating,
                change=change,
                games=games,
                k_applied=None,
                k_rule=None,
                k_times_sum=None,
            )
        )

    def _stage(self, session: Session) -> None:
        insert_values(session, STAGED_LIST_ROWS, StagedRow._fields, self.rows)
        self.rows = []

    def _add_pending(self, session: Session, tables: ExitStack, shown: Table | None) -> None:
        """Starting ratings no list has carried yet join this list unchanged (in a re-rate,
        those of `joining`), set-wise (`rows.pending`)."""
        joining = None
        if self.joining is not None:
            joining = tables.enter_context(staged(session, JOINING_PLAYERS))
            players = [(player,) for player in self.joining]
            insert_values(session, JOINING_PLAYERS, ("player_id",), players)
        session.execute(rows.pending(self.pool, self.period, shown, joining))

    def _add_changed_details(self, session: Session) -> None:
        """A row for every listed player whose federation or title this list carries anew,
        with or without games (`ledger.services.list_details`): as recorded, from the list
        their `details_from` names; in a re-rate, as the list showed them."""
        statement = (
            read_standings()
            .join(PlayerRating, PlayerRating.player_id == Player.id)
            .where(
                PlayerRating.pool == self.pool,
                PlayerRating.first_list.is_not(None),
                PlayerRating.rating.is_not(None),
                rows.not_staged(Player.id),
            )
        )
        if self.shown is None:
            due = statement.where(list_details.recorded_since_listed(self.period))
            batches = driver_rows(session, due)
        else:
            batches = driver_rows_in(session, statement, Player.id, self.shown)
        for standing in standings(batches, self.period, self.shown):
            if standing.details != standing.listed:
                state = rules.RatingState.of(standing)
                self._publish(
                    standing,
                    state,
                    games=0,
                    played=False,
                    previous_rating=standing.rating,
                    change=0,
                )

    def _write(self, session: Session) -> None:
        """The staged rows to the list, the standings they replace to `PriorStanding`, and
        the new standings, set-wise (`writes.published`): the joining starting ratings take
        this list as their first. A list that changes most players' standings (the first
        list) rebuilds the standings' indexes once, as it does the list rows' and the prior
        standings' where it more than doubles them (`storage.batches.bulk_write`)."""
        with (
            bulk_write(session, writes.STANDINGS, self.staged, updating=True),
            bulk_write(session, writes.ENTRIES, self.staged),
            bulk_write(session, writes.PRIORS, self.staged),
        ):
            for statement in writes.published(session, self.pool, self.period):
                session.execute(statement)


def _staged_rows(session: Session, *where: ColumnElement[bool]) -> int:
    """How many rows are staged (that meet `where`): a statement's own count of the rows it
    wrote is not given on every driver (psycopg's is -1 for an INSERT ... SELECT)."""
    return session.scalar(select(func.count()).select_from(STAGED_LIST_ROWS).where(*where)) or 0
