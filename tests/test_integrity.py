"""`ledger db check`: a sound ledger passes; each kind of damage is found and named."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from ledger.storage.database import Ledger

from builders import close, game, player, run

FIDE_LIST = Path(__file__).parent / "data" / "fide" / "players_list_foa.txt"


def _sound(ledger: Ledger, url: str) -> dict[str, int]:
    """Two closed periods after an imported FIDE list: rated games, a forfeit, a newcomer."""
    assert run("import-fide-list", str(FIDE_LIST), "--period", "2026-07", db=url).exit_code == 0
    rita = player(ledger, "Rated, Rita", rating=2000)
    otto = player(ledger, "Other, Otto", rating=1900)
    nina = player(ledger, "New, Nina")
    for day in range(1, 6):
        game(ledger, rita, otto, "1-0" if day % 2 else "1/2-1/2", f"2026-08-0{day}")
        game(ledger, nina, otto, "0-1", f"2026-08-1{day}")
    game(ledger, 1503014, rita, "1/2-1/2", "2026-08-20")
    game(ledger, otto, rita, "+/-", "2026-08-21")
    close(ledger, "2026-08")
    game(ledger, nina, rita, "1-0", "2026-09-02")
    close(ledger, "2026-09")
    return {"rita": rita, "otto": otto}


def _check(url: str) -> tuple[int, list[str]]:
    checked = run("db", "check", db=url)
    return checked.exit_code, checked.stdout.splitlines()


def test_a_sound_ledger_passes(ledger: Ledger, database_url: str) -> None:
    _sound(ledger, database_url)
    assert _check(database_url) == (0, ["The ledger agrees with itself: no problems found."])


DAMAGE = {
    "a change that does not round from K x ΣΔR": (
        "UPDATE list_entries SET change = change + 1, rating = rating + 1 "
        "WHERE player_id = {otto} AND period = '2026-08'",
        "standard: player {otto} on the list of 2026-08: the change is ",
    ),
    "a rating that is not the previous one plus the change": (
        "UPDATE list_entries SET rating = rating + 3 "
        "WHERE player_id = 1503014 AND period = '2026-08'",
        "standard: player 1503014 on the list of 2026-08: the rating is",
    ),
    "a game's record lost": (
        "DELETE FROM game_ratings WHERE game_id = 1",
        "standard: game 1 of closed period 2026-08 has no record of how it was rated.",
    ),
    "a standing that is not the newest row": (
        "UPDATE player_ratings SET peak = peak + 5 WHERE player_id = {rita} AND pool = 'standard'",
        "standard: player {rita}'s standing (rating, games, 2400 flag, peak)",
    ),
    "games completed that do not add up": (
        "UPDATE list_entries SET games_completed = games_completed + 5 "
        "WHERE player_id = 1503014 AND period = '2026-08'",
        "standard: player 1503014 on the list of 2026-08: ",
    ),
    "a previous rating that is not the row before's": (
        "UPDATE list_entries SET previous_rating = previous_rating + 50, rating = rating + 50 "
        "WHERE player_id = 1503014 AND period = '2026-08'",
        "standard: player 1503014 on the list of 2026-08: the previous rating is",
    ),
    "a player on a list without a standing": (
        "DELETE FROM player_ratings WHERE player_id = {rita} AND pool = 'standard'",
        "standard: player {rita} is on a list but has no standing.",
    ),
    "a closed period's row lost": (
        "DELETE FROM rating_periods WHERE period = '2026-09' AND pool = 'standard'",
        "standard: period 2026-09 is open, but holds list rows of a close.",
    ),
    "a list's version record lost": (
        "DELETE FROM list_versions WHERE period = '2026-09' AND pool = 'standard'",
        "standard: closed period 2026-09 has no record of its list's version.",
    ),
    "a period left open between closed ones": (
        "UPDATE rating_periods SET closed_at = NULL WHERE period = '2026-08' AND pool = 'standard'",
        "standard: period 2026-08 is not closed, though 2026-09 is: lists are published in order.",
    ),
}


@pytest.mark.parametrize(("damage", "found"), list(DAMAGE.values()), ids=list(DAMAGE))
def test_damage_is_found_and_named(
    damage: str, found: str, ledger: Ledger, database_url: str
) -> None:
    ids = _sound(ledger, database_url)
    with ledger.engine.begin() as connection:
        connection.execute(text(damage.format(**ids)))
    code, lines = _check(database_url)
    assert code == 1
    assert any(line.startswith(found.format(**ids)) for line in lines), lines
    refused = run("db", "check", db=database_url)
    assert refused.stderr == (
        f"error: the ledger disagrees with itself in {len(lines)} places (above).\n"
    )
