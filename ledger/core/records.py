"""What the user asks the ledger to record: new players and reported games, validated.

The CLI and the importers both build these records; the services write them. A record may
carry its `source` (`file:line`), which prefixes every problem found with it.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

from ledger.core.domain import GameResult
from ledger.core.errors import InvalidInput
from ledger.core.rules import RATING_FLOOR

_Bad = Callable[[str, str], InvalidInput]

HIGHEST_RATING = 3500
EARLIEST_BIRTH_YEAR = 1850
LARGEST_ID = 2_147_483_647
"""IDs are stored as 32-bit integers, as FIDE's are."""
MOST_GAMES = 100_000
MOST_ROUNDS = 1_000
EARLIEST_GAME_YEAR = 1800
NAME_LENGTH = 200
TITLE_LENGTH = 8
_FEDERATION = re.compile(r"[A-Z]{3}")


def problem(source: str | None, message: str) -> str:
    """A problem as one line: `file:line: message`, or the message alone."""
    return f"{source}: {message}" if source else message


@dataclass(frozen=True, slots=True)
class StartingRating:
    """A published rating carried in from an existing list: it counts as the previous list."""

    rating: int
    games: int
    ever_2400: bool
    peak: int


@dataclass(frozen=True, slots=True)
class NewPlayer:
    name: str
    id: int | None = None
    fide_id: int | None = None
    federation: str | None = None
    sex: str | None = None
    title: str | None = None
    birth_year: int | None = None
    starting: StartingRating | None = None
    source: str | None = None


@dataclass(frozen=True, slots=True)
class NewGame:
    date: dt.date
    white: int
    black: int
    result: GameResult
    event: str | None = None
    round: int | None = None
    source: str | None = None
    rated: bool = True
    """False for a game the arbiter reported as not rated (TRF codes W, D, L)."""


def same_game_key(
    date: dt.date, white: int, black: int, event: object, round: int | None
) -> tuple[object, ...]:
    """What makes two reports one game: its date, players, colours, event and round; a game
    with neither event nor round, by its date and its two players alone (in either colour).

    `event` is anything that names one event (its name, or its ledger ID).
    """
    if event is None and round is None:
        return (date, min(white, black), max(white, black))
    return (date, white, black, event, round)


def new_player(
    *,
    name: str,
    id: int | None = None,
    fide_id: int | None = None,
    federation: str | None = None,
    sex: str | None = None,
    title: str | None = None,
    birth_year: int | None = None,
    rating: int | None = None,
    games: int | None = None,
    ever_2400: bool = False,
    peak: int | None = None,
    source: str | None = None,
    today: dt.date,
) -> NewPlayer:
    """A validated new player; raises InvalidInput naming the first bad field."""

    def bad(field: str, message: str) -> InvalidInput:
        return InvalidInput(problem(source, f"{field}: {message}"))

    name = " ".join(name.split())
    if not name:
        raise bad("name", "a player needs a name.")
    if len(name) > NAME_LENGTH:
        raise bad("name", f"the name is longer than {NAME_LENGTH} characters.")
    for field, number in (("id", id), ("fide-id", fide_id)):
        if number is not None and not 1 <= number <= LARGEST_ID:
            raise bad(field, f"{number} is not a valid ID; IDs run from 1 to {LARGEST_ID}.")
    if title is not None and len(title := title.strip()) > TITLE_LENGTH:
        raise bad("title", f"{title!r} is longer than {TITLE_LENGTH} characters.")
    if federation is not None and not _FEDERATION.fullmatch(federation := federation.upper()):
        raise bad("federation", f"{federation!r} is not a three-letter federation code.")
    if sex is not None and (sex := sex.upper()) not in ("M", "F"):
        raise bad("sex", f"{sex!r} is not M or F.")
    if birth_year is not None and not EARLIEST_BIRTH_YEAR <= birth_year <= today.year:
        raise bad("birth-year", f"{birth_year} is not a birth year.")
    starting = _starting_rating(rating, games, ever_2400, peak, bad)
    return NewPlayer(
        name, id, fide_id, federation, sex, title or None, birth_year, starting, source
    )


def _starting_rating(
    rating: int | None,
    games: int | None,
    ever_2400: bool,
    peak: int | None,
    bad: _Bad,
) -> StartingRating | None:
    if rating is None:
        if games is not None or peak is not None or ever_2400:
            raise bad("rating", "games, peak and the 2400 flag need a starting rating.")
        return None
    if not RATING_FLOOR <= rating <= HIGHEST_RATING:
        raise bad(
            "rating",
            f"{rating} cannot be a published rating; ratings run from {RATING_FLOOR} "
            f"(FIDE 7.1.4) to {HIGHEST_RATING}.",
        )
    if games is None or not 0 <= games <= MOST_GAMES:
        raise bad(
            "games",
            f"a starting rating needs the number of rated games completed (0 to {MOST_GAMES}).",
        )
    if peak is not None and not rating <= peak <= HIGHEST_RATING:
        raise bad(
            "peak", f"the peak {peak} must lie between the rating {rating} and {HIGHEST_RATING}."
        )
    peak = peak if peak is not None else rating
    return StartingRating(rating, games, ever_2400 or peak >= 2400, peak)


def new_game(
    *,
    date: dt.date,
    white: int,
    black: int,
    result: GameResult,
    event: str | None = None,
    round: int | None = None,
    source: str | None = None,
    rated: bool = True,
    today: dt.date,
) -> NewGame:
    """A validated new game; raises InvalidInput naming the first bad field.

    A game cannot be dated after `today`: its result is not known yet.
    """
    for field, player in (("white", white), ("black", black)):
        if not 1 <= player <= LARGEST_ID:
            raise InvalidInput(
                problem(
                    source, f"{field}: {player} is not a valid ID; IDs run from 1 to {LARGEST_ID}."
                )
            )
    if white == black:
        raise InvalidInput(problem(source, f"black: player {white} cannot play themselves."))
    if date.year < EARLIEST_GAME_YEAR:
        raise InvalidInput(problem(source, f"date: {date} is not a plausible date for a game."))
    if date > today:
        raise InvalidInput(problem(source, f"date: {date} is in the future."))
    if round is not None and not 1 <= round <= MOST_ROUNDS:
        raise InvalidInput(problem(source, f"round: {round} is not a round number."))
    event = " ".join(event.split()) if event else None
    if event is not None and len(event) > NAME_LENGTH:
        raise InvalidInput(
            problem(source, f"event: the name is longer than {NAME_LENGTH} characters.")
        )
    return NewGame(date, white, black, result, event or None, round, source, rated)
