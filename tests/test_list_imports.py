"""FIDE rating list files into the ledger as a published list, and lists back out in FIDE's
layout: the round trip, the starting state, refusals and what the next close does."""

from __future__ import annotations

import datetime as dt
import json
import re
import zipfile
from pathlib import Path

import pytest
from sqlalchemy import Engine, event, select

from ledger.core import rules
from ledger.core.domain import Period, Pool
from ledger.formats.fide_list import ALL_POOLS, FideListRow, PoolRating, write_fide_txt
from ledger.storage.batches import BATCH_SIZE
from ledger.storage.database import Ledger, open_ledger
from ledger.storage.models import Player, PlayerRating

from builders import fingerprint, listing, run

FIDE = Path(__file__).parent / "data" / "fide"
COMBINED = FIDE / "players_list_foa.txt"
COMBINED_XML = FIDE / "players_list_xml_foa.xml"
STANDARD = FIDE / "standard_list.txt"
DEFECTIVE = FIDE / "players_list_defective.txt"
LIST = Period(2026, 10)
THIS_MONTH = Period.of(dt.date.today())
"""The period in progress whenever the suite runs: its list cannot be imported yet."""


def _import(url: str, path: Path, period: Period = LIST) -> str:
    imported = run("import-fide-list", str(path), "--period", str(period), db=url)
    assert imported.exit_code == 0, imported.stderr
    return imported.stdout


def _export(url: str, tmp_path: Path, *options: str) -> bytes:
    out = tmp_path / "exported"
    exported = run("export-list", *options, "-o", str(out), "--force", db=url)
    assert exported.exit_code == 0, exported.stderr
    return out.read_bytes()


def _without_unrated_games(content: bytes) -> bytes:
    """The sample with Kowalski's 4 games of the period (an unrated row) as 0: the ledger
    counts an unrated player's games from its own records, so these are not kept."""
    kowalski = re.compile(rb"(<fideid>99000113</fideid>.*?<games>)4(</games>)", re.DOTALL)
    return kowalski.sub(rb"\g<1>0\g<2>", content.replace(b"0     4   0  0", b"0     0   0  0"))


def test_a_combined_list_publishes_every_pool(ledger: Ledger, database_url: str) -> None:
    assert _import(database_url, COMBINED) == (
        "Published players_list_foa.txt as the list of 2026-10: 32 players (32 new, "
        "0 updated); ratings: 28 standard, 24 rapid, 20 blitz.\n"
    )
    carlsen = listing(ledger)[1503014]
    assert (carlsen.rating, carlsen.k, carlsen.title, carlsen.federation) == (2823, 10, "GM", "NOR")
    rapid = run("list", "--pool", "rapid", "--top", "1", "--format", "csv", db=database_url)
    assert rapid.stdout.splitlines()[1].startswith("1,1,1503014,")


@pytest.mark.parametrize(
    ("sample", "options"),
    [
        (COMBINED, ["--format", "fide-txt"]),
        (COMBINED_XML, ["--format", "fide-xml"]),
        (STANDARD, ["--format", "fide-txt", "--pool", "standard"]),
    ],
    ids=["combined-txt", "combined-xml", "standard-txt"],
)
def test_a_fide_list_exports_back_byte_for_byte(
    sample: Path, options: list[str], database_url: str, tmp_path: Path
) -> None:
    _import(database_url, sample)
    assert _export(database_url, tmp_path, *options) == _without_unrated_games(sample.read_bytes())


def test_a_zipped_list_imports_as_the_list_itself(database_url: str, tmp_path: Path) -> None:
    zipped = tmp_path / "players_list.zip"
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(COMBINED, "players_list_foa.txt")
    assert "ratings: 28 standard, 24 rapid, 20 blitz." in _import(database_url, zipped)
    assert _export(database_url, tmp_path, "--format", "fide-txt") == _without_unrated_games(
        COMBINED.read_bytes()
    )


def _state(url: str) -> set[tuple[object, ...]]:
    """Every player's identity and standing, by FIDE ID."""
    ledger = open_ledger(url)
    try:
        with ledger.reading() as session:
            rows = session.execute(
                select(
                    Player.fide_id,
                    Player.name,
                    Player.title,
                    Player.women_title,
                    Player.other_titles,
                    Player.foa_title,
                    Player.birth_year,
                    Player.sex,
                    PlayerRating.pool,
                    PlayerRating.rating,
                    PlayerRating.games_completed,
                    PlayerRating.ever_2400,
                    PlayerRating.last_active,
                ).outerjoin(PlayerRating, PlayerRating.player_id == Player.id)
            )
            return {tuple(row) for row in rows}
    finally:
        ledger.dispose()


def test_an_exported_list_reads_back_to_the_same_ledger_state(
    database_url: str, tmp_path: Path
) -> None:
    _import(database_url, COMBINED)
    exported = tmp_path / "again.txt"
    exported.write_bytes(_export(database_url, tmp_path, "--format", "fide-txt"))
    again = f"sqlite:///{tmp_path / 'again.db'}"
    _import(again, exported)
    assert _state(again) == _state(database_url)


def test_the_starting_state_gives_each_rows_k_again(ledger: Ledger, database_url: str) -> None:
    """Where a list gives only K, the games completed are chosen so that 8.3.3 gives it.

    No count of games explains K 20 for a junior under 2300 or for a rating of 2400 or more:
    the ledger keeps the list's K on the imported list and follows 8.3.3 from the next period.
    """
    _import(database_url, COMBINED)
    with ledger.reading() as session:
        standings = session.execute(
            select(PlayerRating, Player.birth_year).join(
                Player, Player.id == PlayerRating.player_id
            )
        ).all()
    published = {pool: listing(ledger, pool=pool) for pool in Pool}
    unexplained = set()
    for standing, birth_year in standings:
        state = rules.RatingState(
            standing.rating, standing.games_completed, standing.ever_2400, standing.peak, birth_year
        )
        listed_k = published[standing.pool][standing.player_id].k
        if rules.development_coefficient(state, LIST + 1) != listed_k:
            unexplained.add((standing.player_id, standing.pool, listed_k))
            assert rules.k_rule(state, LIST + 1) in (rules.KRule.JUNIOR, rules.KRule.EVER_2400)
    assert unexplained == {
        (99000109, Pool.STANDARD, 20),  # born 2008, 1985
        (99000122, Pool.STANDARD, 20),  # 2401
        (99000122, Pool.BLITZ, 20),  # 2415
    }


def _leko_loses_to_ababil(url: str) -> None:
    """A game of 2026-10 between two players of the sample lists: Leko (703303, 2676 in
    standard) loses to Ababil (7128762, 1709)."""
    played = run(
        "add-game",
        "--white",
        "703303",
        "--black",
        "7128762",
        "--result",
        "0-1",
        "--date",
        "2026-10-05",
        db=url,
    )
    assert played.exit_code == 0, played.stderr


def test_the_next_close_rates_games_from_the_imported_list(
    ledger: Ledger, database_url: str
) -> None:
    _import(database_url, COMBINED, Period(2026, 9))
    _leko_loses_to_ababil(database_url)
    assert run("close-period", "2026-10", db=database_url).exit_code == 0
    after = listing(ledger)
    expected = rules.expected_scores(Pool.STANDARD, Period(2026, 10), 2676, 1709)
    assert expected is not None
    # Leko's K 10 (reached 2400) and Ababil's K 40 (fewer than 30 games) come from the list.
    leko = rules.round_half_away_from_zero(10 * (0 - expected[0]))
    ababil = rules.round_half_away_from_zero(40 * (100 - expected[1]))
    assert (after[703303].rating, after[703303].change) == (2676 + leko, leko)
    assert (after[7128762].rating, after[7128762].change) == (1709 + ababil, ababil)
    assert leko < 0 < ababil


def test_an_update_keeps_the_ledger_id_and_warns_of_likely_duplicates(
    ledger: Ledger, database_url: str
) -> None:
    for arguments in (
        ["--name", "Carlsen, M.", "--id", "7", "--fide-id", "1503014"],
        ["--name", "Leko, Peter", "--id", "8", "--birth-year", "1979"],
    ):
        assert run("add-player", *arguments, db=database_url).exit_code == 0
    imported = run("import-fide-list", str(COMBINED), "--period", "2026-10", db=database_url)
    assert imported.exit_code == 0, imported.stderr
    assert "32 players (31 new, 1 updated)" in imported.stdout
    assert imported.stderr == (
        'warning: player 703303 "Leko, Peter" (born 1979) may be the same person as 8 '
        '"Leko, Peter"; merge them with `ledger merge-players 8 703303` if so.\n'
    )
    with ledger.reading() as session:
        assert session.get(Player, 7).name == "Carlsen, Magnus"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("setup", "period", "message"),
    [
        (
            [["import-fide-list", str(STANDARD), "--period", "2026-10"]],
            "2026-10",
            "error: the standard list of 2026-10 is already published; a FIDE list can be "
            "imported as the list of 2026-11 or later.\n",
        ),
        (
            [["import-fide-list", str(STANDARD), "--period", "2026-10"]],
            "2026-08",
            "error: the standard list of 2026-08 would come before the pool's first; a FIDE "
            "list can be imported as the list of 2026-11 or later.\n",
        ),
        (
            [["import-fide-list", str(COMBINED), "--period", "2026-08"]],
            "2026-10",
            "error: period 2026-09 is still open in standard; close it first "
            "(`ledger close-period 2026-09`).\n",
        ),
        (
            [
                ["add-player", "--name", "A", "--id", "1"],
                ["add-player", "--name", "B", "--id", "2"],
                [
                    "add-game",
                    "--white",
                    "1",
                    "--black",
                    "2",
                    "--result",
                    "1-0",
                    "--date",
                    "2026-09-01",
                ],
            ],
            "2026-10",
            "error: period 2026-09 holds standard games and is still open; close it before "
            "importing a FIDE list as the list of 2026-10.\n",
        ),
    ],
    ids=["already-published", "before-the-first", "periods-open-before", "open-games-before"],
)
def test_a_list_must_be_the_pools_next_one(
    setup: list[list[str]], period: str, message: str, database_url: str
) -> None:
    for command in setup:
        assert run(*command, db=database_url).exit_code == 0
    before = fingerprint(database_url)
    refused = run("import-fide-list", str(COMBINED), "--period", period, db=database_url)
    assert (refused.exit_code, refused.stderr) == (1, message)
    assert fingerprint(database_url) == before


def test_the_same_file_twice_is_refused(database_url: str) -> None:
    _import(database_url, COMBINED, Period(2026, 9))
    refused = run("import-fide-list", str(COMBINED), "--period", "2026-10", db=database_url)
    assert refused.exit_code == 1
    assert "players_list_foa.txt was already imported on" in refused.stderr
    assert "the list of 2026-09" in refused.stderr


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            [str(COMBINED), "--period", str(THIS_MONTH)],
            f"error: period {THIS_MONTH} has not ended; its list can be imported from "
            f"{THIS_MONTH + 1}-01.\n",
        ),
        (
            [str(STANDARD), "--period", "2026-09"],
            "error: standard_list.txt is FIDE's NOV26 list, the list of period 2026-10, not "
            "2026-09; leave out --period or give 2026-10.\n",
        ),
        (
            [str(FIDE / "header_only.txt")],
            "error: header_only.txt: the list holds no player that can be read.\n",
        ),
    ],
    ids=["period-not-ended", "month-column-disagrees", "no-players"],
)
def test_a_list_that_cannot_be_the_periods_is_refused(
    arguments: list[str], message: str, database_url: str, tmp_path: Path
) -> None:
    before = fingerprint(database_url)
    refused = run("import-fide-list", *arguments, db=database_url)
    assert (refused.exit_code, refused.stderr) == (1, message)
    assert fingerprint(database_url) == before


def test_a_single_pool_list_takes_its_period_from_its_month_column(database_url: str) -> None:
    imported = run("import-fide-list", str(STANDARD), db=database_url)
    assert imported.exit_code == 0, imported.stderr
    assert "as the list of 2026-10" in imported.stdout


def test_a_broken_xml_list_is_refused_whole(database_url: str, tmp_path: Path) -> None:
    cut = tmp_path / "cut.xml"
    cut.write_bytes(COMBINED_XML.read_bytes()[:12_000])
    before = fingerprint(database_url)
    refused = run("import-fide-list", str(cut), "--period", "2026-10", db=database_url)
    assert refused.exit_code == 1
    assert refused.stderr.startswith("error: cut.xml: the XML is broken after player ")
    assert fingerprint(database_url) == before


def test_unreadable_rows_are_skipped_and_reported_or_refuse_the_file_when_strict(
    database_url: str,
) -> None:
    before = fingerprint(database_url)
    strict = run("import-fide-list", str(DEFECTIVE), "--strict", db=database_url)
    assert strict.exit_code == 1
    assert strict.stderr.splitlines()[0] == (
        "error: players_list_defective.txt:3: ID Number: '7O3303' is not a whole number."
    )
    assert strict.stderr.splitlines()[-1] == "error: 6 problems; nothing was written."
    assert fingerprint(database_url) == before
    lenient = run("import-fide-list", str(DEFECTIVE), db=database_url)
    assert lenient.exit_code == 0, lenient.stderr
    skipped = lenient.stderr.splitlines()
    assert len(skipped) == 6
    assert skipped[0] == (
        "warning: skipped players_list_defective.txt:3: ID Number: '7O3303' is not a whole number."
    )


def test_a_file_that_is_not_a_list_is_refused(database_url: str) -> None:
    refused = run("import-fide-list", str(FIDE / "not_a_list.csv"), db=database_url)
    assert refused.exit_code == 1
    assert refused.stderr.startswith("error: not_a_list.csv is not a FIDE rating list")
    missing = run("import-fide-list", "nowhere.txt", db=database_url)
    assert (missing.exit_code, missing.stderr) == (
        2,
        "error: file: 'nowhere.txt' does not exist.\n",
    )


def test_lists_export_as_csv_and_json(database_url: str, tmp_path: Path) -> None:
    _import(database_url, COMBINED)
    csv_text = _export(database_url, tmp_path, "--format", "csv", "--pool", "blitz").decode()
    assert csv_text.splitlines()[0].startswith("rank,position,id,name,")
    assert len(csv_text.splitlines()) == 1 + 20
    rows = json.loads(_export(database_url, tmp_path, "--format", "json"))
    assert len(rows) == 28
    assert (rows[0]["name"], rows[0]["rating"], rows[0]["k"]) == ("Carlsen, Magnus", 2823, 10)


def test_a_combined_export_takes_each_pools_list_in_force(database_url: str) -> None:
    """Standard closes a month the rapid and blitz lists have not: their lists of the month
    before are still the ones in force, and the combined file carries them."""
    _import(database_url, COMBINED, Period(2026, 9))
    assert run("close-period", "2026-10", db=database_url).exit_code == 0
    exported = run("export-list", "--format", "fide-txt", db=database_url)
    assert exported.exit_code == 0, exported.stderr
    carlsen = next(line for line in exported.stdout.splitlines() if "Carlsen" in line)
    assert carlsen.split()[6:15] == ["2823", "0", "10", "2801", "12", "10", "2860", "0", "10"]


def test_an_older_list_exports_in_fide_layouts_as_it_was_published(database_url: str) -> None:
    """Once a later list is published, the list before it (`--period`) is read from its rows
    and the standings changed since: its FIDE files are those it gave as the newest."""
    _import(database_url, COMBINED, Period(2026, 9))
    formats = (["fide-txt"], ["fide-xml"], ["fide-txt", "--pool", "standard"])
    options = [["--format", *each, "--period", "2026-09"] for each in formats]
    before = [run("export-list", *each, db=database_url).stdout for each in options]
    _leko_loses_to_ababil(database_url)
    assert run("close-period", "2026-10", db=database_url).exit_code == 0
    after = [run("export-list", *each, db=database_url).stdout for each in options]
    assert after == before
    newest = run("export-list", "--format", "fide-txt", db=database_url).stdout
    assert newest != before[0]
    header, *rows = newest.splitlines()
    leko = next(row for row in rows if row.startswith("703303 "))
    rating = header.index("SRtng")
    assert int(leko[rating : rating + 5]) < 2676
    assert f" {2676:<5} " in next(row for row in before[0].splitlines() if "703303" in row)


def test_fide_layouts_hold_players_with_a_fide_id_and_single_pools_the_rated(
    database_url: str,
) -> None:
    _import(database_url, COMBINED)
    for arguments in (
        ["--name", "Local, Larry", "--rating", "1800", "--games", "40"],
        ["--name", "Longname, " + "Maximilian " * 6, "--fide-id", "99999999"],
    ):
        assert run("add-player", *arguments, db=database_url).exit_code == 0
    combined = run("export-list", "--format", "fide-txt", db=database_url).stdout
    assert "Local, Larry" not in combined
    long_row = next(line for line in combined.splitlines() if "Longname" in line)
    assert long_row[15:76].rstrip() == ("Longname, " + "Maximilian " * 6)[:60].rstrip()
    assert long_row[76:79] == "   "
    standard = run("export-list", "--format", "fide-txt", "--pool", "standard", db=database_url)
    assert len(standard.stdout.splitlines()) == 1 + 28


def test_a_known_player_keeps_a_count_of_games_that_gives_the_lists_k(
    ledger: Ledger, database_url: str
) -> None:
    """The ledger counted 10 games (K 40) for Arribas Robaina and 50 for Cruz Arce (K 20);
    FIDE's list says K 20 for both: Cruz Arce keeps the ledger's count, Arribas Robaina
    takes one that gives K 20. A birth year the list leaves out stays as the ledger had it."""
    for name, fide_id, games in (
        ("Arribas", "3501418", "10"),
        ("Cruz", "3101959", "50"),
        ("Fischer", "99000107", "50"),
    ):
        added = run(
            "add-player",
            "--name",
            name,
            "--fide-id",
            fide_id,
            "--rating",
            "1900",
            "--games",
            games,
            "--birth-year",
            "1970",
            db=database_url,
        )
        assert added.exit_code == 0, added.stderr
    assert run("close-period", "2026-08", db=database_url).exit_code == 0
    _import(database_url, COMBINED, Period(2026, 9))
    with ledger.reading() as session:
        standings = session.execute(
            select(Player.fide_id, PlayerRating.games_completed, Player.birth_year)
            .join(Player, Player.id == PlayerRating.player_id)
            .where(
                Player.fide_id.in_((3501418, 3101959, 99000107)),
                PlayerRating.pool == Pool.STANDARD,
            )
            .order_by(Player.fide_id)
        ).all()
    assert [tuple(row) for row in standings] == [
        (3101959, 50, 1982),
        (3501418, 30, 1971),
        (99000107, 50, 1970),  # the list's birth year is 0: unknown
    ]


def _large_list(path: Path, players: int) -> None:
    rows = [
        FideListRow(
            fide_id=number,
            name=f"Player, {number}",
            federation="NOR",
            sex="M",
            title=None,
            women_title=None,
            other_titles=None,
            foa_title=None,
            ratings={pool: PoolRating(1400 + number % 1000, 0, 20) for pool in ALL_POOLS},
            birth_year=1990,
            flag="",
            line=0,
        )
        for number in range(1, players + 1)
    ]
    path.write_bytes("".join(write_fide_txt(rows, ALL_POOLS)).encode())


def test_a_list_larger_than_the_ledger_builds_its_rows_indexes_once(
    ledger: Ledger, database_url: str, tmp_path: Path
) -> None:
    """On SQLite, a list of more rows than the ledger's lists hold sets their indexes aside
    for the whole import and builds each once after it, not batch by batch; PostgreSQL
    keeps them (its readers keep reading the tables). The list is whole on both."""
    players = 2_000
    _large_list(tmp_path / "players_list_foa.txt", players)
    sent: list[str] = []

    def remember(*arguments: object) -> None:
        sent.append(str(arguments[2]))

    event.listen(Engine, "before_cursor_execute", remember)
    try:
        _import(database_url, tmp_path / "players_list_foa.txt")
    finally:
        event.remove(Engine, "before_cursor_execute", remember)
    built = 0 if "postgresql" in database_url else 1
    for index in ("ix_list_entries_pool_period_rating", "ix_player_ratings_pool_rating"):
        assert sum(f"CREATE INDEX {index} " in statement for statement in sent) == built
    assert len(listing(ledger)) == players
    check = run("db", "check", db=database_url)
    assert check.exit_code == 0, check.stdout


def test_a_list_of_several_batches_looks_up_likely_duplicates_once(
    database_url: str, tmp_path: Path
) -> None:
    """The likely duplicates of a list's players are looked up once, after its last batch:
    batch by batch, each look-up joined a players table the planner had not seen grow. The
    warning still names a player of a later batch."""
    players = BATCH_SIZE + 200
    _large_list(tmp_path / "players_list_foa.txt", players)
    added = run(
        "add-player",
        "--name",
        f"Player, {players}",
        "--id",
        "99999999",
        "--birth-year",
        "1990",
        db=database_url,
    )
    assert added.exit_code == 0, added.stderr
    sent: list[str] = []

    def remember(*arguments: object) -> None:
        sent.append(str(arguments[2]))

    event.listen(Engine, "before_cursor_execute", remember)
    try:
        imported = run(
            "import-fide-list",
            str(tmp_path / "players_list_foa.txt"),
            "--period",
            str(LIST),
            db=database_url,
        )
    finally:
        event.remove(Engine, "before_cursor_execute", remember)
    assert imported.exit_code == 0, imported.stderr
    assert imported.stderr == (
        f'warning: player {players} "Player, {players}" (born 1990) may be the same person as '
        f'99999999 "Player, {players}"; merge them with '
        f"`ledger merge-players 99999999 {players}` if so.\n"
    )
    assert sum("AS other_id" in statement for statement in sent) == 1
