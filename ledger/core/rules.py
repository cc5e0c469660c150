"""The FIDE rating rules (Rating Regulations B.02), as pure functions on plain values.

Everything that decides a published number lives here, once: expected scores (table 8.1.2),
the rule of 400 and its 2650 exception (8.3.1), K and the line of 8.3.3 that gives it, the
700 cap, the rating change and its rounding (8.3.2, 8.3.4), the rating floor (7.1.4), the
2400 flag and the peak, a player's standing once a list is published, first ratings and
their pooling window (8.2) and the inactivity flag (7.2.2). Scores, expected scores and sums
are integer hundredths, so every result is exact; no binary floats. Nothing here touches a
database, a file or the clock.

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
from typing import Protocol

from ledger.core.domain import Period, Pool
from ledger.core.tables import EXPECTED_SCORE_BANDS, RATING_DIFFERENCE_BY_SCORE

RATING_FLOOR = 1400
"""7.1.4 in force since 1 March 2024: a rating below this is not published; the player
becomes unrated (`rating_floor`, by the list's date: `RATING_FLOORS`). The starting ratings
the ledger accepts begin here too (`ledger.core.records`)."""

RATING_FLOORS = (
    (Period(1, 1), 1200),
    (Period(2012, 6), 1000),
    (Period(2024, 2), RATING_FLOOR),
)
"""The floor of the lists from each period on, each the first list of its floor (the list
of a period takes effect on the first of the next month):
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

DIFFERENCE_CAP = 400
"""8.3.1: the rule of 400."""

CAP_EXEMPT_RATING = 2650
CAP_EXEMPTION_FROM = Period(2025, 10)
"""8.3.1 as amended from 2025-10: standard players rated 2650+ use the actual difference."""

WIDE_PAIRING_RULE_FROM = Period(2024, 12)
WIDE_PAIRING_GAP = 600
WIDE_PAIRING_TOP_RATING = 2600
"""Rapid and blitz from 2024-12: players 600+ apart, one above 2600, are not rated."""

K_PRODUCT_CAP = 700
"""8.3.3: K times the number of games in a period may not exceed 700."""
LISTED_K_FACTORS = frozenset((40, 30, 25, 20, 15, 10))
"""The K factors a published list gives for the next period: 40, 20 and 10 under 8.3.3
(since July 2014); 30, 25 and 15 on FIDE's lists before, which a federation may import."""

EVER_2400 = 2400
JUNIOR_RATING_LIMIT = 2300
JUNIOR_MAX_AGE = 18
ESTABLISHED_GAMES = 30

INITIAL_RATING_MIN_GAMES = 5
INITIAL_RATING_CAP = 2200
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


_PD_BY_CAPPED_DIFFERENCE = tuple(
    expected_score(difference) for difference in range(-DIFFERENCE_CAP, DIFFERENCE_CAP + 1)
)
"""Table 8.1.2 as PD for every D within the rule of 400, from -400 up."""


@dataclass(frozen=True, slots=True)
class PeriodPairings:
    """The pairing rules of one pool and period, decided once so that a close applies them
    to each of its games with integer arithmetic alone.

    `cap_exempt_from`: the rating from which a player's D is the actual difference (8.3.1 as
    amended from 2025-10, standard only; None: the rule of 400 holds for everyone).
    `wide_pairings_unrated`: rapid and blitz from 2024-12, a game between players 600 or
    more points apart, one of them rated above 2600, is not rated (FIDE rules summary,
    section 2).
    """

    cap_exempt_from: int | None
    wide_pairings_unrated: bool

    @classmethod
    def of(cls, pool: Pool, period: Period) -> PeriodPairings:
        standard = pool is Pool.STANDARD
        return cls(
            CAP_EXEMPT_RATING if standard and period >= CAP_EXEMPTION_FROM else None,
            not standard and period >= WIDE_PAIRING_RULE_FROM,
        )

    def difference(self, own: int, opponent: int) -> int:
        """D = own rating minus the opponent's, after the rule of 400 (8.3.1), from the point
        of view of the player being rated: the two sides of one game can use different D."""
        difference = own - opponent
        if self.cap_exempt_from is not None and own >= self.cap_exempt_from:
            return difference
        return max(-DIFFERENCE_CAP, min(DIFFERENCE_CAP, difference))

    def rateable(self, white: int, black: int) -> bool:
        """Whether a played game between two rated players is rated at all."""
        return (
            not self.wide_pairings_unrated
            or abs(white - black) < WIDE_PAIRING_GAP
            or max(white, black) <= WIDE_PAIRING_TOP_RATING
        )

    def expected_scores(self, white: int, black: int) -> tuple[int, int] | None:
        """Each side's PD in hundredths for a played game between two rated players, the
        rule of 400 applied for each side separately (8.3.1); None when the pairing is not
        rated at all.

        Where neither side is exempt from the rule of 400, the two D are opposite and
        table 8.1.2 gives the lower side 100 minus the higher side's PD, so one look-up
        serves both (a close asks this of every game).
        """
        if self.wide_pairings_unrated and not self.rateable(white, black):
            return None
        exempt = self.cap_exempt_from
        if exempt is None or (white < exempt and black < exempt):
            difference = max(-DIFFERENCE_CAP, min(DIFFERENCE_CAP, white - black))
            white_expected = _PD_BY_CAPPED_DIFFERENCE[difference + DIFFERENCE_CAP]
            return white_expected, 100 - white_expected
        return (
            expected_score(self.difference(white, black)),
            expected_score(self.difference(black, white)),
        )


def rating_difference(own: int, opponent: int, pool: Pool, period: Period) -> int:
    """D = own rating minus the opponent's, after the rule of 400 (8.3.1, `PeriodPairings`)."""
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
    """The line of 8.3.3 that decides a player's K, with the K it gives."""

    EVER_2400 = ("ever_2400", 10)
    JUNIOR = ("junior", 40)
    FEWER_THAN_30_GAMES = ("fewer_than_30_games", 40)
    ESTABLISHED = ("established", 20)

    def __init__(self, key: str, k: int) -> None:
        self.key = key
        self.k = k

    @classmethod
    def from_key(cls, key: str) -> KRule:
        return next(rule for rule in cls if rule.key == key)


def k_rule(state: RatingState, period: Period) -> KRule:
    """The line of 8.3.3 that decides K for all the player's games of `period`, from the
    list in force at its start.

    Ledger's choice of precedence, the one FIDE's published lists follow:
    1. K 10 once the published rating has ever reached 2400;
    2. K 40 for a junior (period year minus birth year at most 18) whose published rating
       has never reached 2300;
    3. K 40 while fewer than 30 rated games are completed;
    4. K 20 otherwise.
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
    if is_junior(birth_year, period) and peak < JUNIOR_RATING_LIMIT:
        return KRule.JUNIOR
    if games_completed < ESTABLISHED_GAMES:
        return KRule.FEWER_THAN_30_GAMES
    return KRule.ESTABLISHED


def development_coefficient(state: RatingState, period: Period) -> int:
    """K for all the player's games of `period` (8.3.3), before the 700 cap."""
    return k_rule(state, period).k


def k_reason(rule: KRule, k_applied: int, games: int, birth_year: int | None) -> str:
    """The K applied in a period, in words: "K 38: 40 capped by 700 / 18 games"."""
    if k_applied < rule.k:
        return f"K {k_applied}: {rule.k} capped by {K_PRODUCT_CAP} / {games} games"
    return (
        f"K {k_applied}: "
        + {
            KRule.EVER_2400: "the published rating has reached 2400",
            KRule.JUNIOR: f"junior (born {birth_year}) under {JUNIOR_RATING_LIMIT}",
            KRule.FEWER_THAN_30_GAMES: f"fewer than {ESTABLISHED_GAMES} rated games",
            KRule.ESTABLISHED: f"{ESTABLISHED_GAMES} or more rated games, never 2400",
        }[rule]
    )


def games_consistent_with_k(k: int | None, games_in_period: int) -> int:
    """Rated games completed for a player known only from a published list, chosen so that
    8.3.3 gives the list's K again: K 40 (not a junior) means fewer than 30 games, so the
    period's games, at most 29; K 20 or 10 (or no K) means at least 30.

    K 40 for a junior allows either count; ledger's choice is the same as for an adult.
    """
    if k == KRule.FEWER_THAN_30_GAMES.k:
        return min(games_in_period, ESTABLISHED_GAMES - 1)
    return ESTABLISHED_GAMES


def is_junior(birth_year: int | None, period: Period) -> bool:
    """8.3.3: a junior until the end of the year of the 18th birthday."""
    return birth_year is not None and birth_year >= junior_born_from(period)


def junior_born_from(period: Period) -> int:
    """8.3.3: the earliest birth year of a junior in `period` (the year of the 18th
    birthday is the last as a junior)."""
    return period.year - JUNIOR_MAX_AGE


def capped_k(k: int, games: int) -> int:
    """8.3.3: if games x K exceeds 700, K is the largest whole number with K x games <= 700."""
    if games == 0:
        return k
    return min(k, K_PRODUCT_CAP // games)


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
    k = capped_k(rule.k, len(games))
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
    """8.2 step by step for the games pooled toward a first rating.

    `counted` are the games rated on, `disregarded` a first event scored zero; `points`
    is the score and `p` (points + 1) / (n + 2) in hundredths, `dp` its difference (table
    8.1.1); `opponents` the opponents' ratings with the two hypothetical 1800 draws, over
    `n + 2`; `uncapped` is Ra + dp rounded, `rating` the first rating published (capped at
    2200), None below 5 games or below the floor (7.1.4).
    """

    counted: tuple[InitialRatingGame, ...]
    disregarded: tuple[InitialRatingGame, ...]
    points: int
    p: int
    dp: int
    opponents: int
    uncapped: int
    rating: int | None

    @property
    def games(self) -> int:
        return len(self.counted)


def initial_calculation(games: Iterable[InitialRatingGame], period: Period) -> InitialCalculation:
    """The calculation of a first rating from the games pooled up to `period` (8.2).

    - If the first event scores zero, that event is disregarded.
    - At least 5 games against rated opponents are needed.
    - Ra = (sum of opponents' ratings + 2 x 1800) / (n + 2): two hypothetical draws
      against 1800-rated opponents; p = (points + 1) / (n + 2), rounded half up to
      hundredths (ledger's choice).
    - Ru = Ra + dp(p) from table 8.1.1, rounded half up, capped at 2200; published only
      if the list of `period` publishes it (7.1.4, `is_listed`).
    """
    ordered = sorted(games, key=lambda game: game.event)
    pooled = _without_scoreless_first_event(ordered)
    n = len(pooled)
    points = sum(game.score for game in pooled)
    p = divide_half_up(points + 100, n + 2)
    dp = RATING_DIFFERENCE_BY_SCORE[p]
    opponents = sum(game.opponent_rating for game in pooled) + 2 * INITIAL_RATING_DUMMY_OPPONENT
    uncapped = divide_half_up(opponents + dp * (n + 2), n + 2)
    rating = min(uncapped, INITIAL_RATING_CAP)
    published = n >= INITIAL_RATING_MIN_GAMES and is_listed(rating, period)
    disregarded = tuple(ordered[: len(ordered) - n])
    return InitialCalculation(
        tuple(pooled),
        disregarded,
        points,
        p,
        dp,
        opponents,
        uncapped,
        rating if published else None,
    )


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
