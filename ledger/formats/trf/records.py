"""The records of a TRF tournament report, and the parts of TRF's layout that reading
(`lines`, `pairings`) and writing (`writing`) share: where the rounds' 10-column blocks
start and which pair of result codes means which result.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ledger.core.domain import ByeKind, GameResult
from ledger.core.records import FileWarning

FIRST_ROUND_COLUMN = 92
ROUND_WIDTH = 10
RESULTS = {
    ("1", "0"): (GameResult.WHITE_WINS, True),
    ("0", "1"): (GameResult.BLACK_WINS, True),
    ("=", "="): (GameResult.DRAW, True),
    ("W", "L"): (GameResult.WHITE_WINS, False),
    ("L", "W"): (GameResult.BLACK_WINS, False),
    ("D", "D"): (GameResult.DRAW, False),
    ("+", "-"): (GameResult.WHITE_WINS_BY_FORFEIT, False),
    ("-", "+"): (GameResult.BLACK_WINS_BY_FORFEIT, False),
    ("-", "-"): (GameResult.DOUBLE_FORFEIT, False),
}
"""(White's code, Black's code) -> the result and whether the codes say it is rated."""
BYE_KINDS = {kind.code: kind for kind in ByeKind}
"""A bye's code -> the kind of round without a game it is."""
BYE_CODES = {kind: kind.code for kind in ByeKind}
HALF_POINTS = (
    dict.fromkeys("1W+", 2)
    | dict.fromkeys("=D", 1)
    | dict.fromkeys("0L-", 0)
    | {kind.code: kind.score // 50 for kind in ByeKind}
)
"""Each code's score in half points, FIDE's defaults (`ByeKind.score` for the byes)."""
OWN_SCORING = ("162", "XXS")
"""The records by which a report scores otherwise than FIDE's defaults (TRF-2026's point
system, JaVaFo's scoring): its points are then its own."""


@dataclass(frozen=True, slots=True)
class TrfEvent:
    """The event, from the header records 012 to 132."""

    name: str
    city: str | None
    federation: str | None
    start_date: dt.date | None
    end_date: dt.date | None
    round_dates: tuple[dt.date | None, ...]
    """The 132 record's date of round r at index r - 1; it may list fewer rounds than there are."""
    records: tuple[str, ...] = ()
    """The records the report keeps as it wrote them (`ledger.formats.trf.header`): its other
    tournament records (the arbiters, the type, the time control, ...), the pairing programs'
    records, the team records (013; TRF-2026's 300, 310, 320) and a federation's own
    records, whole lines in the report's order."""


@dataclass(frozen=True, slots=True)
class TrfPlayer:
    """A player of a 001 line; `line` is its line number in the file."""

    rank: int
    """The starting rank, the number by which the report's rounds name the player."""
    sex: str | None
    title: str | None
    name: str
    rating: int | None
    federation: str | None
    fide_id: int | None
    birth_year: int | None
    line: int
    place: int | None = None
    """The final ranking (columns 86-89): where the report ranks the player."""
    points: int | None = None
    """The points (columns 81-84), in hundredths: the report's own score of the player."""


@dataclass(frozen=True, slots=True)
class TrfGame:
    """A pairing, once, with its result from White's side and the date of its round (132),
    else the event's end date."""

    round: int
    white: int
    black: int
    result: GameResult
    rated: bool
    """False for the not-rated codes W, D and L and for every forfeit."""
    date: dt.date
    lines: tuple[int, int]
    """The 001 lines of White and of Black, which both list the game."""
    colours: bool = True
    """False for a forfeit the report gives without colours (`-` in both blocks): White and
    Black are then the lower and higher starting rank, and a report writes none again."""


@dataclass(frozen=True, slots=True)
class TrfBye:
    """A round without a game for one player, dated like a game."""

    round: int
    player: int
    code: str
    """H half-point bye, F full-point bye, U pairing-allocated bye, Z zero-point bye."""
    date: dt.date
    line: int


@dataclass(frozen=True, slots=True)
class TournamentReport:
    """A whole report: the event, its players by starting rank, its games and its byes, and
    the warnings its reading gave (fields the format marks "warning if wrong", left empty)."""

    event: TrfEvent
    players: list[TrfPlayer]
    games: list[TrfGame]
    """Each pairing once, by round and then White's starting rank."""
    byes: list[TrfBye]
    warnings: tuple[FileWarning, ...] = ()


def rank_of(player: TrfPlayer) -> int:
    """The player's starting rank, the order of a report's players."""
    return player.rank


def nearest_year(two_digits: int, near: int) -> int:
    """The year written with the `two_digits` (95) nearest the year `near` (1995 near 1996,
    2000 near 1999)."""
    candidates = (near // 100 * 100 + two_digits + shift for shift in (-100, 0, 100))
    return min(candidates, key=lambda year: abs(year - near))
