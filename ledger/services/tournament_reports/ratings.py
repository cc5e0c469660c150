"""What a report would do to its players' ratings, read before anything is recorded: each
rated player's expected rating change from the report's games, rated as the live list rates
the games since the newest list (`ledger.core.rules`: table 8.1.2 with the rule of 400, K of
8.3.3 with the 700 cap, one rounding; unofficial), and a warning for a performance far from
the player's rating (`ledger.core.calculator.performance_rating`). Reads only."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from ledger.core import rules
from ledger.core.calculator import performance_rating
from ledger.core.domain import Period, Pool
from ledger.core.printable import counted
from ledger.core.reports import PERFORMANCE_GAMES, PERFORMANCE_GAP, Finding, Tier
from ledger.formats.report_files import ReportFile, ReportPlayer
from ledger.storage.batches import AnyRow, select_in
from ledger.storage.models import Player, PlayerRating


@dataclass
class _Played:
    """A rated player's games of the report against rated opponents."""

    standing: AnyRow
    games: list[rules.RatedGame] = field(default_factory=list)
    opponents: list[int] = field(default_factory=list)


def rating_findings(
    session: Session, pool: Pool, period: Period, read: ReportFile, ids: Mapping[str, int]
) -> list[Finding]:
    """A note of each rated player's expected change, and a warning for each performance
    `PERFORMANCE_GAP` or more from the rating over `PERFORMANCE_GAMES` games or more."""
    played = _played(session, pool, period, read, ids)
    players = {player.reference: player for player in read.players}
    findings = []
    for reference, games in played.items():
        findings.append(_expected(players[reference], games, period))
        if len(games.games) >= PERFORMANCE_GAMES:
            findings += _performance(players[reference], games)
    return findings


def _played(
    session: Session, pool: Pool, period: Period, read: ReportFile, ids: Mapping[str, int]
) -> dict[str, _Played]:
    """The report's rated games of each rated player, by reference."""
    standings = _standings(session, pool, set(ids.values()))
    counted = []
    for game in read.games:
        white, black = standings.get(ids.get(game.white, 0)), standings.get(ids.get(game.black, 0))
        if game.counts and white is not None and black is not None:
            counted.append((game, white, black))
    paired = [  # the report is one event (8.3.1 from January 2022 caps once an event)
        rules.PairedGame(white.id, black.id, 0, white.rating, black.rating)
        for _, white, black in counted
    ]
    pairings = rules.PeriodPairings.of(pool, period)
    played: dict[str, _Played] = {}
    for (game, white, black), expected in zip(
        counted, rules.period_expected_scores(pairings, paired), strict=True
    ):
        if expected is None:
            continue
        for reference, own, opponent, is_white in (
            (game.white, white, black, True),
            (game.black, black, white, False),
        ):
            player = played.setdefault(reference, _Played(own))
            player.games.append(
                rules.RatedGame(game.result.score(white=is_white), expected[0 if is_white else 1])
            )
            player.opponents.append(opponent.rating)
    return played


def _standings(session: Session, pool: Pool, player_ids: set[int]) -> dict[int, AnyRow]:
    """The rated players' standing in the pool, and their birth year (for K)."""
    statement = (
        select(Player.id, Player.birth_year, PlayerRating.rating)
        .add_columns(PlayerRating.games_completed, PlayerRating.ever_2400, PlayerRating.peak)
        .join(PlayerRating, (PlayerRating.player_id == Player.id) & (PlayerRating.pool == pool))
        .where(PlayerRating.rating.is_not(None))
    )
    return {row.id: row for row in select_in(session, statement, Player.id, player_ids)}


def _expected(player: ReportPlayer, played: _Played, period: Period) -> Finding:
    standing = played.standing
    state = rules.RatingState(
        standing.rating,
        standing.games_completed,
        standing.ever_2400,
        standing.peak,
        standing.birth_year,
    )
    change = rules.rate_period(state, period, played.games).change
    return Finding(
        tier=Tier.NOTE,
        code="expected-change",
        message=f"{player.name or f'player {player.reference}'} (ledger {standing.id}, rated "
        f"{standing.rating}): {change:+d} expected from the report's "
        f"{counted(len(played.games), 'rated game')}, as the live list rates them "
        "(unofficial).",
        line=player.line,
        subject=player.reference,
    )


def _performance(player: ReportPlayer, played: _Played) -> list[Finding]:
    points = sum(game.score for game in played.games)
    performance = performance_rating(played.opponents, points)
    gap = performance - played.standing.rating
    if abs(gap) < PERFORMANCE_GAP:
        return []
    return [
        Finding(
            tier=Tier.WARNING,
            code="performance",
            message=f"{player.name or f'player {player.reference}'} performed at "
            f"{performance}, {abs(gap)} points {'above' if gap > 0 else 'below'} their "
            f"rating of {played.standing.rating}; check the results of their "
            f"{len(played.games)} games, or say in the note that they are right.",
            line=player.line,
            subject=player.reference,
        )
    ]
