"""FIDE's one-time compression of the ratings below 2000, on the list of 1 March 2024.

With the Rating Regulations in force from 1 March 2024, FIDE raised every published rating
below 2000 by 0.4 x (2000 - rating) and set the floor at 1400 (`rules.RATING_FLOORS`):
1000 became 1400, 1500 became 1700, 2000 and above stayed (FIDE QC, "New rating regulations
come into force", 1 March 2024: "all players with a rating between 1000 and 2000 will
receive a one-time increase"; the formula as the federations published it, e.g. the
Slovenian federation's "Novosti pri naslovih in ratingih FIDE", 2024: "(0.40) x (2000 -
Rating)"; in all three pools, the Norwegian federation, 20 February 2024). FIDE rated the
games of February 2024 under the old rules and compressed the ratings they gave: the
compression is an operation on the list of period 2024-02, after its close.

Until it is compressed, that list holds ratings below the floor it begins: the ratings from
1000 to 1399 it carried unchanged stay listed, and those its games gave are dropped
(`awaits_compression`). The same announcement gives the increase and the new floor of 1400
together, for the list of 1 March 2024 ("all players with a rating between 1000 and 2000
will receive a one-time increase, the new rating floor will be set at 1400"), from which
FIDE rated March's games: so the ledger closes no period after that list while it holds
such ratings (`rated_from_compressed_list`). **Ledger's choice**: a list of 2024-02 with no
rating below its floor is not held back (its ratings from 1400 to 1999 are compressed
only when the officer asks).
"""

from __future__ import annotations

from ledger.core import rules
from ledger.core.domain import Period
from ledger.core.printable import counted

COMPRESSED_LIST = Period(2024, 2)
"""The period whose list FIDE compressed: the list of 1 March 2024."""
ACTION = "compress-ratings"
"""The compression as the log names it: the version it publishes is known by its entry."""
COMPRESSION_CEILING = 2000
"""Ratings below this were raised."""
OLD_FLOOR = 1000
"""The floor before the compression: a rating of the period from it up is compressed, and
lands at 1400 or above."""
NEW_FLOOR = rules.rating_floor(COMPRESSED_LIST)
"""The floor the compressed list begins (7.1.4, `rules.RATING_FLOORS`): 1400."""


def compressed(rating: int) -> int:
    """The rating once compressed: raised by 0.4 x (2000 - rating) below 2000, to the nearest
    whole number (the raise is a multiple of 0.2, so never a tie: 1063 + 374.8 = 1438)."""
    if rating >= COMPRESSION_CEILING:
        return rating
    return rating + (4 * (COMPRESSION_CEILING - rating) + 5) // 10


def awaits_compression(rating: int) -> bool:
    """Whether `rating`, on the list of 2024-02 as its close published it, is below the floor
    that list begins where only the compression lifts it over: from the old floor (1000) to
    1399, which it raises to 1400-1640 (SQL twin: `services.set_rating.awaits_compression`)."""
    return OLD_FLOOR <= rating < NEW_FLOOR


def awaiting_in_words(count: int) -> str:
    """`count` ratings that await the compression, as the close and its refusal name them:
    "2 ratings from 1000 to 1399"."""
    return f"{counted(count, 'rating')} from {OLD_FLOOR} to {NEW_FLOOR - 1}"


def rated_from_compressed_list(period: Period) -> bool:
    """Whether `period` is rated from the list of 2024-02 as compressed: the period after it
    (lists are monthly in every pool since 2012), whose close must wait for the compression
    while that list holds a rating that `awaits_compression`."""
    return period - 1 == COMPRESSED_LIST
