"""Player identity: finding players by name or ID, likely duplicates, and merging two records
of one person, through the queries, the service and the command line, on both backends."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable

import pytest
from sqlalchemy import select

from ledger.core import names
from ledger.core.domain import ByeKind, Pool
from ledger.core.errors import Conflict, InvalidInput, NotFound
from ledger.queries import people
from ledger.services import merges
from ledger.storage.database import Ledger
from ledger.storage.models import Base, Bye, Event, GameRating, Player, PlayerMerge

from builders import NOW, close, fingerprint, game, listing, player, run

# --- find ---------------------------------------------------------------------------------


@pytest.fixture
def muellers(ledger: Ledger) -> Ledger:
    """Four Müllers and a Jorgensen, one of them rated."""
    player(ledger, "Müller, Jörg", id=88, rating=2100, birth_year=1990)
    player(ledger, "Muller, Jorg", id=1503, birth_year=1990)
    player(ledger, "Muller, Jorgen", id=20)
    player(ledger, "Müller-Thurgau, Anna", id=7)
    player(ledger, "Jorgensen, Peter", id=9, fide_id=4100)
    return ledger


def _found(ledger: Ledger, text: str, pool: Pool = Pool.STANDARD, limit: int = 50) -> list[int]:
    with ledger.reading() as session:
        return [found.id for found in people.find_players(session, text, pool, limit)]


@pytest.mark.parametrize(
    ("query", "ids"),
    [
        pytest.param("Müller, Jörg", [1503, 88, 20], id="surname, given: exact keys first"),
        pytest.param("Jörg Müller", [1503, 88, 20], id="given surname"),
        pytest.param("Muller Jorg", [1503, 88, 20], id="without accents"),
        pytest.param("MÜLLER jÖrG", [1503, 88, 20], id="any case"),
        pytest.param("muller", [1503, 20, 88, 7], id="one word: by name"),
        pytest.param("mü jo", [1503, 20, 88], id="prefixes"),
        pytest.param("jor", [9, 1503, 20, 88], id="a prefix of any word"),
        pytest.param("thurgau anna", [7], id="a hyphenated name"),
        pytest.param("Anna Müller-Thurgau", [7], id="the whole hyphenated name"),
        pytest.param("jorg muller peter", [], id="every word must match"),
        pytest.param("rg", [], id="only the starts of words"),
        pytest.param("1503", [1503], id="a ledger ID"),
        pytest.param("4100", [9], id="a FIDE ID"),
        pytest.param("99999999999", [], id="no ID is that large"),
    ],
)
def test_find_matches_every_word_as_the_start_of_a_name_word(
    muellers: Ledger, query: str, ids: list[int]
) -> None:
    assert _found(muellers, query) == ids


def _matches(query: str, name: str) -> bool:
    """The matching rule, stated plainly: every query word begins a word of the name."""
    words = names.name_key(name).split()
    return all(any(word.startswith(part) for word in words) for part in names.name_words(query))


def test_find_agrees_with_the_name_matching_rule(muellers: Ledger) -> None:
    with muellers.reading() as session:
        everyone = session.execute(select(Player.id, Player.name)).all()
    for query in ("m", "j m", "jo", "ann", "a t", "peter", "mu jorge", "z"):
        expected = {i for i, name in everyone if _matches(query, name)}
        assert set(_found(muellers, query)) == expected, query


FOUND = {
    "a surname": ("carlsen", "Carlsen, Magnus"),
    "the start of a surname": ("carl", "Carlsen, Magnus"),
    "surname and initial": ("carlsen m", "Carlsen, Magnus"),
    "initial and surname": ("M. Carlsen", "Carlsen, Magnus"),
    "without accents": ("muller jorg", "Müller, Jörg"),
    "with accents for a name without": ("Jörg", "Jorg Muller"),
    "special letters": ("lukasz overg", "Øvergaard, Łukasz"),
    "half of a hyphenated name": ("pierre", "Jean-Pierre Dupont"),
    "a hyphenated query": ("jean-p dup", "Jean-Pierre Dupont"),
    "two words on one name word": ("ma mag", "Carlsen, Magnus"),
}


NOT_FOUND = {
    "a word inside a word": ("arlsen", "Carlsen, Magnus"),
    "one query word too many": ("carlsen magnus x", "Carlsen, Magnus"),
    "a longer word": ("carlsenn", "Carlsen, Magnus"),
    "an initial that is not there": ("carlsen j", "Carlsen, Magnus"),
    "a joined hyphenated name": ("jeanpierre", "Jean-Pierre Dupont"),
}


def test_find_by_name_cases(ledger: Ledger) -> None:
    """Each case on a ledger holding all the names: found, or not found."""
    wanted = {name for _, name in [*FOUND.values(), *NOT_FOUND.values()]}
    ids = {name: player(ledger, name) for name in sorted(wanted)}
    for case, (query, name) in FOUND.items():
        assert ids[name] in _found(ledger, query), case
    for case, (query, name) in NOT_FOUND.items():
        assert ids[name] not in _found(ledger, query), case


def test_find_gives_the_current_rating_in_the_pool(muellers: Ledger) -> None:
    player(muellers, "Muller, Jorg", id=21, rating=1800, pool=Pool.RAPID)
    with muellers.reading() as session:
        standard = people.find_players(session, "jorg muller", Pool.STANDARD)
        rapid = people.find_players(session, "jorg muller", Pool.RAPID)
    assert {p.id: p.rating for p in standard} == {1503: None, 21: None, 88: 2100, 20: None}
    assert {p.id: p.rating for p in rapid} == {1503: None, 21: 1800, 88: None, 20: None}
    assert standard[2] == people.FoundPlayer(88, None, "Müller, Jörg", None, 1990, 2100)


def test_find_returns_at_most_the_limit(muellers: Ledger) -> None:
    assert _found(muellers, "muller", limit=2) == [1503, 20]


@pytest.mark.parametrize("query", ["", "  ", ", -"])
def test_find_refuses_an_empty_search(muellers: Ledger, query: str) -> None:
    with pytest.raises(InvalidInput, match="the search has no name in it"):
        _found(muellers, query)


# --- likely duplicates -------------------------------------------------------------------


@pytest.fixture
def twins(ledger: Ledger) -> Ledger:
    player(ledger, "Muller, Jorg", id=88, birth_year=1990, fide_id=4100)
    player(ledger, "Müller, Jörg", id=1503, birth_year=1990)
    player(ledger, "Müller, Jörg", id=1504, birth_year=1991)
    player(ledger, "MÜLLER Jörg", id=1505)
    player(ledger, "Jörg Müller", id=1506, birth_year=1990, fide_id=4200)
    return ledger


def _duplicates(ledger: Ledger, ids: list[int]) -> list[str]:
    with ledger.reading() as session:
        return people.likely_duplicates(session, ids)


def test_likely_duplicates_share_the_name_key_and_birth_year(twins: Ledger) -> None:
    assert _duplicates(twins, [1503]) == [
        'player 1503 "Müller, Jörg" (born 1990) may be the same person as 88 "Muller, Jorg"; '
        "merge them with `ledger merge-players 88 1503` if so.",
        'player 1503 "Müller, Jörg" (born 1990) may be the same person as 1506 "Jörg Müller"; '
        "merge them with `ledger merge-players 1506 1503` if so.",
    ]


def test_likely_duplicates_name_each_pair_once_and_never_two_fide_ids(twins: Ledger) -> None:
    assert _duplicates(twins, [88, 1503, 1506]) == [
        'player 1503 "Müller, Jörg" (born 1990) may be the same person as 88 "Muller, Jorg"; '
        "merge them with `ledger merge-players 88 1503` if so.",
        'player 1506 "Jörg Müller" (born 1990) may be the same person as 1503 "Müller, Jörg"; '
        "merge them with `ledger merge-players 1503 1506` if so.",
    ]


def test_no_duplicates_without_the_same_birth_year(twins: Ledger) -> None:
    assert _duplicates(twins, [1504, 1505]) == []
    assert _duplicates(twins, []) == []


# --- merging -----------------------------------------------------------------------------


def test_every_reference_to_a_player_moves() -> None:
    """A new table that refers to players must be added to the merge."""
    references = {
        f"{fk.parent.table.name}.{fk.parent.name}"
        for table in Base.metadata.tables.values()
        for fk in table.foreign_keys
        if fk.column.table.name == "players"
    }
    moved = {f"{c.class_.__tablename__}.{c.key}" for c in merges.MOVED_COLUMNS}
    assert moved == references


def _merge(ledger: Ledger, keep: int, drop: int) -> merges.PlayerMerged:
    with ledger.transaction() as session:
        return merges.merge_players(session, keep, drop, NOW)


def _bye(ledger: Ledger, event: str, round: int, player_id: int) -> None:
    with ledger.transaction() as session:
        event_id = session.scalar(select(Event.id).where(Event.name == event))
        session.add(Bye(event_id=event_id, round=round, player_id=player_id, kind=ByeKind.UNPAIRED))


@pytest.fixture
def duplicate(ledger: Ledger) -> Ledger:
    """Player 10 (rated) and 12 (a second record of them, rated in rapid only) beside a
    reference pair, 1 and 2, who play the same games as 10 and 11: September closed,
    October open."""
    player(ledger, "Reference, One", id=1, rating=2000, birth_year=1990)
    player(ledger, "Kasparov, Garry", id=10, rating=2000, fide_id=4100, birth_year=1990)
    for opponent in (2, 11):
        player(ledger, f"Opponent {opponent}", id=opponent, rating=1800)
    player(ledger, "Kasparov, G.", id=12, federation="ENG", rating=1500, pool=Pool.RAPID)
    for white, black in ((1, 2), (10, 11)):
        game(ledger, white, black, "1-0", "2026-09-05", event=f"Open {white}", round=1)
    _bye(ledger, "Open 10", 2, 10)
    close(ledger, "2026-09")
    game(ledger, 1, 2, "1/2-1/2", "2026-10-05")
    game(ledger, 12, 11, "1/2-1/2", "2026-10-05")
    return ledger


def test_a_merge_moves_the_dropped_history_unchanged(duplicate: Ledger) -> None:
    merged = _merge(duplicate, 12, 10)
    assert merged == merges.PlayerMerged(
        12,
        "Kasparov, G.",
        10,
        "Kasparov, Garry",
        1,
        1,
        1,
        [Pool.STANDARD],
        ["fide_id", "birth_year"],
    )
    september = listing(duplicate, "2026-09")
    assert 10 not in september
    assert (september[12].rating, september[12].change) == (
        september[1].rating,
        september[1].change,
    )
    with duplicate.reading() as session:
        kept = session.get(Player, 12)
        merges_recorded = session.scalars(select(PlayerMerge)).all()
        rated = session.scalar(select(GameRating.white_rating).where(GameRating.game_id == 2))
    assert kept is not None
    assert (kept.fide_id, kept.federation, kept.birth_year) == (4100, "ENG", 1990)
    assert [
        (m.kept_id, m.dropped_id, m.dropped_fide_id, m.games_moved) for m in merges_recorded
    ] == [(12, 10, 4100, 1)]
    assert rated == 2000


def test_the_next_close_rates_the_kept_player_as_the_dropped_one(duplicate: Ledger) -> None:
    _merge(duplicate, 12, 10)
    close(duplicate, "2026-10")
    october = listing(duplicate, "2026-10")
    for merged, reference in ((12, 1), (11, 2)):
        assert (october[merged].rating, october[merged].change, october[merged].games) == (
            october[reference].rating,
            october[reference].change,
            october[reference].games,
        )
    assert october[12].games == 1
    assert _found(duplicate, "kasparov", Pool.RAPID) == [12]
    with duplicate.reading() as session:
        assert people.find_players(session, "12", Pool.RAPID)[0].rating == 1500


def test_a_merge_keeps_the_kept_history_and_moves_open_games(duplicate: Ledger) -> None:
    player(duplicate, "Kasparov, Garry", id=13, title="GM", sex="M")
    game(duplicate, 13, 2, "1-0", "2026-10-06")
    merged = _merge(duplicate, 10, 13)
    assert (merged.games_moved, merged.entries_moved, merged.pools) == (1, 0, [])
    assert merged.filled == ["sex", "title"]
    close(duplicate, "2026-10")
    assert listing(duplicate, "2026-10")[10].games == 1


def test_a_failure_half_way_writes_nothing(
    duplicate: Ledger, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(*_: object) -> list[str]:
        raise RuntimeError("the disk is full")

    before = fingerprint(database_url)
    monkeypatch.setattr(merges, "_fill_identity", fail)
    with pytest.raises(RuntimeError):
        _merge(duplicate, 12, 10)
    assert fingerprint(database_url) == before


Scenario = Callable[[Ledger], tuple[int, int]]


def _same_id(ledger: Ledger) -> tuple[int, int]:
    player(ledger, id=88)
    return 88, 88


def _unknown(ledger: Ledger) -> tuple[int, int]:
    player(ledger, id=88)
    return 88, 999


def _both_unknown(ledger: Ledger) -> tuple[int, int]:
    return 998, 999


def _two_fide_ids(ledger: Ledger) -> tuple[int, int]:
    player(ledger, id=88, fide_id=4100)
    player(ledger, id=1503, fide_id=4200)
    return 88, 1503


def _one_game_between(ledger: Ledger) -> tuple[int, int]:
    player(ledger, id=1)
    player(ledger, id=2)
    game(ledger, 1, 2, "1-0", "2026-10-01")
    return 1, 2


def _games_between(ledger: Ledger) -> tuple[int, int]:
    player(ledger, id=1)
    player(ledger, id=2)
    for day in range(1, 5):
        game(ledger, 2 - day % 2, 1 + day % 2, "1-0", f"2026-10-0{day}")
    return 1, 2


def _one_round(ledger: Ledger) -> tuple[int, int]:
    for player_id in (1, 2, 3, 4):
        player(ledger, id=player_id)
    game(ledger, 1, 3, "1-0", "2026-10-01", event="Club Open", round=1)
    game(ledger, 4, 2, "1-0", "2026-10-02", event="Club Open", round=2)
    _bye(ledger, "Club Open", 2, 1)
    return 1, 2


def _two_lists(ledger: Ledger) -> tuple[int, int]:
    player(ledger, id=88, rating=2000)
    player(ledger, id=5, rating=2000)
    close(ledger, "2026-09")
    player(ledger, id=1503, rating=1900)
    game(ledger, 1503, 5, "1-0", "2026-10-01")
    close(ledger, "2026-10")
    return 88, 1503


def _pending_rating(ledger: Ledger) -> tuple[int, int]:
    player(ledger, id=88, rating=2000, pool=Pool.BLITZ)
    close(ledger, "2026-09", Pool.BLITZ)
    player(ledger, id=1503, rating=1900, pool=Pool.BLITZ)
    return 88, 1503


def _unrated_games_closed(ledger: Ledger) -> tuple[int, int]:
    for player_id in (1, 2, 3):
        player(ledger, id=player_id)
    game(ledger, 1, 3, "1-0", "2026-09-01")
    game(ledger, 2, 3, "1-0", "2026-10-01")
    close(ledger, "2026-09")
    close(ledger, "2026-10")
    return 1, 2


REFUSALS: list[tuple[Scenario, type[Exception], str]] = [
    (
        _same_id,
        Conflict,
        "player 88 cannot be merged with itself; give the two ledger IDs of one person.",
    ),
    (_unknown, NotFound, "there is no player 999; look the IDs up with `ledger find NAME`."),
    (
        _both_unknown,
        NotFound,
        "there are no players 998 and 999; look the IDs up with `ledger find NAME`.",
    ),
    (
        _two_fide_ids,
        Conflict,
        "players 88 and 1503 have different FIDE IDs (4100 and 4200), so they are two people; "
        "if one FIDE ID is wrong, correct it before merging.",
    ),
    (
        _one_game_between,
        Conflict,
        "players 1 and 2 played each other (game 1), so they are two people; if those games "
        "were recorded under the wrong IDs, correct them first.",
    ),
    (
        _games_between,
        Conflict,
        "players 1 and 2 played each other (game 1 and 3 more), so they are two people; if "
        "those games were recorded under the wrong IDs, correct them first.",
    ),
    (
        _one_round,
        Conflict,
        "players 1 and 2 both took part in round 2 of Club Open, so they are two people; if a "
        "round was recorded under the wrong ID, correct it first.",
    ),
    (
        _two_lists,
        Conflict,
        "both players are on published standard lists (1503 since 2026-10, 88 since 2026-09); "
        "merging them would change those lists, so they stay two players.",
    ),
    (
        _pending_rating,
        Conflict,
        "both players are on published blitz lists (1503 from the next list, 88 since "
        "2026-09); merging them would change those lists, so they stay two players.",
    ),
    (
        _unrated_games_closed,
        Conflict,
        "both players are on published standard lists (2 since 2026-10, 1 since 2026-09); "
        "merging them would change those lists, so they stay two players.",
    ),
]


@pytest.mark.parametrize(
    ("scenario", "error", "message"), REFUSALS, ids=[s.__name__[1:] for s, _, _ in REFUSALS]
)
def test_a_refused_merge_says_why_and_writes_nothing(
    ledger: Ledger,
    database_url: str,
    scenario: Scenario,
    error: type[Exception],
    message: str,
) -> None:
    keep, drop = scenario(ledger)
    before = fingerprint(database_url)
    with pytest.raises(error) as refused:
        _merge(ledger, keep, drop)
    assert str(refused.value) == message
    shown = run("merge-players", str(keep), str(drop), db=database_url)
    assert (shown.exit_code, shown.stdout, shown.stderr) == (1, "", f"error: {message}\n")
    assert fingerprint(database_url) == before


# --- the command line --------------------------------------------------------------------


def test_find_prints_a_table_that_fits_eighty_columns(muellers: Ledger, database_url: str) -> None:
    shown = run("find", "Müller,", "J", db=database_url)
    assert (shown.exit_code, shown.stderr) == (0, "")
    lines = shown.stdout.splitlines()
    assert lines[0].rstrip() == 'Players matching "Müller, J"'
    assert max(len(line) for line in lines) <= 80
    assert "Müller, Jörg" in shown.stdout
    assert "2100" in shown.stdout
    assert "unrated" in shown.stdout


def test_find_json_and_csv_have_the_found_fields(muellers: Ledger, database_url: str) -> None:
    as_json = json.loads(run("find", "jorgensen", "--format", "json", db=database_url).stdout)
    assert as_json == [
        {
            "id": 9,
            "fide_id": 4100,
            "name": "Jorgensen, Peter",
            "federation": None,
            "birth_year": None,
            "rating": None,
        }
    ]
    as_csv = run("find", "1503", "--format", "csv", "--pool", "rapid", db=database_url).stdout
    assert list(csv.DictReader(io.StringIO(as_csv))) == [
        {
            "id": "1503",
            "fide_id": "",
            "name": "Muller, Jorg",
            "federation": "",
            "birth_year": "1990",
            "rating": "",
        }
    ]


def test_find_says_when_nothing_matches(muellers: Ledger, database_url: str) -> None:
    shown = run("find", "Carlsen", db=database_url)
    assert (shown.exit_code, shown.stdout) == (
        0,
        'No player matches "Carlsen"; try fewer or shorter words, or an ID.\n',
    )


@pytest.mark.parametrize(
    ("arguments", "code", "error"),
    [
        pytest.param(
            ["find", ","],
            1,
            "error: the search has no name in it; give part of a name, a ledger ID or a FIDE ID.",
            id="no words",
        ),
        pytest.param(
            ["find", "x", "--pool", "bullet"],
            2,
            "error: pool: unknown pool 'bullet'; use one of standard, rapid, blitz.",
            id="unknown pool",
        ),
        pytest.param(
            ["find"], 2, "error: missing NAME; `ledger find --help` shows an example.", id="no name"
        ),
        pytest.param(
            ["merge-players", "1"],
            2,
            "error: missing DROP; `ledger merge-players --help` shows an example.",
            id="one ID",
        ),
    ],
)
def test_bad_identity_commands(
    database_url: str, arguments: list[str], code: int, error: str
) -> None:
    shown = run(*arguments, db=database_url)
    assert (shown.exit_code, shown.stderr.splitlines()[0]) == (code, error)


def test_merge_players_says_what_moved(duplicate: Ledger, database_url: str) -> None:
    shown = run("merge-players", "12", "10", db=database_url)
    assert (shown.exit_code, shown.stderr) == (0, "")
    assert shown.stdout == (
        "Merged player 10 (Kasparov, Garry) into 12 (Kasparov, G.): moved 1 game, 1 bye, "
        "1 list entry and the standard rating history; 12 took its FIDE ID and birth year.\n"
    )
    assert _found(duplicate, "kasparov") == [12]


def test_merge_players_of_two_new_records(database_url: str, ledger: Ledger) -> None:
    player(ledger, "Doe, Jane", id=1)
    player(ledger, "Doe, J.", id=2)
    shown = run("merge-players", "1", "2", db=database_url)
    assert (shown.exit_code, shown.stdout) == (
        0,
        "Merged player 2 (Doe, J.) into 1 (Doe, Jane): moved 0 games, 0 byes and 0 list entries.\n",
    )
