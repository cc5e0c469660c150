"""Closing a rating period: rate every game of the period and publish the new list.

A close, step by step
=====================

`ledger close-period 2026-10` closes the standard period 2026-10 and publishes the list in
force from 1 November 2026 (`periods.close_period`). The close is set-based: a few
statements rate the whole period, with the rules of `ledger.core.rules` in their SQL form
(`ledger.services.set_rating`), so the cost follows the period's games, not the size of the
list.

1. **Which periods** (`periods`): the pool is locked; a period closed already, a month not
   ended and an earlier open period with games are refused, and so is the period after the
   list of 2024-02 while that list awaits FIDE's compression (`ledger.core.compression`);
   earlier empty periods go along, in order, each publishing its list.
2. **The games' figures** (`figures`): one INSERT ... SELECT rates every game of the period
   for both sides into `GameRating`: the ratings in force, and each side's PD (table 8.1.2,
   staged once) by D after the rule of 400 (8.3.1). A forfeit, a game not rated by the
   arbiter, an unrated side: no PD.
3. **The rated players' rows** (`rows`): each player's games and ΣΔR, then K from the list in
   force (8.3.3, capped by 700), the change K x ΣΔR rounded once (8.3.4), and the standing
   the new rating gives (`set_rating.standing_after`, the twin of `rules.standing_after`:
   the floor, the 2400 flag, the peak, the K of the next period), staged by name as
   `rows.StagedRow`s.
4. **First ratings and the other rows** (`first_ratings`, `standings`, `publication`): an
   unrated player's games against rated opponents pool over the window
   (`rules.pooling_start`) until `rules.initial_rating` gives a first rating (8.2); the
   starting ratings no list has carried yet join the list; a player whose federation or
   title the list carries anew gets a row without games (`ledger.services.list_details`).
5. **The writes** (`writes`): set-wise from the staged rows, the list rows, the standings
   they replace (`PriorStanding`, for a reopen or a re-rate) and the new standings; then the
   list's version and the log entry. It is one transaction: a failure anywhere rolls all
   of it back.

A worked example
----------------

Ann (2000) beats Bo (1900) in 2026-10, and Di (1405) beats Cy (1405); all four have 40
rated games, were born in 1990 and never reached 2400:

- figures: Ann's D is +100 and Bo's -100, so PD 0.64 and 0.36; Di's and Cy's D is 0, PD
  0.50 each;
- rows: Ann's ΣΔR is 1 - 0.64 = +0.36, K 20 (30 games or more, never 2400), K x ΣΔR = 7.20,
  a change of +7: 2007; Bo -7: 1893; Di +10: 1415; Cy -10: 1395, below the floor of 1400
  (7.1.4), so Cy's row keeps 1395 unlisted, without K, and Cy is unrated from this list on;
- the list of 2026-10: Ann 2007, Bo 1893, Di 1415; the close reports 2 games rated, 4
  players rated, 1 fallen below the floor (`ClosedPeriod`).

Changing a rule: its function in `ledger.core.rules` (cited by article) is the one place;
where this close needs it in SQL, its twin in `ledger.services.set_rating` is built from that
function or its constant, and `tests/test_set_rating.py` holds the two together on both
backends. The floor, for one: `rules.rating_floor` (a row of `rules.RATING_FLOORS` from
the list it begins), whose twin is `set_rating.is_listed`.
The live list, `explain`, the calculator and the web read the same functions.
"""

from ledger.services.closing.periods import (
    ClosedPeriod,
    Joining,
    close_period,
    close_through,
    close_without_games,
)

__all__ = ["ClosedPeriod", "Joining", "close_period", "close_through", "close_without_games"]
