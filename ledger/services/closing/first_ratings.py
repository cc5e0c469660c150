"""First ratings (FIDE 8.2): the unrated players of the period's games against rated
opponents, each with the games that pool toward a first rating, this period's and the
earlier ones within the window (`rules.pooling_start`), as the close rated them. The rating
itself is `rules.initial_rating`; `ledger.queries.pooling` reads the same games for
`explain` and the card."""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ledger.core import rules
from ledger.core.domain import Period, Pool
from ledger.services.closing.figures import PLAYED, in_period
from ledger.services.closing.standings import Standing, load_standings
from ledger.services.list_details import Details
from ledger.storage.batches import AnySelect, select_in
from ledger.storage.models import Event, Game, GameRating, ListEntry

_EVENT_END = func.coalesce(Event.end_date, Game.date).label("event_end")
"""The date that orders a game's event among a player's first games (8.2)."""


def toward_first_ratings(
    session: Session, pool: Pool, period: Period, shown: Mapping[int, Details] | None
) -> dict[int, Standing]:
    """The unrated players of the period's games against rated opponents, played and
    rated (FIDE 5), each with those games pooled toward a first rating (8.2), the earlier
    games that pool with them too (`_add_pooled_history`)."""
    pooled: dict[int, list[rules.InitialRatingGame]] = {}
    for game in session.execute(_pooled_games(pool, period)):
        event = (game.event_end, game.event_id or 0)
        if game.white_rating is None:
            player, opponent, white = game.white_id, game.black_rating, True
        else:
            player, opponent, white = game.black_id, game.white_rating, False
        initial = rules.InitialRatingGame(event, opponent, game.result.score(white=white))
        pooled.setdefault(player, []).append(initial)
    candidates = load_standings(session, pool, period, pooled, shown)
    for player_id, standing in candidates.items():
        standing.initial_games = pooled[player_id]
        standing.initial_games_in_period = len(pooled[player_id])
    _add_pooled_history(session, pool, period, candidates)
    return candidates


def _pooled_games(pool: Pool, period: Period) -> AnySelect:
    """The period's games, played and rated, of an unrated player against a rated one, with
    the ratings the close used."""
    one_unrated = (GameRating.white_rating.is_(None) & GameRating.black_rating.is_not(None)) | (
        GameRating.black_rating.is_(None) & GameRating.white_rating.is_not(None)
    )
    return _games_as_rated().where(
        in_period(pool, period),
        Game.rated,
        Game.result.in_(PLAYED),
        one_unrated,
    )


def _add_pooled_history(
    session: Session, pool: Pool, period: Period, standings: dict[int, Standing]
) -> None:
    """Add the earlier games that pool toward an unrated player's first rating (8.2): those
    of the periods from `rules.pooling_start`, which never reaches back to a list on which
    the player lost an earlier rating."""
    candidates = {pid: s for pid, s in standings.items() if s.initial_games}
    if not candidates:
        return
    last_listed: dict[int, Period] = dict(
        select_in(
            session,
            select(ListEntry.player_id, func.max(ListEntry.period))
            .where(ListEntry.pool == pool)
            .group_by(ListEntry.player_id),
            ListEntry.player_id,
            candidates,
        )
    )
    history = _earlier_games(pool, rules.pooling_start(period, None), period)
    for column, side in ((Game.white_id, 0), (Game.black_id, 1)):
        for game in select_in(session, history, column, candidates):
            player_id = (game.white_id, game.black_id)[side]
            ratings = (game.white_rating, game.black_rating)
            own, opponent = ratings[side], ratings[1 - side]
            if not (game.result.is_played and game.rated) or own is not None or opponent is None:
                continue
            if game.period >= rules.pooling_start(period, last_listed.get(player_id)):
                score = game.result.score(white=side == 0)
                candidates[player_id].initial_games.append(
                    rules.InitialRatingGame((game.event_end, game.event_id or 0), opponent, score)
                )


def _earlier_games(pool: Pool, start: Period, period: Period) -> AnySelect:
    """The games of the periods from `start` up to, not including, `period`, as rated."""
    return _games_as_rated().where(Game.pool == pool, Game.period >= start, Game.period < period)


def _games_as_rated() -> AnySelect:
    """Games with what orders their events (8.2) and the ratings the close used."""
    return (
        select(
            Game.white_id,
            Game.black_id,
            Game.result,
            Game.rated,
            Game.period,
            Game.event_id,
            _EVENT_END,
            GameRating.white_rating,
            GameRating.black_rating,
        )
        .join(GameRating, GameRating.game_id == Game.id)
        .outerjoin(Event, Event.id == Game.event_id)
    )
