"""Names stay whole at 80 columns: every table with players' names leaves out its spare
columns (the peak, the list it was reached on, movement) before it would wrap or cut a name,
and `games` and `log` print one line a game / a change where their table does not fit."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner, Result

from ledger.cli import app
from ledger.core.domain import Pool
from ledger.storage.database import Ledger

from builders import close, game, player, run

NAMES = (
    "Hernández-Villanueva de la Cruz, María José",
    "Иванов-Петровский, Александр",
    "Müller-Lüdenscheidt, Jörg-Friedrich",
    "Nguyễn Thị Minh-Khai, Phương",
)
EVENT = "Campeonato Iberoamericano de Ajedrez Femenino"


@pytest.fixture
def long_names(ledger: Ledger) -> list[int]:
    """Four players with long names, a round robin of 2026-09 closed, a game of 2026-10."""
    ids = [
        player(ledger, name, rating=rating, federation=fed, sex=sex, title=title)
        for name, rating, fed, sex, title in zip(
            NAMES,
            (2380, 2610, 2405, 2250),
            ("ESP", "RUS", "GER", "VIE"),
            ("F", "M", "M", "F"),
            ("WGM", "GM", "IM", None),
            strict=True,
        )
    ]
    rounds = ((0, 1), (2, 3), (0, 2), (3, 1), (0, 3), (1, 2))
    for number, (white, black) in enumerate(rounds, start=1):
        game(ledger, ids[white], ids[black], "1/2-1/2", f"2026-09-{number + 2:02d}", event=EVENT,
             round=number)  # fmt: skip
    close(ledger, "2026-09")
    game(ledger, ids[1], ids[0], "0-1", "2026-10-03", event="Autumn Cup", round=1)
    return ids


def assert_names_whole(result: Result, names: tuple[str, ...] = NAMES) -> None:
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    for name in names:
        assert any(name in line for line in lines), (name, result.stdout)
    assert "…" not in result.stdout


@pytest.mark.parametrize(
    "command",
    [
        ["list"],
        ["list", "--live"],
        ["list", "--women"],
        ["list", "--federation", "RUS"],
        ["find", "cruz"],
        ["peaks"],
        ["event", EVENT],
    ],
)
def test_tables_keep_names_whole_at_80_columns(
    long_names: list[int], database_url: str, command: list[str]
) -> None:
    shown = run(*command, db=database_url)
    women = tuple(name for name in NAMES if name.startswith(("H", "N")))
    only = {"--women": women, "--federation": (NAMES[1],), "cruz": (NAMES[0],)}
    expected = next((names for flag, names in only.items() if flag in command), NAMES)
    assert_names_whole(shown, expected)
    assert max(len(line) for line in shown.stdout.splitlines()) <= 80


def test_the_list_leaves_out_the_peak_before_a_name(
    long_names: list[int], database_url: str
) -> None:
    narrow = run("list", db=database_url).stdout
    assert "Peak" not in narrow
    assert " on " not in narrow.splitlines()[2]
    wide = CliRunner().invoke(app, ["list", "--db", database_url], env={"COLUMNS": "160"})
    assert "Peak" in wide.stdout
    assert "Move" in wide.stdout


def test_explain_and_history_keep_the_name_whole(long_names: list[int], database_url: str) -> None:
    explained = run("explain", str(long_names[0]), db=database_url)
    assert_names_whole(explained, NAMES[1:])
    held = run("history", "--summary", db=database_url)
    assert_names_whole(held, (NAMES[1],))


def test_games_are_one_line_each_at_80_columns(long_names: list[int], database_url: str) -> None:
    shown = run("games", db=database_url)
    assert_names_whole(shown)
    lines = shown.stdout.splitlines()
    assert len(lines) == 7
    assert lines[0] == (
        "  1  2026-09-03  Hernández-Villanueva de la Cruz, María José (1) 1/2-1/2 "
        "Иванов-Петровский, Александр (2)  rated  Campeonato Iberoamericano de Ajedrez "
        "Femenino, round 1"
    )
    assert lines[-1].endswith("open  Autumn Cup, round 1")
    wide = CliRunner().invoke(app, ["games", "--db", database_url], env={"COLUMNS": "240"})
    assert "White" in wide.stdout
    assert_names_whole(wide)


def test_the_log_is_one_line_a_change_at_80_columns(
    long_names: list[int], database_url: str
) -> None:
    steps = (
        ["close-period", "2026-10", "--operator", "alice"],
        ["reopen-period", "2026-10", "--reason", "a result was wrong", "--operator", "alice"],
    )
    for step in steps:
        assert run(*step, db=database_url).exit_code == 0
    shown = run("log", db=database_url)
    assert shown.exit_code == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert len(lines) == 3  # the close of 2026-09 by the builders, then alice's two
    assert lines[0].startswith("  3  ")
    assert "alice  reopen 2026-10: " in lines[0]
    assert lines[0].endswith(" (why: a result was wrong)")
    assert "alice  close 2026-10: " in lines[1]


def test_a_rapid_list_keeps_names_whole_too(ledger: Ledger, database_url: str) -> None:
    ann = player(ledger, NAMES[0], rating=2000, pool=Pool.RAPID)
    bob = player(ledger, NAMES[1], rating=1900, pool=Pool.RAPID)
    game(ledger, ann, bob, "1-0", "2026-09-05", pool=Pool.RAPID)
    close(ledger, "2026-09", Pool.RAPID)
    assert_names_whole(run("list", "--pool", "rapid", db=database_url), NAMES[:2])
