"""Independent reference implementation ("oracle") of the FIDE rating rules.

Written only from ``/work/shared/fide-rules.md`` (sections 1-7) and the two official tables,
without looking at the ledger's own code, so that the test suite can cross-check the ledger.

Style is deliberately plain: the tables are embedded below as CSV text and parsed at import,
expected scores are found by a linear scan over ``(lower, upper, pd_high)`` rows, and all
rating arithmetic is done with :class:`fractions.Fraction` (never binary floats).

Entry point: :func:`simulate`. Helpers :func:`pd_for_difference`, :func:`expected_score`,
:func:`dp_for_percentage` and :func:`round_half_away_from_zero` are exposed for direct tests.

Choices taken where the brief leaves a point open (all in this module, easy to change):

* A newly rated player (initial rating published on a list) counts as active on that list.
* Games in periods that are not among the periods being closed are ignored (their opponents'
  ratings at the start of the period are unknown).
* A game of a player against themselves is ignored.
"""

from __future__ import annotations

import csv
import io
import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

# Table 8.1.2: |D| band -> expected score of the higher-rated side (pd_high) and the
# lower-rated side (pd_low). An empty d_upper means "and above".
TABLE_8_1_2_CSV = """\
d_lower,d_upper,pd_high,pd_low
0,3,0.50,0.50
4,10,0.51,0.49
11,17,0.52,0.48
18,25,0.53,0.47
26,32,0.54,0.46
33,39,0.55,0.45
40,46,0.56,0.44
47,53,0.57,0.43
54,61,0.58,0.42
62,68,0.59,0.41
69,76,0.60,0.40
77,83,0.61,0.39
84,91,0.62,0.38
92,98,0.63,0.37
99,106,0.64,0.36
107,113,0.65,0.35
114,121,0.66,0.34
122,129,0.67,0.33
130,137,0.68,0.32
138,145,0.69,0.31
146,153,0.70,0.30
154,162,0.71,0.29
163,170,0.72,0.28
171,179,0.73,0.27
180,188,0.74,0.26
189,197,0.75,0.25
198,206,0.76,0.24
207,215,0.77,0.23
216,225,0.78,0.22
226,235,0.79,0.21
236,245,0.80,0.20
246,256,0.81,0.19
257,267,0.82,0.18
268,278,0.83,0.17
279,290,0.84,0.16
291,302,0.85,0.15
303,315,0.86,0.14
316,328,0.87,0.13
329,344,0.88,0.12
345,357,0.89,0.11
358,374,0.90,0.10
375,391,0.91,0.09
392,411,0.92,0.08
412,432,0.93,0.07
433,456,0.94,0.06
457,484,0.95,0.05
485,517,0.96,0.04
518,559,0.97,0.03
560,619,0.98,0.02
620,735,0.99,0.01
736,,1.00,0.00
"""

# Table 8.1.1: fractional score p (hundredths) -> rating difference dp.
TABLE_8_1_1_CSV = """\
p,dp
1.00,800
0.99,677
0.98,589
0.97,538
0.96,501
0.95,470
0.94,444
0.93,422
0.92,401
0.91,383
0.90,366
0.89,351
0.88,336
0.87,322
0.86,309
0.85,296
0.84,284
0.83,273
0.82,262
0.81,251
0.80,240
0.79,230
0.78,220
0.77,211
0.76,202
0.75,193
0.74,184
0.73,175
0.72,166
0.71,158
0.70,149
0.69,141
0.68,133
0.67,125
0.66,117
0.65,110
0.64,102
0.63,95
0.62,87
0.61,80
0.60,72
0.59,65
0.58,57
0.57,50
0.56,43
0.55,36
0.54,29
0.53,21
0.52,14
0.51,7
0.50,0
0.49,-7
0.48,-14
0.47,-21
0.46,-29
0.45,-36
0.44,-43
0.43,-50
0.42,-57
0.41,-65
0.40,-72
0.39,-80
0.38,-87
0.37,-95
0.36,-102
0.35,-110
0.34,-117
0.33,-125
0.32,-133
0.31,-141
0.30,-149
0.29,-158
0.28,-166
0.27,-175
0.26,-184
0.25,-193
0.24,-202
0.23,-211
0.22,-220
0.21,-230
0.20,-240
0.19,-251
0.18,-262
0.17,-273
0.16,-284
0.15,-296
0.14,-309
0.13,-322
0.12,-336
0.11,-351
0.10,-366
0.09,-383
0.08,-401
0.07,-422
0.06,-444
0.05,-470
0.04,-501
0.03,-538
0.02,-589
0.01,-677
0.00,-800
"""


def _parse_pd_rows(text: str) -> list[tuple[int, int | None, Fraction, Fraction]]:
    """Rows ``(lower, upper, pd_high, pd_low)``; ``upper`` is None for the open last band."""
    rows: list[tuple[int, int | None, Fraction, Fraction]] = []
    for record in csv.DictReader(io.StringIO(text)):
        upper_text = record["d_upper"].strip()
        pd_high = Fraction(record["pd_high"])
        pd_low = Fraction(record["pd_low"])
        if pd_high + pd_low != 1:
            raise ValueError(f"table 8.1.2 row does not sum to 1: {record}")
        rows.append(
            (
                int(record["d_lower"]),
                int(upper_text) if upper_text else None,
                pd_high,
                pd_low,
            )
        )
    return rows


def _parse_dp_rows(text: str) -> list[tuple[Fraction, int]]:
    """Rows ``(p, dp)`` of table 8.1.1, p as an exact hundredth."""
    return [(Fraction(rec["p"]), int(rec["dp"])) for rec in csv.DictReader(io.StringIO(text))]


PD_ROWS: list[tuple[int, int | None, Fraction, Fraction]] = _parse_pd_rows(TABLE_8_1_2_CSV)
DP_ROWS: list[tuple[Fraction, int]] = _parse_dp_rows(TABLE_8_1_1_CSV)

POOLS: tuple[str, ...] = ("standard", "rapid", "blitz")
PLAYED_SCORES: dict[str, Fraction] = {
    "1-0": Fraction(1),
    "0-1": Fraction(0),
    "1/2-1/2": Fraction(1, 2),
}
FORFEITS: frozenset[str] = frozenset({"+/-", "-/+", "-/-"})

RATING_FLOOR = 1400
INITIAL_RATING_CAP = 2200
HYPOTHETICAL_OPPONENT = 1800
MIN_INITIAL_GAMES = 5
POOL_WINDOW_MONTHS = 26
INACTIVITY_WINDOW_MONTHS = 12
K_CAP_PRODUCT = 700


def _month_number(period: str) -> int:
    """``"YYYY-MM"`` -> months since year 0 (so consecutive periods differ by 1)."""
    year_text, month_text = period.split("-")
    month = int(month_text)
    if len(year_text) != 4 or len(month_text) != 2 or not 1 <= month <= 12:
        raise ValueError(f"bad period {period!r}")
    return int(year_text) * 12 + (month - 1)


def _year_of(month_number: int) -> int:
    return month_number // 12


def round_half_away_from_zero(value: Fraction) -> int:
    """Nearest whole number, halves away from zero (+2.5 -> 3, -2.5 -> -3, -2.49 -> -2)."""
    magnitude = abs(value)
    whole = int(magnitude)  # truncation of a non-negative Fraction is its floor
    if magnitude - whole >= Fraction(1, 2):
        whole += 1
    return whole if value >= 0 else -whole


def _round_half_up(value: Fraction) -> int:
    """Nearest whole number, halves upward (only used on positive values here)."""
    shifted = value + Fraction(1, 2)
    return shifted.numerator // shifted.denominator


def pd_for_difference(d: int) -> Fraction:
    """Expected score for a rating difference D (own minus opponent, already capped)."""
    magnitude = abs(d)
    for lower, upper, pd_high, pd_low in PD_ROWS:
        if magnitude < lower:
            continue
        if upper is not None and magnitude > upper:
            continue
        return pd_high if d >= 0 else pd_low
    raise ValueError(f"no table 8.1.2 band for D={d}")  # pragma: no cover


def dp_for_percentage(p: Fraction) -> int:
    """Table 8.1.1 lookup; p must be an exact hundredth between 0 and 1."""
    for row_p, dp in DP_ROWS:
        if row_p == p:
            return dp
    raise ValueError(f"p={p} is not a hundredth in table 8.1.1")


def _effective_difference(own: int, opponent: int, month: int, pool: str) -> int:
    """D after the rule of 400 (8.3.1), from the point of view of the player rated ``own``."""
    d = own - opponent
    capped = max(-400, min(400, d))
    if pool != "standard":
        return capped
    if month < _month_number("2025-10"):
        return capped
    if own >= 2650:
        return d
    return capped


def expected_score(own: int, opponent: int, period: str, pool: str = "standard") -> Fraction:
    """PD of the player rated ``own`` against ``opponent`` in ``period`` (rule of 400 applied)."""
    if pool not in POOLS:
        raise ValueError(f"unknown pool {pool!r}")
    return pd_for_difference(_effective_difference(own, opponent, _month_number(period), pool))


def _game_excluded_by_gap(rating_a: int, rating_b: int, month: int, pool: str) -> bool:
    """Rapid/blitz from 2024-12: 600+ apart with one player above 2600 -> not rated."""
    if pool == "standard" or month < _month_number("2024-12"):
        return False
    return abs(rating_a - rating_b) >= 600 and max(rating_a, rating_b) > 2600


@dataclass
class _PlayerState:
    pid: int
    sex: str | None
    birth_year: int | None
    rating: int | None
    games_completed: int
    ever_2400: bool
    peak: int | None
    lost_rating_month: int | None = None
    active_months: set[int] = field(default_factory=set)


def _k_factor(state: _PlayerState, year: int) -> int:
    """K (8.3.3) with the ledger's precedence: 2400 flag, junior under 2300, < 30 games, 20."""
    if state.ever_2400:
        return 10
    junior = state.birth_year is not None and year - state.birth_year <= 18
    if junior and (state.peak is None or state.peak < 2300):
        return 40
    if state.games_completed < 30:
        return 40
    return 20


def _flag(state: _PlayerState, month: int) -> str:
    active = False
    for active_month in state.active_months:
        if month - INACTIVITY_WINDOW_MONTHS < active_month <= month:
            active = True
    if state.sex == "F":
        return "w" if active else "wi"
    return "" if active else "i"


def _initial_state(player: dict[str, Any]) -> _PlayerState:
    rating: int | None = player["rating"]
    peak: int | None = player.get("peak")
    if peak is None:
        peak = rating
    elif rating is not None:
        peak = max(peak, rating)
    ever = bool(player.get("ever_2400", False))
    if (rating is not None and rating >= 2400) or (peak is not None and peak >= 2400):
        ever = True
    return _PlayerState(
        pid=player["id"],
        sex=player.get("sex"),
        birth_year=player.get("birth_year"),
        rating=rating,
        games_completed=int(player.get("games", 0)),
        ever_2400=ever,
        peak=peak,
    )


def _try_initial_rating(
    pid: int,
    month: int,
    state: _PlayerState,
    games_by_month: dict[int, list[dict[str, Any]]],
    lists_at_start: dict[int, dict[int, int]],
) -> tuple[int, int] | None:
    """Section 7 for an unrated player at the close of ``month``: ``(Ru, n)`` or None."""
    earliest = month - (POOL_WINDOW_MONTHS - 1)
    if state.lost_rating_month is not None:
        earliest = max(earliest, state.lost_rating_month + 1)
    # pooled: (event key, own score, opponent rating at the start of the game's period)
    pooled: list[tuple[tuple[int, str], Fraction, int]] = []
    for game_month in range(earliest, month + 1):
        start_list = lists_at_start.get(game_month)
        if start_list is None:
            continue
        for game in games_by_month.get(game_month, []):
            score = PLAYED_SCORES.get(game["result"])
            if score is None or game["white"] == game["black"]:
                continue
            if game["white"] == pid:
                opponent, own_score = game["black"], score
            elif game["black"] == pid:
                opponent, own_score = game["white"], 1 - score
            else:
                continue
            if opponent not in start_list:
                continue
            event_name = game.get("event") or ""
            pooled.append(((game_month, event_name), own_score, start_list[opponent]))
    if not pooled:
        return None
    first_event = min(key for key, _, _ in pooled)
    first_event_points = sum((s for key, s, _ in pooled if key == first_event), Fraction(0))
    if first_event_points == 0:
        pooled = [item for item in pooled if item[0] != first_event]
    n = len(pooled)
    if n < MIN_INITIAL_GAMES:
        return None
    points = sum((s for _, s, _ in pooled), Fraction(0))
    opponents_total = sum(r for _, _, r in pooled)
    ra = Fraction(opponents_total + 2 * HYPOTHETICAL_OPPONENT, n + 2)
    p = Fraction(_round_half_up((points + 1) / (n + 2) * 100), 100)
    ru = min(_round_half_up(ra + dp_for_percentage(p)), INITIAL_RATING_CAP)
    if ru < RATING_FLOOR:
        return None
    return ru, n


def simulate(
    players: list[dict[str, Any]],
    games: list[dict[str, Any]],
    periods: list[str],
    pool: str = "standard",
) -> dict[str, dict[int, dict[str, Any]]]:
    """Close ``periods`` in order and return each published list.

    Result: ``{period: {player_id: row}}`` with ``row`` holding ``rating``, ``change``
    (None for a newly rated player), ``games`` (rated games in the period, or for a newly
    rated player the period's games against rated opponents), ``k_applied`` (None without
    rated games), ``k`` (K for the next period) and ``flag`` (``""``, ``"i"``, ``"w"``,
    ``"wi"``). Only players on the list after the period appear.
    """
    if pool not in POOLS:
        raise ValueError(f"unknown pool {pool!r}")
    months = [_month_number(period) for period in periods]
    for before, after in itertools.pairwise(months):
        if after != before + 1:
            raise ValueError("periods must be consecutive months in order")

    states: dict[int, _PlayerState] = {}
    for player in players:
        if player["id"] in states:
            raise ValueError(f"duplicate player id {player['id']}")
        states[player["id"]] = _initial_state(player)
    if months:
        for state in states.values():
            if state.rating is not None:
                state.active_months.add(months[0])

    games_by_month: dict[int, list[dict[str, Any]]] = {}
    for game in games:
        if game["white"] not in states or game["black"] not in states:
            raise ValueError(f"game with an unknown player: {game}")
        if game["result"] not in PLAYED_SCORES and game["result"] not in FORFEITS:
            raise ValueError(f"unknown result {game['result']!r}")
        games_by_month.setdefault(_month_number(game["period"]), []).append(game)

    lists_at_start: dict[int, dict[int, int]] = {}
    published: dict[str, dict[int, dict[str, Any]]] = {}

    for period, month in zip(periods, months, strict=True):
        start_list = {
            pid: state.rating for pid, state in states.items() if state.rating is not None
        }
        lists_at_start[month] = start_list
        year = _year_of(month)
        next_year = _year_of(month + 1)

        # score - PD of every rated game, per player
        deltas: dict[int, list[Fraction]] = {pid: [] for pid in start_list}
        # played games against an opponent rated at the start, per unrated player
        unrated_counts: dict[int, int] = {}
        for game in games_by_month.get(month, []):
            white_score = PLAYED_SCORES.get(game["result"])
            white, black = game["white"], game["black"]
            if white_score is None or white == black:
                continue
            white_rated = white in start_list
            black_rated = black in start_list
            if white_rated and black_rated:
                rw, rb = start_list[white], start_list[black]
                if _game_excluded_by_gap(rw, rb, month, pool):
                    continue
                deltas[white].append(white_score - expected_score(rw, rb, period, pool))
                deltas[black].append((1 - white_score) - expected_score(rb, rw, period, pool))
            elif white_rated:
                unrated_counts[black] = unrated_counts.get(black, 0) + 1
            elif black_rated:
                unrated_counts[white] = unrated_counts.get(white, 0) + 1

        rows: dict[int, dict[str, Any]] = {}
        for pid in sorted(states):
            state = states[pid]
            if pid in start_list:
                old = start_list[pid]
                k = _k_factor(state, year)
                n = len(deltas[pid])
                k_applied: int | None = None
                change = 0
                if n > 0:
                    k_applied = min(k, K_CAP_PRODUCT // n)
                    change = round_half_away_from_zero(k_applied * sum(deltas[pid], Fraction(0)))
                    state.active_months.add(month)
                new = old + change
                state.games_completed += n
                if new < RATING_FLOOR:
                    state.rating = None
                    state.lost_rating_month = month
                    continue
                state.rating = new
                state.peak = new if state.peak is None else max(state.peak, new)
                if new >= 2400:
                    state.ever_2400 = True
                rows[pid] = {
                    "rating": new,
                    "change": change,
                    "games": n,
                    "k_applied": k_applied,
                    "k": _k_factor(state, next_year),
                    "flag": _flag(state, month),
                }
            elif pid in unrated_counts:
                outcome = _try_initial_rating(pid, month, state, games_by_month, lists_at_start)
                if outcome is None:
                    continue
                ru, n_pooled = outcome
                state.rating = ru
                state.games_completed = n_pooled
                # A player re-rated after losing a rating keeps their history: the peak
                # and the ever-2400 flag describe every rating they have published.
                state.peak = ru if state.peak is None else max(state.peak, ru)
                state.ever_2400 = state.ever_2400 or ru >= 2400
                state.active_months.add(month)
                rows[pid] = {
                    "rating": ru,
                    "change": None,
                    "games": unrated_counts[pid],
                    "k_applied": None,
                    "k": _k_factor(state, next_year),
                    "flag": _flag(state, month),
                }
        published[period] = rows
    return published
