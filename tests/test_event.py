"""`ledger event`: the cross-table, category, performances and changes of an event."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

from ledger.core.domain import Pool
from ledger.core.errors import NotFound
from ledger.queries.crosstables import cross_table
from ledger.storage.database import Ledger

from builders import close, game, player, run


def test_a_round_robin_of_four(ledger: Ledger) -> None:
    a = player(ledger, "Aa", rating=2400, ever_2400=True)
    b = player(ledger, "Bb", rating=2300)
    c = player(ledger, "Cc", rating=2250)
    d = player(ledger, "Dd", rating=2150)
    rounds = [
        ((a, d, "1-0"), (b, c, "1/2-1/2")),
        ((c, a, "0-1"), (d, b, "0-1")),
        ((a, b, "1/2-1/2"), (c, d, "+/-")),
    ]
    for number, pairs in enumerate(rounds, start=1):
        for white, black, result in pairs:
            game(ledger, white, black, result, f"2026-10-0{number}", event="Club RR")
    close(ledger, "2026-10")
    with ledger.reading() as session:
        table = cross_table(session, Pool.STANDARD, "Club RR")
    # Average (2400 + 2300 + 2250 + 2150) / 4 = 2275 -> category 1 (2251-2275).
    assert (table.average_rating, table.category, table.rounds, table.rated) == (2275, 1, 3, True)
    rows = {row.name: row for row in table.rows}
    assert [row.name for row in table.rows] == ["Aa", "Bb", "Cc", "Dd"]
    assert (rows["Aa"].score, rows["Cc"].score, rows["Dd"].score) == (
        Decimal("2.5"),
        Decimal("1.5"),
        Decimal(0),
    )
    assert [(g.round, g.opponent, g.colour, g.result) for g in rows["Cc"].games] == [
        (1, 2, "b", "½"),
        (2, 1, "w", "0"),
        (3, 4, "w", "+"),
    ]
    # Aa: 2.5 / 3 against 2150, 2250, 2300: Rc 2233, p 0.83 -> dp 273 -> 2506.
    assert rows["Aa"].performance == 2506
    # Cc's forfeit win is not played: 0.5 / 2 against 2300 and 2400: Rc 2350, p 0.25,
    # dp -193 -> 2157.
    assert rows["Cc"].performance == 2157
    # Aa (K 10): vs Dd D 250 PD 0.81 (+0.19), vs Cc D 150 PD 0.70 (+0.30), vs Bb D 100 PD 0.64
    # (-0.14): ΣΔR 0.35, x 10 = +3.5.
    assert rows["Aa"].change == Decimal("3.5")


def test_a_double_forfeit_scores_nothing_for_either_player(ledger: Ledger) -> None:
    a, b = player(ledger, "Aa", rating=2000), player(ledger, "Bb", rating=2000)
    game(ledger, a, b, "-/-", "2026-10-01", event="Forfeits", round=1)
    with ledger.reading() as session:
        table = cross_table(session, Pool.STANDARD, "Forfeits")
    assert [(row.name, row.score) for row in table.rows] == [("Aa", 0), ("Bb", 0)]


def test_unknown_and_unrated_events(ledger: Ledger) -> None:
    a, b = player(ledger, "A", rating=2000), player(ledger, "B")
    game(ledger, a, b, "1-0", "2026-10-02", event="Open")
    with ledger.reading() as session:
        with pytest.raises(NotFound, match="no standard event named 'Closed'"):
            cross_table(session, Pool.STANDARD, "Closed")
        table = cross_table(session, Pool.STANDARD, "Open")
    assert table.rated is False
    assert [(row.name, row.rating, row.change) for row in table.rows] == [
        ("A", 2000, None),
        ("B", None, None),
    ]


def test_the_event_on_the_command_line(database_url: str) -> None:
    run("add-player", "--name", "Aa", "--rating", "2000", "--games", "40", db=database_url)
    run("add-player", "--name", "Bb", "--rating", "1900", "--games", "40", db=database_url)
    run(
        "add-game",
        "--white",
        "1",
        "--black",
        "2",
        "--result",
        "1-0",
        "--date",
        "2026-10-05",
        "--event",
        "Cup",
        "--round",
        "1",
        db=database_url,
    )
    run("close-period", "2026-10", db=database_url)
    shown = run("event", "Cup", db=database_url)
    assert shown.exit_code == 0, shown.stderr
    assert "+7.20" in shown.stdout
    data = json.loads(run("event", "Cup", "--format", "json", db=database_url).stdout)
    assert [row["change"] for row in data["rows"]] == [7.2, -7.2]
    rows = run("event", "Cup", "--format", "csv", db=database_url).stdout.splitlines()
    assert rows[0] == "rank,number,id,name,rating,score,round_1,performance,change"
    assert rows[1] == "1,1,1,Aa,2000,1,2w1,2700,7.2"
    refused = run("event", "Nope", db=database_url)
    assert (refused.exit_code, refused.stderr) == (
        1,
        "error: no standard event named 'Nope'; `ledger events` lists the events.\n",
    )
    misspelt = run("event", "cpu", db=database_url)
    assert misspelt.stderr == (
        "error: no standard event named 'cpu' (the nearest: 'Cup'); `ledger events` lists the "
        "events.\n"
    )


def test_missing_rounds_and_unnumbered_games_keep_their_columns(ledger: Ledger) -> None:
    a, b, c = (player(ledger, name, rating=2000) for name in ("Aa", "Bb", "Cc"))
    game(ledger, a, b, "1-0", "2026-10-01", event="Triangle", round=1)
    game(ledger, b, c, "1/2-1/2", "2026-10-02", event="Triangle", round=2)
    game(ledger, c, a, "0-1", "2026-10-03", event="Triangle", round=3)
    game(ledger, a, c, "1-0", "2026-10-04", event="Triangle")
    with ledger.reading() as session:
        table = cross_table(session, Pool.STANDARD, "Triangle")
    cells = {row.name: [(g.round, g.result) for g in row.games] for row in table.rows}
    assert table.rounds == 4
    assert cells["Aa"] == [(1, "1"), (3, "1"), (4, "1")]
    assert cells["Cc"] == [(2, "½"), (3, "0"), (4, "0")]
    by_round = {
        row.name: [[g.opponent for g in cells] for cells in row.by_round(table.rounds)]
        for row in table.rows
    }
    numbers = {row.name: row.number for row in table.rows}
    assert by_round["Bb"] == [[numbers["Aa"]], [numbers["Cc"]], [], []]


def test_two_games_in_one_round_share_its_column(ledger: Ledger) -> None:
    a, b, c = (player(ledger, name, rating=2000) for name in ("Aa", "Bb", "Cc"))
    game(ledger, a, b, "1-0", "2026-10-01", event="Doubled", round=1)
    game(ledger, a, c, "1-0", "2026-10-01", event="Doubled", round=1)
    with ledger.reading() as session:
        table = cross_table(session, Pool.STANDARD, "Doubled")
    numbers = {row.name: row.number for row in table.rows}
    rows = {row.name: row for row in table.rows}
    assert [[g.opponent for g in cells] for cells in rows["Aa"].by_round(table.rounds)] == [
        [numbers["Bb"], numbers["Cc"]]
    ]


def test_a_long_event_fits_eighty_columns(database_url: str, tmp_path: Path) -> None:
    """22 players, 21 rounds: the grid continues in blocks of 12 rounds."""
    players = "id,name,federation,sex,title,birth_year,rating,games,ever_2400\n" + "".join(
        f"{i},Player {i},,,,,{1800 + i},40,\n" for i in range(1, 23)
    )
    ids = list(range(1, 23))
    games = ["date,white,black,result,event,round"]
    for number in range(1, 22):
        games += [
            f"2026-10-{number:02d},{ids[i]},{ids[-1 - i]},1/2-1/2,Marathon,{number}"
            for i in range(11)
        ]
        ids.insert(1, ids.pop())
    for name, text in (("p.csv", players), ("g.csv", "\n".join(games) + "\n")):
        (tmp_path / name).write_text(text)
    assert run("import-players", str(tmp_path / "p.csv"), db=database_url).exit_code == 0
    assert run("import-games", str(tmp_path / "g.csv"), db=database_url).exit_code == 0
    shown = run("event", "Marathon", db=database_url)
    assert "Rounds 1-12" in shown.stdout
    assert "Rounds 13-21" in shown.stdout
    assert max(len(line) for line in shown.stdout.splitlines()) <= 80


def test_a_report_that_ranks_some_players_keeps_their_ranks(
    database_url: str, tmp_path: Path
) -> None:
    """Swiss-Manager writes rank 0 for a player who withdrew: the others keep the report's
    ranks (here not the order by points), the withdrawn follow its last rank by points, in
    `ledger event` and in `export-trf`."""
    lines = [
        ("Aa", "   3", "1.0", "   2 w 1"),
        ("Bb", "   1", "0.0", "   1 b 0"),
        ("Cc", "   0", "0.0", "0000 - Z"),
        ("Dd", "   2", "0.5", "0000 - H"),
    ]
    players = [
        f"001 {number:>4} m    {name:<33} {'':>4} GER {'':>11} {'':<10} {points:>4} {rank}  {block}"
        for number, (name, rank, points, block) in enumerate(lines, start=1)
    ]
    report = tmp_path / "cup.trf"
    report.write_text("\n".join(["012 Cup", "052 2026/10/05", *players]) + "\n")
    imported = run("import-trf", str(report), db=database_url)
    assert imported.exit_code == 0, imported.stderr
    assert imported.stderr == (
        f"warning: {report.name}:5: rank: columns 86-89: the report ranks other players but not "
        "this one; it is ranked after the report's last rank, by points.\n"
    )
    table = json.loads(run("event", "Cup", "--format", "json", db=database_url).stdout)
    assert [(row["rank"], row["name"]) for row in table["rows"]] == [
        (1, "Bb"),
        (2, "Dd"),
        (3, "Aa"),
        (4, "Cc"),
    ]
    written = tmp_path / "back.trf"
    assert run("export-trf", "Cup", "--output", str(written), db=database_url).exit_code == 0
    ranks = {
        line[14:47].strip(): int(line[85:89])
        for line in written.read_text().splitlines()
        if line.startswith("001")
    }
    assert ranks == {"Aa": 3, "Bb": 1, "Cc": 4, "Dd": 2}


def test_byes_score_as_fide_scores_them_by_default(database_url: str, tmp_path: Path) -> None:
    """A report without points (columns 81-84 blank): `ledger event` scores its byes as FIDE
    does by default, a half-point bye (H) ½, a full-point (F) or pairing-allocated (U) bye
    1, a zero-point bye (Z) 0."""
    lines = [
        ("Aa", "   2 w 1", "0000 - H"),
        ("Bb", "   1 b 0", "0000 - F"),
        ("Cc", "0000 - U", "0000 - Z"),
    ]
    players = [
        f"001 {number:>4} m    {name:<33} {'':>4} GER {'':>11} {'':<10} {'':>4} {'':>4}  "
        f"{first}  {second}"
        for number, (name, first, second) in enumerate(lines, start=1)
    ]
    report = tmp_path / "byes.trf"
    report.write_text("\n".join(["012 Byes", "052 2026/10/05", *players]) + "\n")
    imported = run("import-trf", str(report), db=database_url)
    assert imported.exit_code == 0, imported.stderr
    table = json.loads(run("event", "Byes", "--format", "json", db=database_url).stdout)
    assert [
        (row["name"], row["score"], [(cell["bye"], cell["result"]) for cell in row["games"]])
        for row in table["rows"]
    ] == [
        ("Aa", 1.5, [(None, "1"), ("H", "½")]),
        ("Bb", 1, [(None, "0"), ("F", "1")]),
        ("Cc", 1, [("U", "1"), ("Z", "0")]),
    ]
    shown = run("event", "Byes", db=database_url).stdout
    assert "\nRounds 1-2 (2026-10-05 to 2026-10-05)\n" in shown  # whole, not wrapped
    for cells in (r"1\s+2w1\s+H½", r"2\s+1b0\s+F1", r"3\s+U1\s+Z0"):
        assert re.search(rf"^\s+{cells}\s*$", shown, re.MULTILINE), cells
