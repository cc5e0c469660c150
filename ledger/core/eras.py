"""FIDE's rating rules by their date: each era of the Rating Regulations (handbook B.02) as
data, with the first period it rates and its source.

FIDE changes its regulations from a date (B.02 0.1: "on 1st July of the year following the
decision", later also other months); a period is rated by the rules in force in it, so the
games of 2009-06 (rated on the list of July 2009) keep the rule of 350 and those of 2009-07
take the rule of 400. `era_of` finds the era of a period; `ledger.core.rules` reads every
number it needs from it, so a rule is still one function there, now with the era's values.
docs/rules.md shows the table of eras with its sources and what is left out.
"""

from __future__ import annotations

import bisect
import functools
from dataclasses import dataclass

from ledger.core.domain import Period


@dataclass(frozen=True, slots=True, kw_only=True)
class Era:
    """The rules FIDE applied to the periods from `first_period` until the next era.

    K (8.3.3): `k_new_player` below 30 rated games, `k_established` after, `k_ever_2400`
    once the published rating has reached 2400, `k_junior` for a junior under 2300 (None:
    no junior line).
    The difference cap (8.3.1): `difference_cap`, the rule of 350 / 400;
    `cap_once_per_event`, a player benefits from it in one game an event only, the one of
    the greatest difference (their other games use the actual difference);
    `cap_exempt_rating`, standard players rated this or more use the actual difference
    (None: no exemption).
    `k_product_cap`: K x games may not exceed it (None: no cap). `wide_pairings_unrated`:
    rapid and blitz games 600+ apart, one side above 2600, are not rated.
    First ratings (8.2): at least `initial_min_games` games; `initial_dummy_draws` draws
    against 1800-rated opponents added; capped at `initial_rating_cap` (None: no cap);
    `initial_bonus_per_half_point`: the older method, where a score of 50 % or more adds
    half the new player's K for each half point above 50 % (`rules.initial_bonus`) and a
    lower score dp from table 8.1.1; else table 8.1.1 gives dp at every score.
    """

    name: str
    first_period: Period
    source: str
    k_new_player: int
    k_established: int
    k_ever_2400: int
    k_junior: int | None
    difference_cap: int
    cap_once_per_event: bool
    cap_exempt_rating: int | None
    k_product_cap: int | None
    wide_pairings_unrated: bool
    initial_min_games: int
    initial_dummy_draws: int
    initial_rating_cap: int | None
    initial_bonus_per_half_point: bool


_BEFORE_2009 = Era(
    name="FIDE rules before July 2009",
    first_period=Period(2006, 7),
    source=(
        "FIDE Rating Regulations (B.02) as amended by the General Assemblies through 2008: "
        "K 25 / 15 / 10, the rule of 350, first ratings on 9 games"
    ),
    k_new_player=25,
    k_established=15,
    k_ever_2400=10,
    k_junior=None,
    difference_cap=350,
    cap_once_per_event=False,
    cap_exempt_rating=None,
    k_product_cap=None,
    wide_pairings_unrated=False,
    initial_min_games=9,
    initial_dummy_draws=0,
    initial_rating_cap=None,
    initial_bonus_per_half_point=True,
)

_JULY_2009 = Era(
    name="FIDE rules of July 2009",
    first_period=Period(2009, 7),
    source=(
        "FIDE Rating Regulations (B.02) in force from 1 July 2009; FIDE news of 13 July "
        "2009, 'Changes to Title and Rating Regulations effective from July 1st 2009': the "
        "rule of 400 replaces the rule of 350, K stays 25 / 15 / 10"
    ),
    k_new_player=25,
    k_established=15,
    k_ever_2400=10,
    k_junior=None,
    difference_cap=400,
    cap_once_per_event=False,
    cap_exempt_rating=None,
    k_product_cap=None,
    wide_pairings_unrated=False,
    initial_min_games=9,
    initial_dummy_draws=0,
    initial_rating_cap=None,
    initial_bonus_per_half_point=True,
)

_JULY_2011 = Era(
    name="FIDE rules of July 2011",
    first_period=Period(2011, 7),
    source=(
        "FIDE Rating Regulations (B.02) in force from 1 July 2011: K 30 for a player new "
        "to the list (25 before), 15 / 10 unchanged; first ratings on 5 games"
    ),
    k_new_player=30,
    k_established=15,
    k_ever_2400=10,
    k_junior=None,
    difference_cap=400,
    cap_once_per_event=False,
    cap_exempt_rating=None,
    k_product_cap=None,
    wide_pairings_unrated=False,
    initial_min_games=5,
    initial_dummy_draws=0,
    initial_rating_cap=None,
    initial_bonus_per_half_point=True,
)

_JULY_2014 = Era(
    name="FIDE rules of July 2014",
    first_period=Period(2014, 7),
    source=(
        "FIDE Rating Regulations (B.02) in force from 1 July 2014, article 8.56: K 40 / "
        "20 / 10, K 40 for a junior under 2300"
    ),
    k_new_player=40,
    k_established=20,
    k_ever_2400=10,
    k_junior=40,
    difference_cap=400,
    cap_once_per_event=False,
    cap_exempt_rating=None,
    k_product_cap=None,
    wide_pairings_unrated=False,
    initial_min_games=5,
    initial_dummy_draws=0,
    initial_rating_cap=None,
    initial_bonus_per_half_point=True,
)

_JULY_2015 = Era(
    name="FIDE rules of July 2015",
    first_period=Period(2015, 7),
    source=(
        "FIDE Rating Regulations (B.02) from 1 July 2015 (ledger's choice of month): K x "
        "games at most 700 (8.56, later 8.3.3), absent from the text of July 2014"
    ),
    k_new_player=40,
    k_established=20,
    k_ever_2400=10,
    k_junior=40,
    difference_cap=400,
    cap_once_per_event=False,
    cap_exempt_rating=None,
    k_product_cap=700,
    wide_pairings_unrated=False,
    initial_min_games=5,
    initial_dummy_draws=0,
    initial_rating_cap=None,
    initial_bonus_per_half_point=True,
)

_JANUARY_2022 = Era(
    name="FIDE rules of January 2022",
    first_period=Period(2022, 1),
    source=(
        "FIDE Rating Regulations (B.02) in force from 1 January 2022, 8.3.1: in any "
        "tournament a player may benefit from only one upgrade under the rule of 400, for "
        "the game in which the rating difference is greatest"
    ),
    k_new_player=40,
    k_established=20,
    k_ever_2400=10,
    k_junior=40,
    difference_cap=400,
    cap_once_per_event=True,
    cap_exempt_rating=None,
    k_product_cap=700,
    wide_pairings_unrated=False,
    initial_min_games=5,
    initial_dummy_draws=0,
    initial_rating_cap=None,
    initial_bonus_per_half_point=True,
)

_MARCH_2024 = Era(
    name="FIDE rules of March 2024",
    first_period=Period(2024, 3),
    source=(
        "FIDE Rating Regulations (B.02) in force from 1 March 2024, article 8.2: first "
        "ratings with two draws against 1800, capped at 2200; the rule of 400 again in "
        "every game"
    ),
    k_new_player=40,
    k_established=20,
    k_ever_2400=10,
    k_junior=40,
    difference_cap=400,
    cap_once_per_event=False,
    cap_exempt_rating=None,
    k_product_cap=700,
    wide_pairings_unrated=False,
    initial_min_games=5,
    initial_dummy_draws=2,
    initial_rating_cap=2200,
    initial_bonus_per_half_point=False,
)

_DECEMBER_2024 = Era(
    name="FIDE rules of December 2024",
    first_period=Period(2024, 12),
    source=(
        "FIDE rating rules summary, section 2, from December 2024: a rapid or blitz game "
        "between players 600 or more apart, one above 2600, is not rated"
    ),
    k_new_player=40,
    k_established=20,
    k_ever_2400=10,
    k_junior=40,
    difference_cap=400,
    cap_once_per_event=False,
    cap_exempt_rating=None,
    k_product_cap=700,
    wide_pairings_unrated=True,
    initial_min_games=5,
    initial_dummy_draws=2,
    initial_rating_cap=2200,
    initial_bonus_per_half_point=False,
)

_OCTOBER_2025 = Era(
    name="FIDE rules of October 2025",
    first_period=Period(2025, 10),
    source=(
        "FIDE Rating Regulations (B.02) of 1 March 2024 with 8.3.1 as amended from "
        "1 October 2025: standard players rated 2650 or more use the actual difference"
    ),
    k_new_player=40,
    k_established=20,
    k_ever_2400=10,
    k_junior=40,
    difference_cap=400,
    cap_once_per_event=False,
    cap_exempt_rating=2650,
    k_product_cap=700,
    wide_pairings_unrated=True,
    initial_min_games=5,
    initial_dummy_draws=2,
    initial_rating_cap=2200,
    initial_bonus_per_half_point=False,
)

ERAS = (
    _BEFORE_2009,
    _JULY_2009,
    _JULY_2011,
    _JULY_2014,
    _JULY_2015,
    _JANUARY_2022,
    _MARCH_2024,
    _DECEMBER_2024,
    _OCTOBER_2025,
)
"""Every era, oldest first. The first also rates any earlier period (ledger's choice: the
rules before July 2006 are not verified)."""

_FIRST_PERIODS = [era.first_period for era in ERAS]

CURRENT_ERA = ERAS[-1]
"""The rules in force today."""


@functools.cache  # each rule asks for the era of the period it rates
def era_of(period: Period) -> Era:
    """The era whose rules rate `period`: the newest that began at or before it."""
    return ERAS[max(bisect.bisect_right(_FIRST_PERIODS, period) - 1, 0)]
