"""FIDE rating list files (ledger.formats.fide_list): FIDE's TXT and XML layouts, read and written.

The samples in tests/data/fide are FIDE's layout byte for byte (CRLF, full-width rows); the
rows of real players (Carlsen, Ding, Nakamura, Leko, Ababil, Arribas Robaina, Cruz Arce) are
FIDE's own lines from its 2026 lists, the others are made up around them.
"""

from __future__ import annotations

import io
import tracemalloc
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.core.domain import Pool
from ledger.core.errors import InvalidInput
from ledger.formats.fide_list import (
    ALL_POOLS,
    FideListReader,
    FideListRow,
    PoolRating,
    open_fide_list,
    write_fide_txt,
    write_fide_xml,
)

DATA = Path(__file__).parent / "data" / "fide"
COMBINED_HEADER = (
    "ID Number      Name                                                         "
    "Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
STANDARD_HEADER = (
    "ID Number      Name                                                         "
    "Fed Sex Tit  WTit OTit           FOA NOV26 Gms K  B-day Flag"
)
CARLSEN = (
    "1503014        Carlsen, Magnus                                              NOR M   GM"
    "                           2823  0   10 2801  12  10 2860  0   10 1990      "
)


def sample(name: str) -> bytes:
    return (DATA / name).read_bytes()


def read(
    data: bytes | io.BytesIO, file_name: str = "players_list_foa.txt", pool: Pool = Pool.STANDARD
) -> tuple[FideListReader, list[FideListRow]]:
    file = data if isinstance(data, io.BytesIO) else io.BytesIO(data)
    reader = open_fide_list(file, file_name, pool)
    return reader, list(reader.rows())


def by_id(rows: Iterable[FideListRow]) -> dict[int, FideListRow]:
    return {row.fide_id: row for row in rows}


def unnumbered(rows: Iterable[FideListRow]) -> list[FideListRow]:
    return [row._replace(line=0) for row in rows]


def zipped(*members: tuple[str, bytes]) -> io.BytesIO:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    buffer.seek(0)
    return buffer


def txt(*rows: str, header: str = COMBINED_HEADER) -> bytes:
    return "".join(f"{line}\r\n" for line in (header, *rows)).encode()


# -- the samples are FIDE's layout --------------------------------------------------------------


def test_combined_sample_has_fides_header_crlf_and_full_width_rows() -> None:
    lines = sample("players_list_foa.txt").decode().split("\r\n")
    assert lines[0] == COMBINED_HEADER
    assert lines[-1] == "", "the last row ends in CRLF too"
    assert "\n" not in "".join(lines)
    assert CARLSEN in lines
    assert {len(line) for line in lines[1:-1]} == {162, 163, 164}, "162, or wider by overflow"


def test_standard_sample_has_fides_single_pool_header() -> None:
    lines = sample("standard_list.txt").decode().split("\r\n")
    assert lines[0] == STANDARD_HEADER
    assert {len(line) for line in lines[1:-1]} == {136, 137, 138}


# -- reading ------------------------------------------------------------------------------------


def test_reads_carlsen_exactly() -> None:
    _, rows = read(sample("players_list_foa.txt"))
    assert by_id(rows)[1503014] == FideListRow(
        fide_id=1503014,
        name="Carlsen, Magnus",
        federation="NOR",
        sex="M",
        title="GM",
        women_title=None,
        other_titles=None,
        foa_title=None,
        ratings={
            Pool.STANDARD: PoolRating(2823, 0, 10),
            Pool.RAPID: PoolRating(2801, 12, 10),
            Pool.BLITZ: PoolRating(2860, 0, 10),
        },
        birth_year=1990,
        flag="",
        line=8,
    )


FIELDS = {
    "a single name": (7128762, "name", "Ababil"),
    "an FOA title": (7128762, "foa_title", "AIM"),
    "unrated in blitz: 0, 0, 0": (7128762, Pool.BLITZ, PoolRating(None, 0, None)),
    "a woman's title in Tit": (3501418, "title", "WGM"),
    "a woman's title in WTit": (3501418, "women_title", "WGM"),
    "woman": (3501418, "sex", "F"),
    "flag w": (3501418, "flag", "w"),
    "other titles overflowing into FOA": (3101959, "other_titles", "SI,FI,LSI,SLI,NA"),
    "the FOA title after an overflow": (3101959, "foa_title", "AFM"),
    "ratings after an overflow": (3101959, Pool.BLITZ, PoolRating(1927, 0, 20)),
    "birth year after an overflow": (3101959, "birth_year", 1982),
    "other titles filling their column": (99000105, "other_titles", "IA,FA,FST,DI,NI"),
    "an FOA title right after them": (99000105, "foa_title", "ACM"),
    "other titles overflowing an empty FOA": (99000119, "other_titles", "SI,FI,IO,NA,IA,FT"),
    "a rating after that overflow": (99000119, Pool.STANDARD, PoolRating(2105, 0, 20)),
    "flag i": (99000105, "flag", "i"),
    "flag wi": (99000109, "flag", "wi"),
    "birth year 0 is none": (99000107, "birth_year", None),
    "an accented name": (99000108, "name", "García Núñez, José María"),
    "an apostrophe in a name": (99000117, "name", "O'Brien, Siobhán"),
    "unrated in standard, rated in rapid": (99000110, Pool.RAPID, PoolRating(1612, 9, 40)),
    "unrated everywhere": (99000112, Pool.STANDARD, PoolRating(None, 0, None)),
    "unrated with games in the period": (99000113, Pool.STANDARD, PoolRating(None, 4, None)),
    "a nine-digit FIDE ID": (521009876, "name", "Wójcik, Piotr"),
    "several other titles": (99000111, "other_titles", "FA,FT"),
    "a woman with an open title": (99000103, "title", "IM"),
}


@pytest.mark.parametrize(
    "file_name", ["players_list_foa.txt", "players_list_xml_foa.xml"], ids=["TXT", "XML"]
)
@pytest.mark.parametrize(("fide_id", "field", "expected"), list(FIELDS.values()), ids=list(FIELDS))
def test_reads_field(file_name: str, fide_id: int, field: str | Pool, expected: object) -> None:
    row = by_id(read(sample(file_name), file_name)[1])[fide_id]
    value = row.ratings[field] if isinstance(field, Pool) else getattr(row, field)
    assert value == expected


def test_txt_and_xml_samples_hold_the_same_players() -> None:
    txt_reader, txt_rows = read(sample("players_list_foa.txt"))
    xml_reader, xml_rows = read(sample("players_list_xml_foa.xml"), "players_list_xml_foa.xml")
    assert (txt_reader.kind, xml_reader.kind) == ("txt", "xml")
    assert txt_reader.pools == xml_reader.pools == ALL_POOLS
    assert len(txt_rows) == 32
    assert unnumbered(txt_rows) == unnumbered(xml_rows)
    assert [row.line for row in xml_rows[:3]] == [1, 2, 3], "XML rows are numbered by player"
    assert txt_reader.problems == xml_reader.problems == []


def test_single_pool_list_is_read_into_the_pool_named() -> None:
    reader, rows = read(sample("standard_list.txt"), "standard_list.txt")
    assert (reader.kind, reader.pools, reader.month) == ("txt", (Pool.STANDARD,), "NOV26")
    assert by_id(rows)[1503014].ratings == {Pool.STANDARD: PoolRating(2823, 0, 10)}
    reader, rows = read(sample("standard_list.txt"), "rapid_rating_list.txt", Pool.RAPID)
    assert reader.pools == (Pool.RAPID,)
    assert by_id(rows)[1503014].ratings == {Pool.RAPID: PoolRating(2823, 0, 10)}


def test_single_pool_list_holds_the_combined_lists_standard_players() -> None:
    _, combined = read(sample("players_list_foa.txt"))
    _, single = read(sample("standard_list.txt"), "standard_list.txt")
    expected = [
        row._replace(ratings={Pool.STANDARD: row.ratings[Pool.STANDARD]}, line=0)
        for row in combined
        if row.ratings[Pool.STANDARD].rating is not None
    ]
    assert unnumbered(single) == expected


def test_legacy_combined_list_without_foa_is_read() -> None:
    lines = sample("players_list_foa.txt").decode().split("\r\n")[:8]
    legacy = "\r\n".join(line[:109] + line[113:] for line in lines).encode()
    _, rows = read(legacy)
    _, full = read(sample("players_list_foa.txt"))
    assert unnumbered(rows) == [row._replace(foa_title=None, line=0) for row in full[: len(rows)]]
    assert by_id(rows)[7128762].ratings[Pool.RAPID] == PoolRating(1620, 0, 40)


ENCODINGS: dict[str, Callable[[bytes], bytes]] = {
    "LF line endings": lambda data: data.replace(b"\r\n", b"\n"),
    "Latin-1": lambda data: data.decode().encode("latin-1"),
    "UTF-8 with a byte order mark": lambda data: b"\xef\xbb\xbf" + data,
    "no line ending after the last row": lambda data: data.removesuffix(b"\r\n"),
}


@pytest.mark.parametrize(
    "file_name", ["players_list_foa.txt", "players_list_xml_foa.xml"], ids=["TXT", "XML"]
)
@pytest.mark.parametrize("change", list(ENCODINGS.values()), ids=list(ENCODINGS))
def test_reads_other_encodings_and_line_endings(
    file_name: str, change: Callable[[bytes], bytes]
) -> None:
    reader, rows = read(change(sample(file_name)), file_name)
    assert reader.problems == []
    assert unnumbered(rows) == unnumbered(read(sample(file_name), file_name)[1])


@pytest.mark.parametrize("encoding", ["utf-8", "latin-1"])
@pytest.mark.parametrize("kind", ["txt", "xml"])
def test_reads_every_row_of_a_list_longer_than_a_read(kind: str, encoding: str) -> None:
    rows = [row._replace(name=f"Núñez, {row.name}") for row in many_rows(3_000)]
    write = write_fide_txt if kind == "txt" else write_fide_xml
    data = "".join(write(rows, ALL_POOLS)).encode(encoding)
    assert len(data) > 4 * 65_536
    reader, back = read(data, f"players_list.{kind}")
    assert unnumbered(back) == rows
    assert reader.problems == []


def test_xml_declaring_latin1_is_read() -> None:
    data = sample("players_list_xml_foa.xml").decode().encode("latin-1")
    declared = b'<?xml version="1.0" encoding="ISO-8859-1"?>\r\n' + data
    rows = by_id(read(declared, "players_list_xml_foa.xml")[1])
    assert rows[99000108].name == "García Núñez, José María"


def test_xml_empty_elements_are_blank_fields() -> None:
    data = (
        b"<playerslist>\n<player><fideid>7</fideid><name>Empty,  Elements</name><country/>"
        b"<sex></sex><title/><w_title/><o_title/><foa_title/><rating></rating><games/><k/>"
        b"<rapid_rating/><rapid_games/><rapid_k/><blitz_rating/><blitz_games/><blitz_k/>"
        b"<birthday/><flag/></player>\n</playerslist>\n"
    )
    reader, rows = read(data, "players_list_xml_foa.xml")
    assert reader.pools == ALL_POOLS
    assert rows == [
        FideListRow(
            7,
            "Empty, Elements",
            None,
            None,
            None,
            None,
            None,
            None,
            dict.fromkeys(ALL_POOLS, PoolRating(None, 0, None)),
            None,
            "",
            1,
        )
    ]


def test_xml_list_without_players_has_no_rows() -> None:
    reader, rows = read(b"<playerslist>\r\n</playerslist>\r\n", "blitz.xml", Pool.BLITZ)
    assert (reader.kind, reader.pools, rows, reader.problems) == ("xml", (Pool.BLITZ,), [], [])


def test_single_pool_xml_is_read_into_the_pool_named() -> None:
    _, rows = read(sample("standard_list.txt"), "blitz_rating_list.txt", Pool.BLITZ)
    data = "".join(write_fide_xml(rows, (Pool.BLITZ,))).encode()
    assert b"<rating>2823</rating>" in data
    assert b"blitz_" not in data
    reader, rows = read(data, "blitz_rating_list.xml", Pool.BLITZ)
    assert (reader.kind, reader.pools) == ("xml", (Pool.BLITZ,))
    assert by_id(rows)[1503014].ratings == {Pool.BLITZ: PoolRating(2823, 0, 10)}


FLAGS = {
    "no flag": ("", ""),
    "inactive": ("i", "i"),
    "woman": ("w", "w"),
    "woman inactive": ("wi", "wi"),
    "iw is written wi": ("iw", "wi"),
    "upper case, as FIDE's legend writes it": ("WI", "wi"),
}


@pytest.mark.parametrize(("text", "flag"), list(FLAGS.values()), ids=list(FLAGS))
def test_flags(text: str, flag: str) -> None:
    _, rows = read(txt(CARLSEN[:158] + text.ljust(4)))
    assert rows[0].flag == flag


# -- zips ---------------------------------------------------------------------------------------

ZIPS = {
    "combined TXT": ("players_list.zip", "players_list_foa.txt"),
    "combined XML": ("players_list_xml.zip", "players_list_xml_foa.xml"),
    "standard TXT": ("standard_rating_list.zip", "standard_list.txt"),
}


@pytest.mark.parametrize(("zip_name", "member"), list(ZIPS.values()), ids=list(ZIPS))
def test_zipped_list_reads_as_its_member(zip_name: str, member: str) -> None:
    reader, rows = read(zipped((member, sample(member))), zip_name)
    plain_reader, plain_rows = read(sample(member), member)
    assert (reader.kind, reader.pools, reader.month) == (
        plain_reader.kind,
        plain_reader.pools,
        plain_reader.month,
    )
    assert rows == plain_rows


def test_zip_reads_its_first_list_and_names_it_in_problems() -> None:
    archive = zipped(
        ("readme.md", b"FIDE ratings"),
        ("players_list_foa.txt", sample("players_list_defective.txt")),
        ("players_list_xml_foa.xml", sample("players_list_xml_foa.xml")),
    )
    reader, rows = read(archive, "players_list.zip")
    assert reader.kind == "txt"
    assert len(rows) == 2
    assert reader.problems[0].startswith("players_list.zip/players_list_foa.txt:3: ")


# -- problems -----------------------------------------------------------------------------------


def test_bad_txt_rows_are_skipped_with_their_line() -> None:
    reader, rows = read(sample("players_list_defective.txt"), "players_list_defective.txt")
    assert [row.fide_id for row in rows] == [1503014, 8603677]
    assert [row.line for row in rows] == [2, 10]
    assert reader.problems == [
        "players_list_defective.txt:3: ID Number: '7O3303' is not a whole number.",
        "players_list_defective.txt:4: SRtng: '27x3' is not a whole number.",
        "players_list_defective.txt:5: RGm: '1a' is not a whole number.",
        "players_list_defective.txt:6: the row stops at character 30, before B-day "
        "(character 153); FIDE's rows are 162 characters long.",
        "players_list_defective.txt:7: FIDE ID 1503014 appears earlier in the list.",
        "players_list_defective.txt:8: Flag: 'x' is not one of i, w or wi.",
    ]


def test_bad_xml_players_are_skipped_and_a_broken_file_is_refused() -> None:
    reader = open_fide_list(io.BytesIO(sample("players_list_defective.xml")), "bad.xml")
    rows: list[FideListRow] = []
    with pytest.raises(
        InvalidInput, match=r"^bad\.xml: the XML is broken after player 5 \("
    ) as broken:
        rows.extend(reader.rows())
    assert str(broken.value).endswith("); a list that cannot be read to its end is not imported.")
    assert [(row.fide_id, row.line) for row in rows] == [(1503014, 1), (8603677, 5)]
    assert reader.problems == [
        "bad.xml:2: rating: 'abc' is not a whole number.",
        "bad.xml:3: FIDE ID 1503014 appears earlier in the list.",
        "bad.xml:4: fideid: the player has no FIDE ID.",
    ]


ROW_PROBLEMS = {
    "ID 0": ("0".ljust(15) + CARLSEN[15:], "ID Number: '0' is not a FIDE ID."),
    "no name": (CARLSEN[:15] + " " * 61 + CARLSEN[76:], "Name: the player has no name."),
    "a negative K": (CARLSEN[:123] + "-1 " + CARLSEN[126:], "SK: '-1' is not a whole number."),
    "B-day not a year": (
        CARLSEN[:152] + "19x0  " + CARLSEN[158:],
        "B-day: '19x0' is not a whole number.",
    ),
}


@pytest.mark.parametrize(("line", "message"), list(ROW_PROBLEMS.values()), ids=list(ROW_PROBLEMS))
def test_row_problem(line: str, message: str) -> None:
    reader, rows = read(txt(line))
    assert rows == []
    assert reader.problems == [f"players_list_foa.txt:2: {message}"]


NOT_LISTS = {
    "an empty file": (b"", "list.txt is empty; expected a FIDE rating list."),
    "only blank lines": (b"\r\n  \r\n", "list.txt is empty; expected a FIDE rating list."),
    "the ledger's own CSV": (
        sample("not_a_list.csv"),
        "list.txt is not a FIDE rating list: its first line should be FIDE's header, "
        "starting `ID Number      Name`.",
    ),
    "binary data": (bytes(range(256)) * 4, "list.txt is not a FIDE rating list"),
    "a header without the rating columns": (
        b"ID Number      Name            Fed\r\n",
        "list.txt:1: FIDE's header lacks column(s) Sex, Tit, WTit, OTit, SRtng, SGm, SK, RRtng",
    ),
    "an HTML page": (
        b"<!DOCTYPE html>\n<html><body>Not found</body></html>",
        "list.txt is not a FIDE XML rating list: its root element should be <playerslist>.",
    ),
    "XML of something else": (
        b'<?xml version="1.0"?><tournament/>',
        "list.txt is not a FIDE XML rating list",
    ),
    "a zip without a list": (
        zipped(("readme.md", b"nothing here")).getvalue(),
        "list.txt holds no .txt or .xml file, so no FIDE list.",
    ),
    "an empty zip": (zipped().getvalue(), "list.txt holds no .txt or .xml file, so no FIDE list."),
    "a broken zip": (b"PK\x03\x04 and then nothing", "list.txt is not a readable zip file ("),
}


@pytest.mark.parametrize(("data", "message"), list(NOT_LISTS.values()), ids=list(NOT_LISTS))
def test_not_a_fide_list(data: bytes, message: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        read(data, "list.txt")
    assert str(raised.value).startswith(message)
    assert "\n" not in str(raised.value)


def test_reading_starts_where_the_file_stands() -> None:
    file = io.BytesIO(b"a preamble the caller has read\n" + sample("players_list_foa.txt"))
    file.readline()
    reader = open_fide_list(file, "players_list_foa.txt")
    assert len(list(reader.rows())) == 32


def test_header_only_list_has_no_rows_and_no_problems() -> None:
    reader, rows = read(txt())
    assert (rows, reader.problems) == ([], [])


# -- writing ------------------------------------------------------------------------------------

ROUND_TRIPS = {
    "combined TXT": ("players_list_foa.txt", "txt"),
    "standard TXT": ("standard_list.txt", "txt"),
    "combined XML": ("players_list_xml_foa.xml", "xml"),
}


@pytest.mark.parametrize(("file_name", "kind"), list(ROUND_TRIPS.values()), ids=list(ROUND_TRIPS))
def test_writing_what_was_read_gives_the_file_back_byte_for_byte(file_name: str, kind: str) -> None:
    reader, rows = read(sample(file_name), file_name)
    if kind == "txt":
        written = "".join(write_fide_txt(rows, reader.pools, reader.month))
    else:
        written = "".join(write_fide_xml(rows, reader.pools))
    assert written.encode() == sample(file_name)


def test_writer_keeps_the_rows_order_and_fills_missing_pools_as_unrated() -> None:
    _, rows = read(sample("standard_list.txt"), "standard_list.txt")
    reader, back = read("".join(write_fide_txt(reversed(rows), ALL_POOLS)).encode())
    assert [row.fide_id for row in back] == [row.fide_id for row in reversed(rows)]
    assert back[0].ratings[Pool.RAPID] == PoolRating(None, 0, None)
    assert reader.pools == ALL_POOLS


def test_writer_puts_the_pools_in_fides_order() -> None:
    _, rows = read(txt(CARLSEN))
    shuffled = (Pool.BLITZ, Pool.STANDARD, Pool.RAPID)
    assert "".join(write_fide_txt(rows, shuffled)).encode() == txt(CARLSEN)


BAD_WRITES: dict[str, tuple[tuple[Pool, ...], str, str]] = {
    "two pools": ((Pool.STANDARD, Pool.RAPID), "NOV26", "one pool or all three"),
    "no pool": ((), "NOV26", "one pool or all three"),
    "a single pool without its month": ((Pool.RAPID,), "", "needs its month column"),
    "a month wider than its column": ((Pool.RAPID,), "NOVEMBER", "needs its month column"),
}


@pytest.mark.parametrize(
    ("pools", "month", "message"), list(BAD_WRITES.values()), ids=list(BAD_WRITES)
)
def test_writer_refuses(pools: tuple[Pool, ...], month: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        write_fide_txt([], pools, month)


# -- properties ---------------------------------------------------------------------------------

NAME_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZáéíñóöüçåøÅÉØ',.-&"
OTHER_TITLES = ("IA", "FA", "NA", "IO", "FT", "FST", "DI", "NI", "SI", "FI", "LSI", "SLI")
names = st.lists(st.text(NAME_LETTERS, min_size=1, max_size=12), min_size=1, max_size=4).map(
    " ".join
)
pool_ratings = st.builds(
    PoolRating,
    rating=st.none() | st.integers(1400, 3300),
    games=st.integers(0, 99),
    k=st.sampled_from([None, 10, 20, 40]),
)


def list_rows(pools: tuple[Pool, ...]) -> st.SearchStrategy[list[FideListRow]]:
    row = st.builds(
        FideListRow,
        fide_id=st.integers(1, 999_999_999),
        name=names,
        federation=st.none() | st.from_regex(r"[A-Z]{3}", fullmatch=True),
        sex=st.sampled_from([None, "M", "F"]),
        title=st.sampled_from([None, "GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"]),
        women_title=st.sampled_from([None, "WGM", "WIM", "WFM", "WCM"]),
        other_titles=st.none()
        | st.lists(st.sampled_from(OTHER_TITLES), min_size=1, max_size=6).map(",".join),
        foa_title=st.sampled_from([None, "AGM", "AIM", "AFM", "ACM"]),
        ratings=st.fixed_dictionaries(dict.fromkeys(pools, pool_ratings)),
        birth_year=st.none() | st.integers(1920, 2020),
        flag=st.sampled_from(["", "i", "w", "wi"]),
        line=st.just(0),
    )
    return st.lists(row, min_size=1, max_size=12, unique_by=lambda row: row.fide_id)


file_pools = st.sampled_from([ALL_POOLS, (Pool.STANDARD,), (Pool.RAPID,), (Pool.BLITZ,)])


@given(st.data())
def test_txt_rows_written_read_back_equal(data: st.DataObject) -> None:
    pools = data.draw(file_pools)
    rows = data.draw(list_rows(pools))
    reader, back = read("".join(write_fide_txt(rows, pools, "NOV26")).encode(), pool=pools[0])
    assert reader.problems == []
    assert reader.pools == pools
    assert unnumbered(back) == rows


@given(st.data())
def test_xml_rows_written_read_back_equal(data: st.DataObject) -> None:
    pools = data.draw(file_pools)
    rows = data.draw(list_rows(pools))
    reader, back = read("".join(write_fide_xml(rows, pools)).encode(), "list.xml", pools[0])
    assert reader.problems == []
    assert reader.pools == pools
    assert unnumbered(back) == rows


@given(st.lists(st.integers(1, 600) | st.integers(1, 999_999_999), min_size=1, max_size=40))
def test_each_repeat_of_a_fide_id_is_a_problem(ids: list[int]) -> None:
    _, (template,) = read(txt(CARLSEN))
    rows = [template._replace(fide_id=fide_id) for fide_id in ids]
    reader, back = read("".join(write_fide_txt(rows, ALL_POOLS)).encode())
    first_lines = {fide_id: line for line, fide_id in reversed(list(enumerate(ids, start=2)))}
    repeats = [line for line, fide_id in enumerate(ids, start=2) if first_lines[fide_id] != line]
    assert [int(text.split(":")[1]) for text in reader.problems] == repeats
    assert [row.fide_id for row in back] == list(dict.fromkeys(ids))


# -- memory -------------------------------------------------------------------------------------


def many_rows(count: int) -> Iterable[FideListRow]:
    _, (template,) = read(txt(CARLSEN))
    for number in range(count):
        yield template._replace(fide_id=10_000_000 + number, name=f"Player, {number}", line=0)


def traced_peak(work: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow
def test_reading_a_large_list_keeps_memory_flat(tmp_path: Path) -> None:
    """Streaming 200,000 rows costs a small part of what holding them would (the one thing
    that grows is the record of FIDE IDs seen, for the duplicate check)."""
    large, small = tmp_path / "players_list_foa.txt", tmp_path / "small.txt"
    for path, count in ((large, 200_000), (small, 2_000)):
        with path.open("w", encoding="utf-8", newline="") as file:
            file.writelines(write_fide_txt(many_rows(count), ALL_POOLS))

    def count_rows(path: Path) -> int:
        with path.open("rb") as file:
            return sum(1 for _ in open_fide_list(file, path.name).rows())

    def hold_rows(path: Path) -> list[FideListRow]:
        with path.open("rb") as file:
            return list(open_fide_list(file, path.name).rows())

    holding_all = traced_peak(lambda: hold_rows(small)) * 100
    assert traced_peak(lambda: count_rows(large)) < holding_all / 50
