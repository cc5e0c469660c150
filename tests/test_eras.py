"""FIDE's rules by their date (`ledger.core.eras`): each rule on both sides of each era
boundary (the last period of the old rule and the first of the new), on the pure rules, the
calculator and the set-based close on both backends, and FIDE's published calculations of
2008-2010.

The published calculations come from the test suite of the Perl distribution
Games-Ratings 0.0.5 by Christian Bartolomaeus (CPAN, BARTOLIN; files t/01.Elo.t and
t/100.Elo.t to t/109.Elo.t, read from metacpan/metacpan-cpan-extracted,
distros/G/Games-Ratings), licensed "under the same terms as Perl itself" (Artistic
License 1.0 or GPL 1.0 or later). Only the numbers are taken: each test names the FIDE page
it copied them from (ratings.fide.com's individual calculations and tournament reports).
t/01.Elo.t is the module's own worked example of the rule of 350 (2235, K 15, beats 1700:
+1.65), not a FIDE page. The calculation of October 2022 (`COOMERA`, the rule of 400 once an
event) is FIDE's, as a player posted it on chesschat.org ("FIDE rating uplift change"); only
its numbers are taken.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from ledger.core import rules
from ledger.core.calculator import calculate_games
from ledger.core.domain import GameResult, Period, Pool
from ledger.core.eras import CURRENT_ERA, ERAS, Era, era_of
from ledger.core.records import new_game
from ledger.queries.cards import player_card
from ledger.queries.explanations import explain
from ledger.queries.lists.live import live_list
from ledger.services import corrections
from ledger.storage.database import Ledger, open_ledger
from ledger.storage.models import ListEntry
from ledger.web import create_app

from builders import NOW, close, game, listing, player, run


def P(text: str) -> Period:  # noqa: N802 - a one-letter builder, like beancount's A()
    return Period.parse(text)


WIN, DRAW, LOSS = 100, 50, 0
RESULTS = {"win": WIN, "draw": DRAW, "loss": LOSS}


# -- the eras themselves --------------------------------------------------------------------


def test_eras_are_in_order_and_today_is_the_newest() -> None:
    firsts = [era.first_period for era in ERAS]
    assert firsts == sorted(firsts)
    assert len(set(firsts)) == len(firsts)
    assert era_of(P("2026-10")) is CURRENT_ERA


@pytest.mark.parametrize("era", ERAS, ids=lambda era: era.name)
def test_each_era_begins_at_its_first_period(era: Era) -> None:
    assert era_of(era.first_period) is era
    if era is not ERAS[0]:
        assert era_of(era.first_period - 1) is not era


def test_periods_before_the_first_era_take_its_rules() -> None:
    assert era_of(P("2001-01")) is ERAS[0]


# -- one table per rule: (rule, period) -> what it gives --------------------------------------

DIFFERENCE_CAP = {
    "rule of 350: last period, 2009-06": (P("2009-06"), 350, 89),
    "rule of 400: first period, 2009-07": (P("2009-07"), 400, 92),
}


@pytest.mark.parametrize(
    ("period", "cap", "pd"), list(DIFFERENCE_CAP.values()), ids=list(DIFFERENCE_CAP)
)
def test_the_difference_cap_by_era(period: Period, cap: int, pd: int) -> None:
    assert rules.rating_difference(2235, 1700, Pool.STANDARD, period) == cap
    assert rules.expected_scores(Pool.STANDARD, period, 2235, 1700) == (pd, 100 - pd)
    assert rules.rules_in_force(Pool.STANDARD, period).difference_cap == cap


CAP_EXEMPTION = {
    "2650 exemption: last period without, 2025-09": (P("2025-09"), 400),
    "2650 exemption: first period, 2025-10": (P("2025-10"), 413),
}


@pytest.mark.parametrize(
    ("period", "difference"), list(CAP_EXEMPTION.values()), ids=list(CAP_EXEMPTION)
)
def test_the_2650_exemption_by_era(period: Period, difference: int) -> None:
    assert rules.rating_difference(2813, 2400, Pool.STANDARD, period) == difference
    assert rules.rating_difference(2400, 2813, Pool.STANDARD, period) == -400


WIDE_PAIRINGS = {
    "rapid 600 rule: last period without, 2024-11": (P("2024-11"), True),
    "rapid 600 rule: first period, 2024-12": (P("2024-12"), False),
}


@pytest.mark.parametrize(("period", "rated"), list(WIDE_PAIRINGS.values()), ids=list(WIDE_PAIRINGS))
def test_the_wide_pairings_of_rapid_by_era(period: Period, rated: bool) -> None:
    assert rules.is_rateable_pairing(Pool.RAPID, period, 2700, 2000) is rated


def state(*, games: int, born: int | None = None, ever_2400: bool = False) -> rules.RatingState:
    return rules.RatingState(2000, games, ever_2400, 2000, born)


K_LINES = {
    "new player K 25: last period, 2011-06": (P("2011-06"), state(games=5), 25),
    "new player K 30: first period, 2011-07": (P("2011-07"), state(games=5), 30),
    "new player K 30: last period, 2014-06": (P("2014-06"), state(games=5), 30),
    "new player K 40: first period, 2014-07": (P("2014-07"), state(games=5), 40),
    "established K 15: last period, 2014-06": (P("2014-06"), state(games=40), 15),
    "established K 20: first period, 2014-07": (P("2014-07"), state(games=40), 20),
    "no junior line: last period, 2014-06": (P("2014-06"), state(games=40, born=1998), 15),
    "junior K 40: first period, 2014-07": (P("2014-07"), state(games=40, born=1998), 40),
    "ever 2400 K 10 before 2009": (P("2008-06"), state(games=40, ever_2400=True), 10),
    "ever 2400 K 10 today": (P("2026-10"), state(games=40, ever_2400=True), 10),
}


@pytest.mark.parametrize(("period", "standing", "k"), list(K_LINES.values()), ids=list(K_LINES))
def test_k_by_era(period: Period, standing: rules.RatingState, k: int) -> None:
    assert rules.development_coefficient(standing, period) == k


K_PRODUCT_CAP = {
    "no 700 cap: 2014-06 (K 30, 30 games)": (P("2014-06"), 30, 30, 30),
    "no 700 cap: last period, 2015-06 (K 40, 18 games)": (P("2015-06"), 40, 18, 40),
    "700 cap: first period, 2015-07 (K 40, 18 games)": (P("2015-07"), 40, 18, 38),
    "700 cap: 2015-07 (K 20, 36 games)": (P("2015-07"), 20, 36, 19),
}


@pytest.mark.parametrize(
    ("period", "k", "games", "capped"), list(K_PRODUCT_CAP.values()), ids=list(K_PRODUCT_CAP)
)
def test_the_700_cap_by_era(period: Period, k: int, games: int, capped: int) -> None:
    assert rules.capped_k(k, games, period) == capped


def pooled(*scores: int, opponent: int = 1800) -> list[rules.InitialRatingGame]:
    """Games of one event against `opponent`, scoring `scores` (hundredths)."""
    event = (dt.date(2011, 1, 1), 0)
    return [
        rules.InitialRatingGame(event=event, opponent_rating=opponent, score=score)
        for score in scores
    ]


INITIAL = {
    "9 games needed: last period, 2011-06": (P("2011-06"), [WIN, DRAW, DRAW, LOSS, DRAW], None),
    "5 games needed: first period, 2011-07": (P("2011-07"), [WIN, DRAW, DRAW, LOSS, DRAW], 1800),
    # 4.5 of 5 against 1800: Ra 1800 + 4 half points above 50 % x 20 = 1880 (no draws, no cap)
    "Ra + 20 per half point: last period, 2024-02": (P("2024-02"), [WIN] * 4 + [DRAW], 1880),
    # 8.2: Ra 1800, p = 5.5 / 7 = 0.79 -> dp +230: 2030 (two draws against 1800)
    "8.2 with two 1800 draws: first period, 2024-03": (P("2024-03"), [WIN] * 4 + [DRAW], 2030),
    # 12.5 per half point while the new player's K was 25: 8.5 of 9, 8 half points: 1900
    "Ra + 12.5 per half point: 2009-07": (P("2009-07"), [WIN] * 8 + [DRAW], 1900),
}


@pytest.mark.parametrize(("period", "scores", "rating"), list(INITIAL.values()), ids=list(INITIAL))
def test_first_ratings_by_era(period: Period, scores: list[int], rating: int | None) -> None:
    calculation = rules.initial_calculation(pooled(*scores), period)
    assert calculation.rating == rating


def test_the_first_rating_cap_of_2200_begins_in_march_2024() -> None:
    strong = pooled(WIN, WIN, WIN, WIN, WIN, opponent=2300)
    assert rules.initial_calculation(strong, P("2024-02")).rating == 2400
    assert rules.initial_calculation(strong, P("2024-03")).rating == 2200


# -- FIDE's published calculations of 2008-2010 (Games-Ratings 0.0.5, see the docstring) ------


@dataclasses.dataclass(frozen=True)
class Published:
    """One player's published calculation: the period it was rated in (the last month
    before the list named on FIDE's page), rating, K, opponents and results; ΣPD and
    K x ΣΔR as FIDE printed them, in hundredths."""

    source: str
    period: Period
    rating: int
    k: int
    opponents: tuple[int, ...]
    results: str
    expected: int
    k_times_sum: int


PUBLISHED = [
    Published(
        "t/01.Elo.t: the module's example of the rule of 350",
        P("2008-06"),
        2235,
        15,
        (1700,),
        "win",
        89,
        165,
    ),
    Published(
        "t/01.Elo.t: the same with a draw against 2250",
        P("2008-06"),
        2235,
        15,
        (1700, 2250),
        "win draw",
        137,
        195,
    ),
    Published(
        "t/103.Elo.t: individual_calculations idnumber=4625200 rating_period=2008-07-01",
        P("2008-06"),
        2240,
        15,
        (2242, 2360, 2289, 2251, 2303, 2152, 2313, 2309, 2110),
        "draw draw draw loss loss draw draw draw loss",
        426,
        -1890,
    ),
    Published(
        "t/102.Elo.t: individual_calculations idnumber=4625200 rating_period=2008-10-01",
        P("2008-09"),
        2221,
        15,
        (1871, 2015, 2122, 2552, 2155, 2123, 2316, 2151),
        "draw win win loss draw win draw win",
        460,
        1350,
    ),
    Published(
        "t/101.Elo.t: individual_calculations idnumber=4625200 rating_period=2009-07-01",
        P("2009-06"),
        2235,
        15,
        (2120, 2121, 2118, 2026, 2328, 2231, 2197, 2190),
        "draw draw win loss loss win loss win",
        474,
        -1110,
    ),
    Published(
        "t/106.Elo.t: tournament_report event16=42427 (London, December 2009), Kramnik",
        P("2009-12"),
        2788,
        10,
        (2662, 2657, 2641, 2696, 2708, 2810, 2749, 2723, 2790, 2720, 2712, 2739, 2675),
        "draw win win draw win win draw draw loss draw draw draw draw",
        781,
        190,
    ),
    Published(
        "t/107.Elo.t: tournament_report event16=42427, Shirov",
        P("2009-12"),
        2723,
        10,
        (2662, 2657, 2641, 2696, 2708, 2810, 2749, 2790, 2788, 2720, 2712, 2739, 2675),
        "win win win draw loss draw draw loss draw draw draw win win",
        657,
        1430,
    ),
    Published(
        "t/108.Elo.t: tournament_report event16=42427, Anand",
        P("2009-12"),
        2790,
        10,
        (2720, 2696, 2712, 2708, 2739, 2810, 2675, 2749, 2662, 2723, 2657, 2788, 2641),
        "draw draw draw draw draw draw draw draw draw win draw win draw",
        785,
        -350,
    ),
    Published(
        "t/109.Elo.t: tournament_report event16=42427, Nakamura",
        P("2009-12"),
        2708,
        10,
        (2657, 2641, 2696, 2790, 2810, 2749, 2723, 2788, 2720, 2712, 2739, 2675, 2662),
        "draw win win draw draw draw win loss loss draw draw draw win",
        628,
        1220,
    ),
    Published(
        "t/105.Elo.t: individual_calculations idnumber=1503014 rating_period=2010-03-01",
        P("2010-01"),
        2810,
        10,
        (2662, 2657, 2641, 2696, 2708, 2790, 2749, 2723, 2788, 2720, 2712, 2739, 2675),
        "draw win win draw draw draw win draw loss win win draw draw",
        821,
        290,
    ),
    Published(
        "t/100.Elo.t: individual_calculations idnumber=4625200 rating_period=2010-05-01",
        P("2010-04"),
        2224,
        15,
        (2319, 2181, 2246, 2261, 2312, 2297, 2144),
        "loss win win draw loss loss win",
        324,
        390,
    ),
]


@pytest.mark.parametrize("published", PUBLISHED, ids=lambda published: published.source)
def test_the_calculator_gives_fides_published_calculations(published: Published) -> None:
    results = [RESULTS[result] for result in published.results.split()]
    result = calculate_games(
        published.rating,
        published.k,
        list(zip(published.opponents, results, strict=True)),
        period=published.period,
    )
    assert (result.total_expected, result.k_times_sum) == (
        published.expected,
        published.k_times_sum,
    )


# -- the close, on both backends ---------------------------------------------------------------
# Periods that end a list in every cadence: before July 2012 FIDE's lists were quarterly,
# then bi-monthly, so July 2009 and July 2011 are closed with the month after.

CLOSES = {
    "2235 beats 1700, K 15, rule of 350: 2008-06 gives +1.65": ("2008-06", 15, 165, 2237),
    "the same in the last period of the rule of 350, 2009-06": ("2009-06", 15, 165, 2237),
    "the same in the first list period of the rule of 400, 2009-08": ("2009-08", 15, 120, 2236),
    "the same in the last period of K 15, 2014-06": ("2014-06", 15, 120, 2236),
    "the same in the first period of K 20, 2014-07": ("2014-07", 20, 160, 2237),
}


@pytest.mark.parametrize(
    ("period", "k", "k_times_sum", "rating"), list(CLOSES.values()), ids=list(CLOSES)
)
def test_a_close_rates_by_the_era_of_its_period(
    ledger: Ledger, period: str, k: int, k_times_sum: int, rating: int
) -> None:
    winner = player(ledger, "Winner", rating=2235, games=40)
    loser = player(ledger, "Loser", rating=1700, games=40)
    game(ledger, winner, loser, "1-0", f"{period}-10")
    close(ledger, period)
    row = listing(ledger, period)[winner]
    with ledger.reading() as session:
        stored = session.scalar(select(ListEntry.k_times_sum).where(ListEntry.player_id == winner))
    assert (row.k_applied, stored, row.rating) == (k, k_times_sum, rating)


CAP_EXEMPTION_CLOSES = {
    # 2813 draws 2400: the 2813 player's D is 400 (PD 0.92) up to 2025-09, then 413 (PD
    # 0.93); the 2400 player's D is -400 (PD 0.08) in both. Both K 10 (ever 2400).
    "2650 exemption: last period without, 2025-09": ("2025-09", -420, 2809),
    "2650 exemption: first period, 2025-10": ("2025-10", -430, 2809),
}


@pytest.mark.parametrize(
    ("period", "k_times_sum", "rating"),
    list(CAP_EXEMPTION_CLOSES.values()),
    ids=list(CAP_EXEMPTION_CLOSES),
)
def test_a_close_applies_the_2650_exemption_by_era(
    ledger: Ledger, period: str, k_times_sum: int, rating: int
) -> None:
    strong = player(ledger, "Strong", rating=2813, games=40)
    other = player(ledger, "Other", rating=2400, games=40)
    game(ledger, strong, other, "1/2-1/2", f"{period}-10")
    close(ledger, period)
    rows = listing(ledger, period)
    with ledger.reading() as session:
        stored = dict(session.execute(select(ListEntry.player_id, ListEntry.k_times_sum)).all())
    figures = {who: (rows[who].k_applied, stored[who], rows[who].rating) for who in (strong, other)}
    assert figures == {strong: (10, k_times_sum, rating), other: (10, 420, 2404)}


WIDE_PAIRING_CLOSES = {
    # 2700 beats 2000 in rapid, 700 apart, one above 2600: rated up to 2024-11 (the 2700
    # player's D capped at 400, PD 0.92: K 10 x 0.08 = +0.80, +1; the 2000 player K 20 x
    # -0.08 = -1.60, -2), not rated from 2024-12.
    "rapid 600 rule: last period without, 2024-11": ("2024-11", 1, (2701, 1998)),
    "rapid 600 rule: first period, 2024-12": ("2024-12", 0, (2700, 2000)),
}


@pytest.mark.parametrize(
    ("period", "rated", "ratings"),
    list(WIDE_PAIRING_CLOSES.values()),
    ids=list(WIDE_PAIRING_CLOSES),
)
def test_a_close_rates_rapid_wide_pairings_by_era(
    ledger: Ledger, period: str, rated: int, ratings: tuple[int, int]
) -> None:
    rapid = Pool.RAPID
    strong = player(ledger, "Strong", rating=2700, games=40, pool=rapid)
    weak = player(ledger, "Weak", rating=2000, games=40, pool=rapid)
    game(ledger, strong, weak, "1-0", f"{period}-10", pool=rapid)
    closed = close(ledger, period, rapid)
    rows = listing(ledger, period, rapid)
    assert (closed.games_rated, closed.games_unrated) == (rated, 1 - rated)
    assert (rows[strong].games, rows[weak].games) == (rated, rated)
    assert (rows[strong].rating, rows[weak].rating) == ratings


NEW_PLAYER_CLOSES = {
    "a new player's K 25: last period, 2011-06": ("2011-06", 25),
    "a new player's K 30: first list period, 2011-08": ("2011-08", 30),
    "a new player's K 40: first period, 2014-07": ("2014-07", 40),
}


@pytest.mark.parametrize(
    ("period", "k"), list(NEW_PLAYER_CLOSES.values()), ids=list(NEW_PLAYER_CLOSES)
)
def test_a_close_gives_a_new_player_the_k_of_its_era(ledger: Ledger, period: str, k: int) -> None:
    newcomer = player(ledger, "New", rating=1800, games=5)
    other = player(ledger, "Other", rating=1800, games=40)
    game(ledger, newcomer, other, "1-0", f"{period}-10")
    close(ledger, period)
    assert listing(ledger, period)[newcomer].k_applied == k


JUNIOR_CLOSES = {
    "no junior line: last period, 2014-06 (K 15)": ("2014-06", 15),
    "junior K 40: first period, 2014-07": ("2014-07", 40),
    "junior K 40, no 700 cap: last period, 2015-06": ("2015-06", 40),
    "junior K 40 capped by 700 / 18 games: first period, 2015-07": ("2015-07", 38),
}


@pytest.mark.parametrize(("period", "k"), list(JUNIOR_CLOSES.values()), ids=list(JUNIOR_CLOSES))
def test_a_close_applies_the_junior_line_and_the_700_cap_by_era(
    ledger: Ledger, period: str, k: int
) -> None:
    junior = player(ledger, "Junior", rating=1800, games=40, birth_year=2000)
    others = [player(ledger, f"Other {n}", rating=1800, games=40) for n in range(18)]
    for day, other in enumerate(others, start=1):
        game(ledger, junior, other, "1/2-1/2", f"{period}-{day:02d}")
    close(ledger, period)
    assert listing(ledger, period)[junior].k_applied == k


def test_the_live_list_rates_the_open_period_by_its_era(ledger: Ledger) -> None:
    winner = player(ledger, "Winner", rating=2235, games=40)
    loser = player(ledger, "Loser", rating=1700, games=40)
    close(ledger, "2008-03")
    game(ledger, winner, loser, "1-0", "2008-06-10")
    with ledger.reading() as session:
        live = live_list(session, Pool.STANDARD)
    row = next(row for row in live.rows if row.id == winner)
    assert (live.period, row.k_applied, row.change, row.rating) == (P("2008-06"), 15, 2, 2237)


def test_a_late_game_rerates_its_old_period_by_its_era(ledger: Ledger) -> None:
    winner = player(ledger, "Winner", rating=2235, games=40)
    loser = player(ledger, "Loser", rating=1700, games=40)
    game(ledger, winner, loser, "1/2-1/2", "2008-06-03")
    close(ledger, "2008-06")
    close(ledger, "2008-09")
    late = new_game(
        date=dt.date(2008, 6, 20),
        white=winner,
        black=loser,
        result=GameResult.WHITE_WINS,
        today=NOW.date(),
    )
    with ledger.transaction() as session:
        corrections.add_late_game(session, Pool.STANDARD, late, NOW)
    # 0.5 - 0.89 and 1 - 0.89 with the rule of 350: K 15 x -0.28 = -4.20, rounded -4
    with ledger.reading() as session:
        stored = session.scalar(
            select(ListEntry.k_times_sum).where(
                ListEntry.player_id == winner, ListEntry.period == P("2008-06")
            )
        )
    assert stored == -420
    assert listing(ledger, "2008-09")[winner].rating == 2231


# -- every face names the rules it used ---------------------------------------------------------


def test_calc_names_the_era_and_gives_the_rule_of_350_in_2008() -> None:
    shown = run(
        "calc", "--rating", "2235", "--k", "15", "--opponents", "1700:1", "--period", "2008-06"
    )
    assert shown.exit_code == 0, shown.stderr
    assert "K × ΣΔR = 15 × +0.11 = +1.65, rounded +2; new rating 2237" in shown.stdout
    assert "Rules: FIDE rules before July 2009 (from 2006-07): difference cap 350" in shown.stdout
    document = json.loads(
        run(
            "calc",
            "--rating",
            "1800",
            "--opponents",
            "1900:1",
            "--games-completed",
            "5",
            "--period",
            "2010-01",
            "--format",
            "json",
        ).stdout
    )
    assert (document["k_applied"], document["k_reason"]) == (25, "K 25: fewer than 30 rated games")
    assert document["rules"]["era"] == "FIDE rules of July 2009"
    assert document["rules"]["first_period"] == "2009-07"
    assert (document["rules"]["difference_cap"], document["rules"]["k_product_cap"]) == (400, None)


def test_explain_and_the_web_name_the_era_of_the_period(database_url: str) -> None:
    ledger = open_ledger(database_url)
    winner = player(ledger, "Winner", rating=2235, games=40)
    loser = player(ledger, "Loser", rating=1700, games=40)
    game(ledger, winner, loser, "1-0", "2008-06-10")
    close(ledger, "2008-06")
    ledger.dispose()
    shown = run("explain", str(winner), "--period", "2008-06", db=database_url)
    assert "Rules: FIDE rules before July 2009 (from 2006-07): difference cap 350" in shown.stdout
    assert "K 15: 30 or more rated games, never 2400" in shown.stdout
    assert "D350" in shown.stdout
    document = json.loads(
        run(
            "explain", str(winner), "--period", "2008-06", "--format", "json", db=database_url
        ).stdout
    )
    assert document["rules"]["era"] == "FIDE rules before July 2009"
    assert (document["k"], document["k_times_sum"]) == (15, 1.65)
    with TestClient(create_app(database_url)) as client:
        page = client.get(f"/players/{winner}/calculations/standard/2008-06")
        answer = client.get(f"/api/v1/players/{winner}/calculations/standard/2008-06")
    assert "FIDE rules before July 2009 (from 2006-07): difference cap 350" in page.text
    assert ">D350</abbr>" in page.text
    assert answer.json()["rules"]["difference_cap"] == 350


def test_no_games_give_no_first_rating_in_any_era() -> None:
    for era in ERAS:
        assert rules.initial_calculation([], era.first_period).rating is None


def test_k_in_words_names_the_eras_cap() -> None:
    period = P("2015-07")
    reason = rules.k_reason(rules.KRule.JUNIOR, 38, 18, 2000, period)
    assert reason == "K 38: 40 capped by 700 / 18 games"


FIRST_RATING_CLOSES = {
    "9 games needed: last list period, 2011-06": ("2011-06", ["1-0", "1/2-1/2", "0-1"], None),
    "5 games needed: first list period, 2011-08": ("2011-08", ["1-0", "1/2-1/2", "0-1"], 1800),
    "Ra + 20 per half point: last period, 2024-02": ("2024-02", ["1-0", "1-0", "1/2-1/2"], 1880),
    "8.2, two draws against 1800: first period, 2024-03": (
        "2024-03",
        ["1-0", "1-0", "1/2-1/2"],
        2030,
    ),
}


@pytest.mark.parametrize(
    ("period", "results", "rating"),
    list(FIRST_RATING_CLOSES.values()),
    ids=list(FIRST_RATING_CLOSES),
)
def test_a_close_gives_first_ratings_by_the_era_of_its_period(
    ledger: Ledger, period: str, results: list[str], rating: int | None
) -> None:
    """Five games against 1800: a win, then `results`, then a win or a loss so that the
    score is 2.5 (50 %) or 4.5."""
    newcomer = player(ledger, "New")
    rated = [player(ledger, f"Rated {n}", rating=1800, games=40) for n in range(5)]
    last = "0-1" if results[-1] == "0-1" else "1-0"
    for day, (opponent, result) in enumerate(zip(rated, ["1-0", *results, last], strict=True)):
        game(ledger, newcomer, opponent, result, f"{period}-{day + 1:02d}")
    close(ledger, period)
    row = listing(ledger, period).get(newcomer)
    assert (row.rating if row else None) == rating


# -- the rule of 400 once an event (January 2022 to February 2024) -------------------------------

COOMERA = (
    (1063, WIN),
    (1299, WIN),
    (1413, WIN),
    (1872, DRAW),
    (1851, LOSS),
    (1427, WIN),
    (1682, WIN),
)
"""A published calculation of the rule of 400 once an event: a player rated 2000, K 20, in
a rapid event of October 2022 ("Coomera Halloween rapid"), as FIDE rated it and posted by
the player (chesschat.org, "FIDE rating uplift change"): only the game against 1063 is
capped (0.92), the others use the actual difference (1299: 0.99, 1413 and 1427: 0.98);
ΣΔR -0.61, K x ΣΔR -12.20."""

ONCE_AN_EVENT = {
    "every game capped: last period, 2021-12": (P("2021-12"), -840),
    "once an event: first period, 2022-01": (P("2022-01"), -1220),
    "once an event: the published calculation, 2022-10": (P("2022-10"), -1220),
    "once an event: last period, 2024-02": (P("2024-02"), -1220),
    "every game capped again: first period, 2024-03": (P("2024-03"), -840),
}


@pytest.mark.parametrize(
    ("period", "k_times_sum"), list(ONCE_AN_EVENT.values()), ids=list(ONCE_AN_EVENT)
)
def test_the_cap_once_an_event_by_era(period: Period, k_times_sum: int) -> None:
    result = calculate_games(2000, 20, list(COOMERA), Pool.RAPID, period)
    assert result.k_times_sum == k_times_sum
    pairings = rules.PeriodPairings.of(Pool.RAPID, period)
    capped = pairings.event_differences(2000, [opponent for opponent, _ in COOMERA])
    assert capped[0] == 400
    assert capped[1] == (400 if k_times_sum == -840 else 701)


def test_the_cap_once_an_event_takes_the_first_of_equal_differences() -> None:
    pairings = rules.PeriodPairings.of(Pool.STANDARD, P("2023-01"))
    assert pairings.event_differences(2000, [1500, 1400, 1400, 2500]) == [500, 400, 600, -400]


@pytest.mark.parametrize(
    ("period", "k_times_sum"), list(ONCE_AN_EVENT.values()), ids=list(ONCE_AN_EVENT)
)
def test_a_close_caps_once_an_event_by_era(
    ledger: Ledger, period: Period, k_times_sum: int
) -> None:
    """The published calculation 500 points higher (a starting rating is 1400 or more): the
    same differences, so the same PD; K 10 once 2400 is reached, so half of K 20's."""
    rapid, shift = Pool.RAPID, 500
    rated = player(ledger, "Rated", rating=2000 + shift, games=40, pool=rapid)
    other = player(ledger, "Other event", rating=1000 + shift, games=40, pool=rapid)
    results = {WIN: "1-0", DRAW: "1/2-1/2", LOSS: "0-1"}
    for round, (rating, score) in enumerate(COOMERA, start=1):
        opponent = player(ledger, f"Opponent {round}", rating=rating + shift, games=40, pool=rapid)
        day = f"{period}-{round:02d}"
        game(
            ledger, rated, opponent, results[score], day, event="Halloween", round=round, pool=rapid
        )
    # a game of another event takes the cap again, as does a game recorded without event
    game(ledger, rated, other, "1-0", f"{period}-20", event="Other", round=1, pool=rapid)
    game(ledger, rated, other, "1-0", f"{period}-21", pool=rapid)
    close(ledger, str(period), rapid)
    with ledger.reading() as session:
        stored = session.scalar(
            select(ListEntry.k_times_sum).where(
                ListEntry.player_id == rated, ListEntry.pool == rapid
            )
        )
    assert stored == k_times_sum // 2 + 2 * 80
    assert listing(ledger, str(period), rapid)[rated].k_applied == 10
    with ledger.reading() as session:
        explained = explain(session, rapid, rated, period)
    differences = [game.d_capped for game in sorted(explained.games, key=lambda g: g.date)]
    once = k_times_sum != -840
    uncapped = [701, 587, 573] if once else [400, 400, 400]
    assert differences == [400, *uncapped[:2], 128, 149, uncapped[2], 318, 400, 400]


@pytest.mark.parametrize(
    ("period", "k_times_sum"), list(ONCE_AN_EVENT.values()), ids=list(ONCE_AN_EVENT)
)
def test_the_live_list_caps_once_an_event_as_the_close(
    ledger: Ledger, period: Period, k_times_sum: int
) -> None:
    rapid, shift = Pool.RAPID, 500
    rated = player(ledger, "Rated", rating=2000 + shift, games=40, pool=rapid)
    results = {WIN: "1-0", DRAW: "1/2-1/2", LOSS: "0-1"}
    opponents = [
        player(ledger, f"Opponent {n}", rating=rating + shift, games=40, pool=rapid)
        for n, (rating, _) in enumerate(COOMERA)
    ]
    close(ledger, str(period - 1), rapid)
    for round, (opponent, (_, score)) in enumerate(zip(opponents, COOMERA, strict=True), start=1):
        day = f"{period}-{round:02d}"
        game(
            ledger, rated, opponent, results[score], day, event="Halloween", round=round, pool=rapid
        )
    with ledger.reading() as session:
        live = live_list(session, rapid)
        (card,) = player_card(session, rated, rapid).pools
    row = next(row for row in live.rows if row.id == rated)
    assert row.change == rules.round_half_away_from_zero(k_times_sum // 2)
    assert card.live is not None
    assert card.live.change == row.change
    close(ledger, str(period), rapid)
    assert listing(ledger, str(period), rapid)[rated].change == row.change
