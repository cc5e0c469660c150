"""The FIDE rating rules (Rating Regulations B.02), as pure functions on plain values.

Everything that decides a published number lives here, once: expected scores (table 8.1.2),
the rule of 350 / 400 and its 2650 exception (8.3.1), K and the line of 8.3.3 that gives it,
the 700 cap, the rating change and its rounding (8.3.2, 8.3.4), the rating floor (7.1.4), the
2400 flag and the peak, a player's standing once a list is published, first ratings and
their pooling window (8.2) and the inactivity flag (7.2.2). Scores, expected scores and sums
are integer hundredths, so every result is exact; no binary floats. Nothing here touches a
database, a file or the clock.

FIDE's rules changed over the years: a rule takes the period it rates, and reads the values
of that period's era (`ledger.core.eras`: K, the difference cap, the 700 cap, first
ratings), so the same function rates 2008 by the rules of 2008 and today by today's.

The close rates a whole period in SQL: where it needs a rule there,
`ledger.services.set_rating` holds the one SQL expression of it, built from these functions
and constants, and `tests/test_set_rating.py` holds each expression to its function here on
both backends. The close, the live list, `explain`, `calc` and the web read these and
nothing else.
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Protocol

from ledger.core.domain import Period, Pool
from ledger.core.eras import ERAS, Era, era_of
from ledger.core.tables import EXPECTED_SCORE_BANDS, RATING_DIFFERENCE_BY_SCORE

RATING_FLOORS = (
    (Period(1, 1), 1200),
    (Period(2012, 6), 1000),
    (Period(2024, 2), 1400),
)
"""7.1.4: a rating below the floor of its list is not published; the player becomes unrated
(`rating_floor`). The starting ratings the ledger accepts begin at the floor of the list in
force on the day (`ledger.core.records`). The floor of the lists from each period on, each
the first list of its floor (the list of a period takes effect on the first of the next
month):
- 1200 up to the list of 1 May 2012: FIDE's floor from 1 July 2009 (period 2009-06), FIDE
  Rating Regulations as amended by the 2008 General Assembly, 0.6 ("after 1.7.2009 the floor
  will be 1200"). FIDE's older, higher floors are not kept: **ledger's choice**, a list
  imported from before July 2009 keeps its rows down to 1200.
- 1000 for the lists from 1 July 2012 (period 2012-06): lowered by FIDE's Presidential
  Board of June 2011 with the monthly lists (FIDE news, reported 8 June 2011), in the
  regulations in force from 1 July 2012 ("whose rating is at least 1000").
- 1400 for the lists from 1 March 2024 (period 2024-02): FIDE Rating Regulations in force
  from 1 March 2024, 7.1.4 (FIDE QC, "New rating regulations come into force", 1 March 2024).
"""

LISTED_K_FACTORS = frozenset((40, 30, 25, 20, 15, 10))
"""The K factors a published list gives for the next period: 40, 20 and 10 under 8.3.3
(since July 2014); 30, 25 and 15 on FIDE's lists before (`ledger.core.eras`)."""

WIDE_PAIRING_GAP = 600
WIDE_PAIRING_TOP_RATING = 2600
"""Rapid and blitz from 2024-12 (`Era.wide_pairings_unrated`): players 600+ apart, one
above 2600, are not rated."""

EVER_2400 = 2400
JUNIOR_RATING_LIMIT = 2300
JUNIOR_MAX_AGE = 18
ESTABLISHED_GAMES = 30

INITIAL_RATING_DUMMY_OPPONENT = 1800
INITIAL_RATING_WINDOW_MONTHS = 26
"""8.2: an initial rating pools games over consecutive periods spanning at most 26 months."""

INACTIVITY_PERIODS = 12
"""7.2.2: no rated game in this many periods ending with the list's period means inactive."""

_BAND_STARTS = [band[0] for band in EXPECTED_SCORE_BANDS]
TABLE_REACH = _BAND_STARTS[-1]
"""Table 8.1.2's open last band starts at this |D|: every larger |D| has the same PD, so a
look-up of PD by D from -TABLE_REACH to TABLE_REACH, D held within it, covers every D."""

_PD_HIGH_BY_DIFFERENCE = tuple(
    EXPECTED_SCORE_BANDS[bisect.bisect_right(_BAND_STARTS, difference) - 1][2]
    for difference in range(TABLE_REACH + 1)
)
"""Table 8.1.2 unfolded: the higher-rated side's PD for every |D| up to the open last band."""


def expected_score(difference: int) -> int:
    """PD in hundredths for a player whose rating difference D is `difference` (table 8.1.2).

    The higher-rated side gets `pd_high`, the lower-rated side 100 minus it; |D| of 0-3
    gives 50 to both.
    """
    pd_high = _PD_HIGH_BY_DIFFERENCE[min(abs(difference), TABLE_REACH)]
    return pd_high if difference >= 0 else 100 - pd_high


_PD_BY_DIFFERENCE = tuple(
    expected_score(difference) for difference in range(-TABLE_REACH, TABLE_REACH + 1)
)
"""Table 8.1.2 as PD for every D from -TABLE_REACH up."""


@dataclass(frozen=True, slots=True)
class PeriodPairings:
    """The pairing rules of one pool and period, decided once from its era
    (`ledger.core.eras`) so that a close applies them to each of its games with integer
    arithmetic alone.

    `difference_cap`: the rule of 350 (before July 2009) or of 400 (8.3.1).
    `cap_once_per_event`: from January 2022 to February 2024, a player benefits from the
    cap in one game an event only (`event_differences`).
    `cap_exempt_from`: the rating from which a player's D is the actual difference (8.3.1 as
    amended from 2025-10, standard only; None: the cap holds for everyone).
    `wide_pairings_unrated`: rapid and blitz from 2024-12, a game between players 600 or
    more points apart, one of them rated above 2600, is not rated (FIDE rules summary,
    section 2).
    """

    difference_cap: int
    cap_once_per_event: bool
    cap_exempt_from: int | None
    wide_pairings_unrated: bool

    @classmethod
    def of(cls, pool: Pool, period: Period) -> PeriodPairings:
        era = era_of(period)
        standard = pool is Pool.STANDARD
        return cls(
            era.difference_cap,
            era.cap_once_per_event,
            era.cap_exempt_rating if standard else None,
            not standard and era.wide_pairings_unrated,
        )

    def difference(self, own: int, opponent: int, *, upgraded: bool = True) -> int:
        """D = own rating minus the opponent's, after the rule of 350 / 400 (8.3.1), from
        the point of view of the player being rated: the two sides of one game can use
        different D. `upgraded`: where the cap applies once an event, whether this is the
        game of the event it applies to; the player's other games above the cap use the
        actual difference (the side below the cap is always held to it)."""
        difference = own - opponent
        if self.cap_exempt_from is not None and own >= self.cap_exempt_from:
            return difference
        if self.cap_once_per_event and not upgraded and difference > self.difference_cap:
            return difference
        return max(-self.difference_cap, min(self.difference_cap, difference))

    def event_differences(self, own: int, opponents: Sequence[int]) -> list[int]:
        """D for each of one player's games of one event, in their order (8.3.1). From
        January 2022 to February 2024 (`cap_once_per_event`) "a player may benefit from
        only one upgrade under this rule, for the game in which the rating difference is
        greatest": that game (the first of equal ones, ledger's choice) takes the cap, the
        player's other games above it the actual difference."""
        upgraded = upgraded_game([own - opponent for opponent in opponents], self)
        return [
            self.difference(own, opponent, upgraded=index == upgraded)
            for index, opponent in enumerate(opponents)
        ]

    def rateable(self, white: int, black: int) -> bool:
        """Whether a played game between two rated players is rated at all."""
        return (
            not self.wide_pairings_unrated
            or abs(white - black) < WIDE_PAIRING_GAP
            or max(white, black) <= WIDE_PAIRING_TOP_RATING
        )

    def expected_scores(self, white: int, black: int) -> tuple[int, int] | None:
        """Each side's PD in hundredths for a played game between two rated players, the
        rule of 350 / 400 applied for each side separately (8.3.1); None when the pairing
        is not rated at all.

        Where neither side is exempt from the cap, the two D are opposite and table 8.1.2
        gives the lower side 100 minus the higher side's PD, so one look-up serves both (a
        close asks this of every game).
        """
        if self.wide_pairings_unrated and not self.rateable(white, black):
            return None
        exempt = self.cap_exempt_from
        if exempt is None or (white < exempt and black < exempt):
            cap = self.difference_cap
            difference = max(-cap, min(cap, white - black))
            white_expected = _PD_BY_DIFFERENCE[difference + TABLE_REACH]
            return white_expected, 100 - white_expected
        return (
            expected_score(self.difference(white, black)),
            expected_score(self.difference(black, white)),
        )


def upgraded_game(differences: Sequence[int], pairings: PeriodPairings) -> int | None:
    """Where the cap applies once an event (8.3.1 from January 2022 to February 2024): the
    index of the game, among one player's games of one event with these actual differences,
    whose difference the cap holds: the greatest above the cap, the first of equal ones;
    None where no game is above it or the cap applies to every game."""
    above = [
        (-difference, index)
        for index, difference in enumerate(differences)
        if difference > pairings.difference_cap
    ]
    if not pairings.cap_once_per_event or not above:
        return None
    return min(above)[1]


@dataclass(frozen=True, slots=True)
class PairedGame:
    """A played and rated game of a period between two rated players, for
    `period_expected_scores`: the players, the event (None: an event of its own) and the
    ratings in force."""

    white: int
    black: int
    event: int | None
    white_rating: int
    black_rating: int


def period_expected_scores(
    pairings: PeriodPairings, games: Sequence[PairedGame]
) -> list[tuple[int, int] | None]:
    """Each side's PD for each of a period's `games`, in their order (the order they were
    recorded), as the close takes them (8.3.1): `PeriodPairings.expected_scores`, except
    that where the cap applies once an event each side's one upgrade an event is found
    (`upgraded_game`) and the side's other games above the cap use the actual difference."""
    if not pairings.cap_once_per_event:
        return [pairings.expected_scores(game.white_rating, game.black_rating) for game in games]
    events: dict[tuple[int, tuple[str, int]], list[tuple[int, int]]] = {}
    for index, game in enumerate(games):
        if pairings.rateable(game.white_rating, game.black_rating):
            event = ("game", index) if game.event is None else ("event", game.event)
            for player, difference in (
                (game.white, game.white_rating - game.black_rating),
                (game.black, game.black_rating - game.white_rating),
            ):
                events.setdefault((player, event), []).append((index, difference))
    upgraded = set()
    for (player, _), played in events.items():
        chosen = upgraded_game([difference for _, difference in played], pairings)
        if chosen is not None:
            upgraded.add((played[chosen][0], player))
    return [
        _expected_once_an_event(
            pairings,
            game,
            white_upgraded=(index, game.white) in upgraded,
            black_upgraded=(index, game.black) in upgraded,
        )
        for index, game in enumerate(games)
    ]


def _expected_once_an_event(
    pairings: PeriodPairings, game: PairedGame, *, white_upgraded: bool, black_upgraded: bool
) -> tuple[int, int] | None:
    """Each side's PD for one game where the cap applies once an event."""
    white, black = game.white_rating, game.black_rating
    if not pairings.rateable(white, black):
        return None
    return (
        expected_score(pairings.difference(white, black, upgraded=white_upgraded)),
        expected_score(pairings.difference(black, white, upgraded=black_upgraded)),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class RulesInForce:
    """The rules a pool's period is rated by, as every face names them: the era
    (`ledger.core.eras`) with its first period and source, the difference cap, whether it
    applies once an event, and the rating from which it does not apply (8.3.1), the cap on
    K x games (8.3.3; None: none) and the rating floor (7.1.4)."""

    era: str
    first_period: Period
    source: str
    difference_cap: int
    cap_once_per_event: bool
    cap_exempt_from: int | None
    k_product_cap: int | None
    floor: int

    @property
    def summary(self) -> str:
        """The rules in words, the same on every face: "FIDE rules of July 2015 (from
        2015-07): difference cap 400, K x games at most 700, floor 1000"."""
        exempt = f" (none from {self.cap_exempt_from})" if self.cap_exempt_from else ""
        exempt += " (once an event)" if self.cap_once_per_event else ""
        product = (
            "no cap on K x games"
            if self.k_product_cap is None
            else f"K x games at most {self.k_product_cap}"
        )
        return (
            f"{self.era} (from {self.first_period}): difference cap {self.difference_cap}"
            f"{exempt}, {product}, floor {self.floor}"
        )


def rules_in_force(pool: Pool, period: Period) -> RulesInForce:
    """The rules `period` of `pool` is rated by (`RulesInForce`)."""
    era = era_of(period)
    pairings = PeriodPairings.of(pool, period)
    return RulesInForce(
        era=era.name,
        first_period=era.first_period,
        source=era.source,
        difference_cap=pairings.difference_cap,
        cap_once_per_event=pairings.cap_once_per_event,
        cap_exempt_from=pairings.cap_exempt_from,
        k_product_cap=era.k_product_cap,
        floor=rating_floor(period),
    )


def rating_difference(own: int, opponent: int, pool: Pool, period: Period) -> int:
    """D = own rating minus the opponent's, after the rule of 350 / 400 (8.3.1,
    `PeriodPairings`)."""
    return PeriodPairings.of(pool, period).difference(own, opponent)


def is_rateable_pairing(pool: Pool, period: Period, white: int, black: int) -> bool:
    """Whether a played game between two rated players is rated at all (`PeriodPairings`)."""
    return PeriodPairings.of(pool, period).rateable(white, black)


def expected_scores(pool: Pool, period: Period, white: int, black: int) -> tuple[int, int] | None:
    """Each side's PD in hundredths for a played game between two rated players, or None
    when the pairing is not rated at all (`PeriodPairings`)."""
    return PeriodPairings.of(pool, period).expected_scores(white, black)


@dataclass(frozen=True, slots=True)
class RatingState:
    """A player's standing on a published list: what K and the next change depend on."""

    rating: int
    games_completed: int
    ever_2400: bool
    peak: int
    birth_year: int | None

    @classmethod
    def of(cls, standing: Rated) -> RatingState:
        """The state of a rated player's `standing` (a row of the close, of the live list)."""
        assert standing.rating is not None
        return cls(
            standing.rating,
            standing.games_completed,
            standing.ever_2400,
            standing.peak,
            standing.birth_year,
        )


class Rated(Protocol):
    """A standing as the close and the live list hold it: `rating` None while unrated."""

    @property
    def rating(self) -> int | None: ...
    @property
    def games_completed(self) -> int: ...
    @property
    def ever_2400(self) -> bool: ...
    @property
    def peak(self) -> int: ...
    @property
    def birth_year(self) -> int | None: ...


class KRule(Enum):
    """The line of 8.3.3 that decides a player's K; the K of each line is its era's
    (`k_of`)."""

    EVER_2400 = "ever_2400"
    JUNIOR = "junior"
    FEWER_THAN_30_GAMES = "fewer_than_30_games"
    ESTABLISHED = "established"

    @property
    def key(self) -> str:
        return self.value

    @classmethod
    def from_key(cls, key: str) -> KRule:
        return cls(key)


def k_lines(era: Era) -> dict[KRule, int]:
    """The lines of 8.3.3 in force in `era`, each with its K, in the order they are
    tried (`standing_k_rule`): the junior line only from July 2014."""
    lines = {KRule.EVER_2400: era.k_ever_2400}
    if era.k_junior is not None:
        lines[KRule.JUNIOR] = era.k_junior
    lines[KRule.FEWER_THAN_30_GAMES] = era.k_new_player
    lines[KRule.ESTABLISHED] = era.k_established
    return lines


@functools.cache  # a whole list's rows each ask for their period's K
def k_of(rule: KRule, period: Period) -> int:
    """The K that line `rule` of 8.3.3 gives in `period` (its era's, `k_lines`)."""
    return k_lines(era_of(period))[rule]


def k_rule(state: RatingState, period: Period) -> KRule:
    """The line of 8.3.3 that decides K for all the player's games of `period`, from the
    list in force at its start.

    Ledger's choice of precedence, the one FIDE's published lists follow:
    1. K 10 once the published rating has ever reached 2400;
    2. from July 2014, K 40 for a junior (period year minus birth year at most 18) whose
       published rating has never reached 2300;
    3. the new player's K (40; 30 from July 2011, 25 before) while fewer than 30 rated
       games are completed;
    4. the established K (20; 15 before July 2014) otherwise.
    """
    return standing_k_rule(
        state.games_completed,
        ever_2400=state.ever_2400,
        peak=state.peak,
        birth_year=state.birth_year,
        period=period,
    )


def standing_k_rule(
    games_completed: int, *, ever_2400: bool, peak: int, birth_year: int | None, period: Period
) -> KRule:
    """`k_rule` (8.3.3) on the fields of a standing it reads, without making a
    `RatingState`: for the K of each of a whole list's players who did not play, a
    million on FIDE's list."""
    if ever_2400:
        return KRule.EVER_2400
    if (
        era_of(period).k_junior is not None
        and is_junior(birth_year, period)
        and peak < JUNIOR_RATING_LIMIT
    ):
        return KRule.JUNIOR
    if games_completed < ESTABLISHED_GAMES:
        return KRule.FEWER_THAN_30_GAMES
    return KRule.ESTABLISHED


def development_coefficient(state: RatingState, period: Period) -> int:
    """K for all the player's games of `period` (8.3.3), before the 700 cap."""
    return k_of(k_rule(state, period), period)


def k_reason(
    rule: KRule, k_applied: int, games: int, birth_year: int | None, period: Period
) -> str:
    """The K applied in `period`, in words: "K 38: 40 capped by 700 / 18 games"."""
    k = k_of(rule, period)
    if k_applied < k:
        cap = era_of(period).k_product_cap
        return f"K {k_applied}: {k} capped by {cap} / {games} games"
    return (
        f"K {k_applied}: "
        + {
            KRule.EVER_2400: "the published rating has reached 2400",
            KRule.JUNIOR: f"junior (born {birth_year}) under {JUNIOR_RATING_LIMIT}",
            KRule.FEWER_THAN_30_GAMES: f"fewer than {ESTABLISHED_GAMES} rated games",
            KRule.ESTABLISHED: f"{ESTABLISHED_GAMES} or more rated games, never 2400",
        }[rule]
    )


_NEW_PLAYER_K_FACTORS = frozenset(era.k_new_player for era in ERAS)


def games_consistent_with_k(k: int | None, games_in_period: int) -> int:
    """Rated games completed for a player known only from a published list, chosen so that
    8.3.3 gives the list's K again: a new player's K (40; 30 or 25 on older lists) means
    fewer than 30 games, so the period's games, at most 29; any other K (or none) means at
    least 30.

    K 40 for a junior allows either count; ledger's choice is the same as for an adult.
    """
    if k in _NEW_PLAYER_K_FACTORS:
        return min(games_in_period, ESTABLISHED_GAMES - 1)
    return ESTABLISHED_GAMES


def is_junior(birth_year: int | None, period: Period) -> bool:
    """8.3.3: a junior until the end of the year of the 18th birthday."""
    return birth_year is not None and birth_year >= junior_born_from(period)


def junior_born_from(period: Period) -> int:
    """8.3.3: the earliest birth year of a junior in `period` (the year of the 18th
    birthday is the last as a junior)."""
    return period.year - JUNIOR_MAX_AGE


def capped_k(k: int, games: int, period: Period) -> int:
    """8.3.3, from July 2015: if games x K exceeds 700, K is the largest whole number with
    K x games <= 700 (`Era.k_product_cap`; no cap before)."""
    cap = era_of(period).k_product_cap
    if games == 0 or cap is None:
        return k
    return min(k, cap // games)


def round_half_away_from_zero(hundredths: int) -> int:
    """A value in hundredths rounded to a whole number, 0.5 away from zero (8.3.4)."""
    whole, rest = divmod(abs(hundredths), 100)
    rounded = whole + (1 if rest >= 50 else 0)
    return rounded if hundredths >= 0 else -rounded


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One rated game from one player's side: the score and the expected score, hundredths."""

    score: int
    expected: int

    @property
    def delta(self) -> int:
        return game_delta(self.score, self.expected)


def game_delta(score: int, expected: int) -> int:
    """8.3.2: a game's rating change before K, in hundredths: the score minus PD."""
    return score - expected


@dataclass(frozen=True, slots=True)
class PeriodRating:
    """The outcome of one player's rated games in one period (8.3.2 - 8.3.4). `listed`: the
    new rating is published (7.1.4, `is_listed`); else the player becomes unrated."""

    games: int
    k_rule: KRule
    k_applied: int
    delta_sum: int
    k_times_sum: int
    change: int
    state: RatingState
    listed: bool


def rate_period(state: RatingState, period: Period, games: Sequence[RatedGame]) -> PeriodRating:
    """Rate one player's games of `period` from their state on the previous list.

    ΣΔR is taken over all the period's rated games, multiplied by the (capped) K and
    rounded once (8.3.4); the unrounded K x ΣΔR is kept so the change can be explained.
    """
    delta_sum = sum(game.delta for game in games)
    rule = k_rule(state, period)
    k = capped_k(k_of(rule, period), len(games), period)
    k_times_sum = k * delta_sum
    change = round_half_away_from_zero(k_times_sum)
    new_state = state_after(
        state.rating + change,
        games_completed=state.games_completed + len(games),
        ever_2400=state.ever_2400,
        peak=state.peak,
        birth_year=state.birth_year,
    )
    listed = is_listed(new_state.rating, period)
    return PeriodRating(len(games), rule, k, delta_sum, k_times_sum, change, new_state, listed)


def rating_floor(period: Period) -> int:
    """7.1.4: the lowest rating the list of `period` publishes, as FIDE's floor stood on
    that list's date (`RATING_FLOORS`)."""
    return [floor for start, floor in RATING_FLOORS if start <= period][-1]


def is_listed(rating: int, period: Period) -> bool:
    """7.1.4: whether `rating` is published on the list of `period`; below the floor
    (`rating_floor`) the player becomes unrated from that list on."""
    return rating >= rating_floor(period)


def ever_2400_after(*, ever_2400: bool, rating: int) -> bool:
    """8.3.3: whether a published rating has ever reached 2400 once `rating` is published:
    set once reached, the flag (and its K 10) stays for good."""
    return ever_2400 or rating >= EVER_2400


def peak_after(peak: int, rating: int) -> int:
    """The highest published rating once `rating` is published."""
    return max(peak, rating)


def peak_period_after(
    peak_before: int, peak_period: Period | None, peak: int, period: Period
) -> Period | None:
    """The list the peak was reached on, once the list of `period` has made it `peak`: this
    one only where the peak rose (a tie keeps the earlier list)."""
    return period if peak > peak_before else peak_period


def state_after(
    rating: int, *, games_completed: int, ever_2400: bool, peak: int, birth_year: int | None
) -> RatingState:
    """A player's state once `rating` is published, from a period's games (8.3) or as a
    first rating (8.2): `ever_2400` and `peak` are those before it (`ever_2400_after`,
    `peak_after`), `games_completed` those after it."""
    return RatingState(
        rating,
        games_completed,
        ever_2400_after(ever_2400=ever_2400, rating=rating),
        peak_after(peak, rating),
        birth_year,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class NewStanding:
    """A player's standing once the list of a period is published, as the list carries it:
    the rating reached (published only if `listed`, 7.1.4), the K of the next period
    (8.3.3; None when unrated), the rated games completed, the 2400 flag, the peak and the
    list it was reached on, and the last period active (7.2.2)."""

    rating: int
    listed: bool
    k_next: int | None
    games_completed: int
    ever_2400: bool
    peak: int
    peak_period: Period | None
    last_active: Period | None


def standing_after(
    state: RatingState,
    period: Period,
    *,
    peak_before: int,
    peak_period_before: Period | None,
    last_active: Period | None,
) -> NewStanding:
    """The standing the list of `period` gives a player whose state it publishes is
    `state` (`rate_period`, `state_after`): listed or not, the K of the next period, the
    peak's list (`peak_period_after`, from the peak before), `last_active` as given (the
    period itself for a player who played in it)."""
    listed = is_listed(state.rating, period)
    return NewStanding(
        rating=state.rating,
        listed=listed,
        k_next=development_coefficient(state, period + 1) if listed else None,
        games_completed=state.games_completed,
        ever_2400=state.ever_2400,
        peak=state.peak,
        peak_period=peak_period_after(peak_before, peak_period_before, state.peak, period),
        last_active=last_active,
    )


@dataclass(frozen=True, slots=True)
class InitialRatingGame:
    """A game of an unrated player against a rated opponent, pooled toward a first rating.

    `event` groups games into events and orders them: the first event is the smallest key
    (ledger's choice: the event's end date, then the order events were recorded in).
    """

    event: tuple[dt.date, int]
    opponent_rating: int
    score: int


@dataclass(frozen=True, slots=True)
class InitialCalculation:
    """8.2 step by step for the games pooled toward a first rating, by the era of its
    period (`ledger.core.eras`).

    `counted` are the games rated on, `disregarded` a first event scored zero; `points`
    is the score; `dummy_draws` the hypothetical draws against 1800 added (2 from March
    2024, none before); `p` is (points + draws / 2) / (n + draws) in hundredths and `dp` its
    difference (table 8.1.1); `opponents` the opponents' ratings with the hypothetical
    opponents', over `n + dummy_draws`. `bonus_per_half_point`: before March 2024, a score
    of 50 % or more adds this for each half point above 50 % instead of dp (None: dp at
    every score). `uncapped` is Ra plus dp or the bonus, rounded; `rating` the first
    rating published (capped at 2200 from March 2024), None below the era's minimum of
    games or below the floor (7.1.4).
    """

    counted: tuple[InitialRatingGame, ...]
    disregarded: tuple[InitialRatingGame, ...]
    points: int
    dummy_draws: int
    p: int
    dp: int
    opponents: int
    bonus_per_half_point: Fraction | None
    uncapped: int
    rating: int | None

    @property
    def games(self) -> int:
        return len(self.counted)


def initial_calculation(games: Iterable[InitialRatingGame], period: Period) -> InitialCalculation:
    """The calculation of a first rating from the games pooled up to `period` (8.2), by
    the era of `period`.

    - If the first event scores zero, that event is disregarded.
    - At least 5 games against rated opponents are needed (9 before July 2011).
    - Ra = (sum of opponents' ratings + 2 x 1800) / (n + 2): two hypothetical draws
      against 1800-rated opponents (from March 2024; before, Ra is the rated opponents'
      average); p = (points + 1) / (n + 2), rounded half up to hundredths (ledger's
      choice).
    - Ru = Ra + dp(p) from table 8.1.1, rounded half up, capped at 2200; published only
      if the list of `period` publishes it (7.1.4, `is_listed`). Before March 2024 a score
      of 50 % or more gives Ra plus half the new player's K for each half point above
      50 % (`initial_bonus`), and there is no cap.
    """
    era = era_of(period)
    ordered = sorted(games, key=lambda game: game.event)
    pooled = _without_scoreless_first_event(ordered)
    n = len(pooled)
    draws = era.initial_dummy_draws
    points = sum(game.score for game in pooled)
    p = divide_half_up(points + 50 * draws, n + draws) if n + draws else 0
    dp = RATING_DIFFERENCE_BY_SCORE[p]
    opponents = sum(game.opponent_rating for game in pooled) + draws * INITIAL_RATING_DUMMY_OPPONENT
    bonus = initial_bonus(era)
    if n + draws == 0:
        uncapped = 0
    elif bonus is None or 2 * points < 100 * n:
        uncapped = divide_half_up(opponents + dp * (n + draws), n + draws)
    else:
        above_half = Fraction(opponents, n) + bonus * ((2 * points - 100 * n) // 100)
        uncapped = divide_half_up(above_half.numerator, above_half.denominator)
    cap = era.initial_rating_cap
    rating = uncapped if cap is None else min(uncapped, cap)
    published = n >= era.initial_min_games and is_listed(rating, period)
    disregarded = tuple(ordered[: len(ordered) - n])
    return InitialCalculation(
        counted=tuple(pooled),
        disregarded=disregarded,
        points=points,
        dummy_draws=draws,
        p=p,
        dp=dp,
        opponents=opponents,
        bonus_per_half_point=bonus if bonus is not None and 2 * points >= 100 * n else None,
        uncapped=uncapped,
        rating=rating if published else None,
    )


def initial_bonus(era: Era) -> Fraction | None:
    """Before March 2024, what each half point above 50 % adds to a first rating: half the
    new player's K (12.5 while it was 25, FIDE news of 13 July 2009), None from March 2024
    (table 8.1.1 gives dp at every score)."""
    if not era.initial_bonus_per_half_point:
        return None
    return Fraction(era.k_new_player, 2)


def initial_rating(games: Iterable[InitialRatingGame], period: Period) -> tuple[int, int] | None:
    """A first rating on the list of `period` and the number of games it rests on, or None
    if none is due (8.2, `initial_calculation`)."""
    calculation = initial_calculation(games, period)
    if calculation.rating is None:
        return None
    return calculation.rating, calculation.games


def pooling_start(period: Period, last_listed: Period | None) -> Period:
    """8.2: the first period whose games pool toward a first rating on the list of `period`:
    the pool spans at most 26 months ending with it, and never reaches back to the list on
    which the player was last listed (`last_listed`: where they lost an earlier rating)."""
    start = period - (INITIAL_RATING_WINDOW_MONTHS - 1)
    return start if last_listed is None else max(start, last_listed + 1)


def _without_scoreless_first_event(
    games: Sequence[InitialRatingGame],
) -> Sequence[InitialRatingGame]:
    if not games:
        return games
    first = games[0].event
    if any(game.score for game in games if game.event == first):
        return games
    return [game for game in games if game.event != first]


def divide_half_up(numerator: int, denominator: int) -> int:
    """numerator / denominator rounded to the nearest whole number, halves up
    (denominator > 0): the rounding of p, Ra and Ru (8.2) and of performances (8.1.1)."""
    return (2 * numerator + denominator) // (2 * denominator)


@functools.cache  # a list's rows each ask for their list's period
def earliest_active_period(period: Period) -> Period:
    """7.2.2, ledger's choice of alignment: a player is active on the list of `period` with a
    rated game in this period or a later one (the 12 periods ending with `period`)."""
    return period - (INACTIVITY_PERIODS - 1)


def list_flag(*, woman: bool, last_active: Period | None, period: Period) -> str:
    """The list flag: `i` inactive, `w` woman, `wi` both, empty otherwise (7.2.2).

    One rated game in a period makes the player active again on that list.
    """
    inactive = last_active is None or last_active < earliest_active_period(period)
    return ("w" if woman else "") + ("i" if inactive else "")
