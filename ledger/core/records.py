"""What the user asks the ledger to record: new players and reported games, validated.

The CLI and the importers both build these records; the services write them. A record may
carry its `source` (`file:line`), which prefixes every problem found with it.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import NamedTuple, TypeVar, cast

from ledger.core.domain import GameResult, Period, kept_day
from ledger.core.errors import InvalidInput, RejectedRecords
from ledger.core.fide_codes import federation_code, title_code
from ledger.core.names import has_words
from ledger.core.printable import control_character, escaped, is_c1, reordering_character
from ledger.core.rules import LISTED_K_FACTORS, rating_floor

HIGHEST_RATING = 3500
EARLIEST_BIRTH_YEAR = 1850
LARGEST_ID = 2_147_483_647
"""IDs are stored as 32-bit integers, as FIDE's are."""
MOST_GAMES = 100_000
HIGHEST_FILTER_RATING = 4000
"""The highest rating a list's filter or a report's bands may name, above any rating."""
MOST_RANKS = 1_000_000
"""The highest rank, or page of a list, that may be asked for: beyond any list."""
MOST_TOP_PLAYERS = 1_000
"""The most of a federation's players its average may take."""
MOST_ROUNDS = 1_000
NAME_LENGTH = 200
TITLE_LENGTH = 8
OTHER_TITLES_LENGTH = 100
CITY_LENGTH = 100
REASON_LENGTH = 1000
OPERATOR_LENGTH = 100
"""The lengths of the stored text columns (`ledger.storage.models`), the same on SQLite and
PostgreSQL: a text longer than its column is refused here, on either."""
MOST_DIGITS = 18
"""More digits than any stored number has (IDs have 10); a longer run of digits is refused
before it is converted, so a number of thousands of digits is one clear problem."""
T = TypeVar("T")
_NAMES_ITS_FIELD = re.compile(r"[a-z_-]+: ")
"""A problem that begins with the field it concerns (`games: ...`)."""


def problem(source: str | None, message: str) -> str:
    """A problem as one line: `file:line: message`, or the message alone."""
    return f"{source}: {message}" if source else message


@dataclass(frozen=True, slots=True)
class FileWarning:
    """Something a file's reader did not take as written, and why: a field the file's format
    marks "warning if wrong" left empty, dates read otherwise. The file is still read; a
    face lists each warning with its file and line (`file:line: field: message`)."""

    file: str
    line: int
    """The line it concerns; 0 for the whole file."""
    field: str
    """What it concerns, in the format's words ("birth date", "federation", "dates")."""
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.field}: {self.message}"


def whole_number(digits: str) -> int:
    """The number a run of digits (a sign allowed) writes; raises InvalidInput where it has
    more digits than any number the ledger stores."""
    if len(digits.lstrip("+-").lstrip("0")) > MOST_DIGITS:
        raise InvalidInput(
            f"{digits[:12]}... ({len(digits)} digits) is too large a number; "
            f"no number the ledger stores has more than {MOST_DIGITS} digits."
        )
    return int(digits)


def stored_text(field: str, text: str, length: int, source: str | None = None) -> str:
    """`text` as a text column stores it: no control characters (a tab is read as a space),
    at most `length` characters; raises InvalidInput naming the field."""
    refuse_controls(field, "the text", text, source)
    if len(text) > length:
        raise InvalidInput(
            problem(source, f"{field}: the text is longer than {length} characters.")
        )
    return text


def logged_text(field: str, text: str, length: int) -> str:
    """`text` as the log keeps it (who made a change, why): plain text of at most `length`
    characters, else InvalidInput naming the field, never cut short."""
    refuse_controls(field, "the text", text)
    if len(text) > length:
        raise InvalidInput(
            f"{field}: the text is {len(text)} characters long; the log keeps at most {length}."
        )
    return text


def refuse_controls(
    field: str, what: str, text: str, source: str | None = None, *, tab: bool = True
) -> None:
    """Raises InvalidInput where `text` holds a control character (a terminal escape, a NUL;
    a tab where `tab`, to be read as a space) or one that reorders the text shown around it
    (a right-to-left override): C1 characters come of a file read in another encoding than
    it was written in, and the message says so."""
    if text.isprintable():
        return  # no control character is printable: the common case, checked fast
    _refuse_reordering(field, what, text, source)
    character = control_character(text, tab=tab)
    if character is None:
        return
    if is_c1(character):
        hint = "the file's encoding is wrong (save it as UTF-8)"
    else:
        hint = "names, titles and events are plain text"
    raise InvalidInput(
        problem(
            source, f"{field}: {what} holds the control character {escaped(character)}; {hint}."
        )
    )


def _refuse_reordering(field: str, what: str, text: str, source: str | None) -> None:
    character = reordering_character(text)
    if character is not None:
        raise InvalidInput(
            problem(
                source,
                f"{field}: {what} holds the {unicodedata.name(character).lower()} "
                f"U+{ord(character):04X}, which reorders the text shown around it; names, "
                "titles and events are plain text.",
            )
        )


def _refuse_wordless(field: str, what: str, text: str, source: str | None) -> None:
    """Raises InvalidInput where `text` has no letter or digit: a name made of invisible
    characters (zero-width spaces, a Hangul filler) or of dots alone shows as nothing, is
    found by no search, and as an event's name is no part of a link."""
    if not has_words(text):
        raise InvalidInput(
            problem(
                source,
                f"{field}: {what} {text!r} has no letter or digit; give it one that shows.",
            )
        )


def next_free_id(highest: int | None, source: str | None = None) -> int:
    """The ID after the highest in use; raises InvalidInput when that is the largest an ID
    can be, so the ledger never hands out an ID no command can address."""
    following = (highest or 0) + 1
    if following > LARGEST_ID:
        raise InvalidInput(
            problem(
                source,
                f"id: the ledger is full at ID {LARGEST_ID}, the largest an ID can be; give "
                "the new player a lower ID that no player has (--id, or the file's id column).",
            )
        )
    return following


class StartingRating(NamedTuple):
    """A published rating carried in from an existing list: it counts as the previous list."""

    rating: int
    games: int
    ever_2400: bool
    peak: int


class NewPlayer(NamedTuple):
    """A player to record. The records are named tuples, immutable as frozen dataclasses
    are and several times cheaper to make: an import makes one for each of its rows."""

    name: str
    id: int | None = None
    fide_id: int | None = None
    federation: str | None = None
    sex: str | None = None
    title: str | None = None
    birth_year: int | None = None
    starting: StartingRating | None = None
    source: str | None = None


class NewGame(NamedTuple):
    """A game to record; `rated` is False for a game the arbiter reported as not rated
    (TRF codes W, D, L), `colours` for a forfeit reported without colours."""

    date: dt.date
    white: int
    black: int
    result: GameResult
    event: str | None = None
    round: int | None = None
    source: str | None = None
    rated: bool = True
    colours: bool = True


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


def same_game_keys(
    dates: Sequence[dt.date],
    whites: Sequence[int],
    blacks: Sequence[int],
    events: Sequence[object],
    rounds: Sequence[int | None],
) -> list[tuple[object, ...]]:
    """`same_game_key` of many games given column by column; made without a Python call per
    game where the games all have an event and round or all have neither."""
    if events.count(None) == rounds.count(None) == len(dates):
        return list(zip(dates, map(min, whites, blacks), map(max, whites, blacks), strict=True))
    if None not in events and None not in rounds:
        return list(zip(dates, whites, blacks, events, rounds, strict=True))
    return list(map(same_game_key, dates, whites, blacks, events, rounds))


def new_player(  # noqa: PLR0913 (a record's fields, each by name)
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
    """A validated new player, its title and federation as FIDE writes them
    (`ledger.core.fide_codes`); raises InvalidInput naming the bad field, RejectedRecords
    naming each where several are bad."""
    checked = _CheckedPlayer(source)
    name = checked.field("name", _player_name, name)
    for field, number in (("id", id), ("fide-id", fide_id)):
        checked.field(field, _player_id, number)
    title = checked.field("title", _title, title)
    federation = checked.field("federation", _federation, federation)
    sex = checked.field("sex", _sex, sex)
    checked.field("birth-year", _birth_year, birth_year, today)
    starting = None
    if rating is not None or games is not None or peak is not None or ever_2400:
        starting = checked.field(
            "rating",
            partial(_starting_rating, ever_2400=ever_2400, peak=peak, today=today),
            rating,
            games,
        )
    checked.refuse()
    return NewPlayer(name, id, fide_id, federation, sex, title, birth_year, starting, source)


class _CheckedPlayer(list[str]):
    """The problems found with a new player's fields, each `field: message`."""

    def __init__(self, source: str | None) -> None:
        super().__init__()
        self.source = source

    def field(self, field: str, check: Callable[..., T], *values: object) -> T:
        """`check(*values)`, or None (and the problem kept) where it raises InvalidInput."""
        try:
            return check(*values)
        except InvalidInput as error:
            message = str(error)
            self.append(message if _NAMES_ITS_FIELD.match(message) else f"{field}: {message}")
            return cast("T", None)

    def refuse(self) -> None:
        if len(self) == 1:
            raise InvalidInput(problem(self.source, self[0]))
        if self:
            raise RejectedRecords([problem(self.source, message) for message in self])


def _player_name(name: str) -> str:
    refuse_controls("name", "the name", name)
    name = " ".join(name.split())
    if not name:
        raise InvalidInput("a player needs a name.")
    _refuse_wordless("name", "the name", name, None)
    if len(name) > NAME_LENGTH:
        raise InvalidInput(f"the name is longer than {NAME_LENGTH} characters.")
    return name


def _player_id(number: int | None) -> None:
    if number is not None and not 1 <= number <= LARGEST_ID:
        raise InvalidInput(f"{number} is not a valid ID; IDs run from 1 to {LARGEST_ID}.")


def _title(title: str | None) -> str | None:
    if title is None or not title.strip():
        return None
    refuse_controls("title", "the title", title, tab=False)
    return title_code(title)


def _federation(federation: str | None) -> str | None:
    return None if federation is None or not federation.strip() else federation_code(federation)


def _sex(sex: str | None) -> str | None:
    if sex is not None and (sex := sex.upper()) not in ("M", "F"):
        raise InvalidInput(f"{sex!r} is not M or F.")
    return sex


def _birth_year(birth_year: int | None, today: dt.date) -> None:
    if birth_year is not None and not EARLIEST_BIRTH_YEAR <= birth_year <= today.year:
        raise InvalidInput(f"{birth_year} is not a birth year.")


def _bad(source: str | None, field: str, message: str) -> InvalidInput:
    return InvalidInput(problem(source, f"{field}: {message}"))


def _starting_rating(
    rating: int | None,
    games: int | None,
    *,
    ever_2400: bool,
    peak: int | None,
    today: dt.date,
) -> StartingRating:
    """The starting rating a new player's figures give, a rating the list in force `today`
    may hold (its floor: `rules.rating_floor`); raises InvalidInput naming the field at
    fault."""
    if rating is None:
        raise _bad(None, "rating", "games, peak and the 2400 flag need a starting rating.")
    floor = rating_floor(Period.of(today) - 1)
    if not floor <= rating <= HIGHEST_RATING:
        raise _bad(
            None,
            "rating",
            f"{rating} cannot be a published rating; ratings run from {floor} "
            f"(FIDE 7.1.4) to {HIGHEST_RATING}.",
        )
    if games is None or not 0 <= games <= MOST_GAMES:
        raise _bad(
            None,
            "games",
            f"a starting rating needs the number of rated games completed (0 to {MOST_GAMES}).",
        )
    if peak is not None and not rating <= peak <= HIGHEST_RATING:
        raise _bad(
            None,
            "peak",
            f"the peak {peak} must lie between the rating {rating} and {HIGHEST_RATING}.",
        )
    peak = peak if peak is not None else rating
    return StartingRating(rating, games, ever_2400 or peak >= 2400, peak)


def new_game(  # noqa: PLR0913 (a record's fields, each by name)
    *,
    date: dt.date,
    white: int,
    black: int,
    result: GameResult,
    event: str | None = None,
    round: int | None = None,
    source: str | None = None,
    rated: bool = True,
    colours: bool = True,
    today: dt.date,
) -> NewGame:
    """A validated new game; raises InvalidInput naming the first bad field.

    A game cannot be dated after `today`: its result is not known yet.
    """
    if not (1 <= white <= LARGEST_ID and 1 <= black <= LARGEST_ID):
        for field, player in (("white", white), ("black", black)):
            if not 1 <= player <= LARGEST_ID:
                raise _bad(
                    source, field, f"{player} is not a valid ID; IDs run from 1 to {LARGEST_ID}."
                )
    if white == black:
        raise _bad(source, "black", f"player {white} cannot play themselves.")
    try:
        kept_day(date)
    except InvalidInput as error:
        raise _bad(source, "date", str(error)) from None
    if date > today:
        raise _bad(source, "date", f"{date} is in the future.")
    if round is not None and not 1 <= round <= MOST_ROUNDS:
        raise _bad(source, "round", f"{round} is not a round number.")
    if event:
        event = event_name(event, source)
    return NewGame(date, white, black, result, event or None, round, source, rated, colours)


def event_name(name: str, source: str | None = None) -> str:
    """An event's name as the ledger records it, whitespace collapsed (empty: no event);
    raises InvalidInput where it cannot be one."""
    refuse_controls("event", "the name", name, source)
    name = " ".join(name.split())
    if len(name) > NAME_LENGTH:
        raise _bad(source, "event", f"the name is longer than {NAME_LENGTH} characters.")
    if name:
        _refuse_wordless("event", "the name", name, source)
    return name


def listed_figures(pool: str, games: int, k: int | None, source: str | None = None) -> None:
    """Refuse the games and K of a published list's row that no list can hold: more games
    than a player completes, a K that no list has given (`rules.LISTED_K_FACTORS`)."""
    if not 0 <= games <= MOST_GAMES:
        raise InvalidInput(
            problem(source, f"{pool} games: {games} is more games than a list holds.")
        )
    if k is not None and k not in LISTED_K_FACTORS:
        factors = ", ".join(str(factor) for factor in sorted(LISTED_K_FACTORS, reverse=True))
        raise InvalidInput(
            problem(
                source,
                f"{pool} K: {k} is not a K factor; a list gives one of {factors} (8.3.3).",
            )
        )
