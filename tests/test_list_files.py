"""A whole list written as CSV as it is read (`list --format csv`, `export-list --format
csv`) holds what the list read whole holds: the same rows, places and movement, ties and a
player who fell below the floor included, and its text cells neutralised; whole files are
written with Python's cycle collector paused, and leave it running."""

from __future__ import annotations

import gc
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import hypothesis.strategies as st
import psycopg
import pytest
from hypothesis import given

from ledger import queries
from ledger.core.domain import Period, Pool
from ledger.queries import ListRequest, ListRow
from ledger.queries.exports import fide_list_rows
from ledger.queries.shape import csv_lines
from ledger.storage.batches import collector_paused
from ledger.storage.database import Ledger, open_ledger, upgrade_schema

from builders import close, game, listing, player, run
from conftest import PostgreSQLServer


def _two_closed_months(ledger: Ledger) -> None:
    """Two lists: ties on 2000, a name a spreadsheet would run, a player who falls off."""
    tied = [player(ledger, name, rating=2000) for name in ("Tie, Bea", "Tie, Abe")]
    formula = player(ledger, "=HYPERLINK(x)", rating=1900)
    low = player(ledger, "Low, Lee", rating=1405, games=5)
    strong = player(ledger, "Strong, Sam", rating=2300)
    game(ledger, tied[0], formula, "0-1", "2029-10-03")
    game(ledger, strong, low, "1-0", "2029-10-04")
    close(ledger, "2029-10")
    game(ledger, formula, tied[1], "1-0", "2029-11-03")
    game(ledger, strong, low, "1-0", "2029-11-05")
    close(ledger, "2029-11")


def _read_whole(ledger: Ledger, period: str | None = None) -> str:
    with ledger.reading() as session:
        request = ListRequest(period=None if period is None else Period.parse(period))
        return queries.records_csv(queries.published_list(session, request).rows, ListRow)


def test_the_newest_list_as_csv_is_the_list_read_whole(ledger: Ledger, database_url: str) -> None:
    _two_closed_months(ledger)
    printed = run("list", "--format", "csv", db=database_url)
    assert printed.exit_code == 0, printed.output
    assert printed.stdout == _read_whole(ledger)
    assert "'=HYPERLINK(x)" in printed.stdout
    assert "Low, Lee" not in printed.stdout  # below 1400 on this list, on the one before
    assert "Low, Lee" in _read_whole(ledger, "2029-10")
    movement = [line.split(",")[16] for line in printed.stdout.splitlines()[1:]]
    assert any(moved not in ("", "0") for moved in movement)


def test_a_month_in_which_few_played_is_the_list_read_whole(
    ledger: Ledger, database_url: str
) -> None:
    """A later month with rows for few of the listed players: places, movement, and a
    player who fell off the list in it."""
    steady = [player(ledger, f"Steady {n}", rating=1500 + 100 * n) for n in range(8)]
    low = player(ledger, "Low Lee", rating=1405)
    strong = player(ledger, "Strong Sam", rating=1895)
    game(ledger, steady[6], steady[7], "1/2-1/2", "2029-10-03")
    close(ledger, "2029-10")
    game(ledger, strong, steady[4], "1-0", "2029-11-05")  # 1895 + 10 passes 1900 - 10
    game(ledger, low, steady[0], "0-1", "2029-11-06")  # 1405 - 7: off the list
    close(ledger, "2029-11")
    printed = run("list", "--format", "csv", db=database_url)
    assert printed.exit_code == 0, printed.output
    assert printed.stdout == _read_whole(ledger)
    rows = {line.split(",")[3]: line.split(",") for line in printed.stdout.splitlines()[1:]}
    assert "Low Lee" not in rows
    assert (rows["Strong Sam"][1], rows["Strong Sam"][16]) == ("4", "1")
    assert (rows["Steady 4"][1], rows["Steady 4"][16]) == ("5", "-1")


def test_an_export_and_an_older_list_are_the_lists_read_whole(
    ledger: Ledger, database_url: str, tmp_path: Path
) -> None:
    _two_closed_months(ledger)
    exported = tmp_path / "list.csv"
    written = run("export-list", "--format", "csv", "-o", str(exported), db=database_url)
    assert written.exit_code == 0, written.output
    assert exported.read_text(encoding="utf-8") == _read_whole(ledger)
    older = run("list", "--format", "csv", "--period", "2029-10", db=database_url)
    assert older.stdout == _read_whole(ledger, "2029-10")


_TEXTS = st.one_of(
    st.none(),
    st.text(alphabet=st.sampled_from("ab ,\"=+-@\t\r\n\x1b\x85\u00e9\u2028'5.")),
)


@given(
    st.lists(st.tuples(_TEXTS, st.one_of(st.none(), st.integers(-3000, 3000)), _TEXTS), max_size=30)
)
def test_text_cells_checked_a_chunk_at_once_are_written_as_cell_by_cell(
    rows: list[tuple[str | None, int | None, str | None]],
) -> None:
    fields = ("name", "change", "title")
    assert "".join(csv_lines(fields, rows, (0, 2))) == "".join(csv_lines(fields, rows))


def test_a_whole_file_leaves_the_cycle_collector_as_it_found_it(ledger: Ledger) -> None:
    """A FIDE file streams with Python's cycle collector paused (it makes objects by the
    million and no cycle); it runs again once the file is written, and once a reader stops
    early."""
    listed = [
        player(ledger, f"Fide, Player {number}", rating=2000 + number, fide_id=number)
        for number in range(1, 4)
    ]
    game(ledger, listed[0], listed[1], "1-0", "2029-10-03")
    close(ledger, "2029-10")
    assert gc.isenabled()
    try:
        with ledger.reading() as session:
            files: list[Callable[[], Iterator[object]]] = [
                lambda: queries.fide_list_file(session, (Pool.STANDARD,), None, xml=False),
            ]
            for whole_file in files:
                assert list(whole_file())
                assert gc.isenabled()
                stopped = whole_file()
                next(stopped)
                next(stopped)
                assert not gc.isenabled()
                del stopped  # the reader lets go of the rows
                assert gc.isenabled()
    finally:
        gc.enable()


def test_pauses_that_overlap_in_two_threads_end_with_the_last() -> None:
    """Two web requests writing files at once: the collector stays paused until the second
    one's rows are written, then runs again."""
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen: list[bool] = []

    def first() -> None:
        with collector_paused():
            first_in.set()
            second_in.wait(10)
        first_out.set()

    def second() -> None:
        first_in.wait(10)
        with collector_paused():
            second_in.set()
            first_out.wait(10)
            seen.append(gc.isenabled())
        seen.append(gc.isenabled())

    assert gc.isenabled()
    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(20)
    finally:
        gc.enable()
    assert seen == [False, True]


class _Written:
    """A progress that adds up what its stages count."""

    def __init__(self) -> None:
        self.done = 0

    def stage(self, description: str, total: int | None, unit: str = "rows") -> _Written:
        return self

    def advance(self, done: int) -> None:
        self.done += done


def test_a_fide_file_counts_the_rows_it_writes(ledger: Ledger) -> None:
    """Its progress counts the rows written: in a single-pool file, the players the pool's
    list holds, not every player with a FIDE ID read past them."""
    rated = [
        player(ledger, f"Rated, Player {number}", rating=2000 + number, fide_id=number)
        for number in range(1, 4)
    ]
    for number in range(4, 6):
        player(ledger, f"Unrated, Player {number}", fide_id=number)
    game(ledger, rated[0], rated[1], "1-0", "2029-10-03")
    close(ledger, "2029-10")
    for pools, rows in (((Pool.STANDARD,), 3), ((Pool.STANDARD, Pool.RAPID, Pool.BLITZ), 5)):
        written = _Written()
        with ledger.reading() as session:
            _, listed = fide_list_rows(session, pools, None, written)
            assert len(list(listed)) == rows
        assert written.done == rows


_NO_ICU = (
    psycopg.errors.FeatureNotSupported,  # a server built without ICU
    psycopg.errors.InvalidParameterValue,  # a server without the locale
    psycopg.errors.SyntaxError,  # a server older than 15
)


@pytest.fixture
def language_collated_url(postgresql_server: PostgreSQLServer | None) -> Iterator[str]:
    """A new PostgreSQL ledger in a database whose text is ordered by en-US's collation."""
    if postgresql_server is None:
        pytest.skip("no PostgreSQL server")
    name = f"ledger_test_{uuid.uuid4().hex[:12]}"
    try:
        url = postgresql_server.create(name, language="en-US")
    except _NO_ICU as error:
        pytest.skip(f"the PostgreSQL server cannot make an ICU en-US database: {error}")
    try:
        upgrade_schema(url)
        yield url
    finally:
        postgresql_server.drop(name)


TIED_NAMES = ("Dubov", "de Vries", "Émile", "Zed", "Aronian", "aaron")


@pytest.mark.postgresql
def test_names_of_one_rating_are_ordered_by_code_point_in_any_database(
    language_collated_url: str,
) -> None:
    """A database made with a language's collation orders "de Vries" before "Dubov"; a list
    orders them by code point, as SQLite does, in its table, its file and its top."""
    ledger = open_ledger(language_collated_url)
    try:
        for name in TIED_NAMES:
            player(ledger, name, rating=2000)
        close(ledger, "2029-10")
        in_table = [row.name for row in listing(ledger).values()]
    finally:
        ledger.dispose()
    by_code_point = sorted(TIED_NAMES)
    assert in_table == by_code_point
    printed = run("list", "--format", "csv", db=language_collated_url)
    assert [line.split(",")[3] for line in printed.stdout.splitlines()[1:]] == by_code_point
    top = run("list", "--top", "2", "--format", "csv", db=language_collated_url)
    assert [line.split(",")[3] for line in top.stdout.splitlines()[1:]] == by_code_point[:2]
