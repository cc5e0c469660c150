"""FIDE's TXT lists <-> rows: the combined list (`players_list_foa.txt`) and the single-pool
lists (`standard_rating_list.txt`, ...), as in FIDE's October 2026 files; and, to read only,
the standard list of FIDE's 2001-2012 layout (`_OLD_LAYOUT`).

Lines end in CRLF; each column starts where its name starts in the header and its value is
left-aligned; a value wider than its column is written in full and pushes the rest of the row
right (long other titles such as `SI,FI,LSI,SLI,NA` do). An unrated pool is written 0
(rating, games and K), an unknown birth year 0.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import IO

from ledger.core.domain import Pool
from ledger.core.errors import InvalidInput
from ledger.formats.fide_list.rows import (
    ALL_POOLS,
    HEAD_BYTES,
    NEWLINE,
    POOL_PARTS,
    Entry,
    FideListReader,
    FideListRow,
    entry_row,
    file_pools,
    row_texts,
)

_MONTH_HEADER = re.compile(r"\S{1,5}")
_HEADER_WORDS = re.compile(r"ID Number|\S+", re.IGNORECASE)

_NAME_WIDTH = 61
"""FIDE's names fit their column with a space to spare; a longer name is cut to fit, so the
row reads back (other titles overflow their column instead, as in FIDE's own files)."""

# (column name, width, key) of FIDE's TXT layouts, around the three columns of each pool.
_TXT_BEFORE = (
    ("ID Number", 15, "id"),
    ("Name", _NAME_WIDTH, "name"),
    ("Fed", 4, "federation"),
    ("Sex", 4, "sex"),
    ("Tit", 5, "title"),
    ("WTit", 5, "women_title"),
    ("OTit", 15, "other_titles"),
    ("FOA", 4, "foa_title"),
)
_TXT_AFTER = (("B-day", 6, "birth_year"), ("Flag", 4, "flag"))
_TXT_POOL = {
    Pool.STANDARD: ("SRtng", "SGm", "SK"),
    Pool.RAPID: ("RRtng", "RGm", "Rk"),
    Pool.BLITZ: ("BRtng", "BGm", "BK"),
}
_OPTIONAL_KEYS = {"foa_title"}
"""FIDE's legacy combined list has no FOA column; every other column is required."""

_OLD_LAYOUT = re.compile(r"id number name titlfed [a-z]{3}[0-9]{2} gamesborn flag", re.IGNORECASE)
"""The header of FIDE's standard list before the rapid and blitz lists (2001 to 2012), as
in `players_list.txt` of March 2011:
`ID number Name                              TitlFed  Mar11 GamesBorn  Flag`. Its column
names run together, its numbers are right-aligned, its titles are lower case (g, wm), it
has no sex, K or FOA column, and a woman is marked by the `w` of her flag."""
_OLD_COLUMNS = (
    ("id", "ID number", 0),
    ("name", "Name", 1),
    ("title", "Titl", 2),
    ("federation", "Fed", 2),
    ("standard_rating", "", 3),
    ("standard_games", "Games", 4),
    ("birth_year", "Born", 4),
    ("flag", "Flag", 5),
)
"""(key, label, header word) of the old layout: a column starts where its word starts,
the second column of a word where the first one's name ends (`Titl|Fed`, `Games|Born`);
the rating column is labelled by its month."""


def write_fide_txt(
    rows: Iterable[FideListRow], pools: tuple[Pool, ...], month: str = ""
) -> Iterator[str]:
    """FIDE's TXT layout, line by line with line endings: combined for all three pools, else
    single-pool with `month` heading the rating column (FIDE names a list by the month it
    takes effect: `NOV26` for the list of 1 November 2026)."""
    pools = file_pools(pools)
    if len(pools) == 1 and not _MONTH_HEADER.fullmatch(month):
        raise ValueError(f"a single-pool list needs its month column, e.g. 'NOV26'; got {month!r}")
    return _txt_lines(rows, pools, _txt_columns(pools, month))


def open_txt(stream: IO[bytes], source: str, pool: Pool) -> FideListReader:
    """A reader of a TXT list from its header line on; `pool` is the pool of a single-pool
    list. Raises InvalidInput when the header is not FIDE's."""
    header = _decoded(stream.readline(HEAD_BYTES)).lstrip("\ufeff").rstrip()
    words = [(match[0], match.start()) for match in _HEADER_WORDS.finditer(header)]
    if not words or words[0][0].lower() != "id number":
        raise InvalidInput(
            f"{source} is not a FIDE rating list: its first line should be FIDE's header, "
            "starting `ID Number      Name`."
        )
    if _OLD_LAYOUT.fullmatch(" ".join(word for word, _ in words)):
        return _open_old_layout(stream, source, words, len(header))
    pools, month = _txt_pools(words, pool)
    expected = _txt_columns(pools, month)
    keys = {name.lower(): key for name, _, key in expected}
    columns = [(keys.get(word.lower()), start) for word, start in words]
    found = {key for key, _ in columns}
    missing = [name for name, _, key in expected if key not in found | _OPTIONAL_KEYS]
    if missing:
        raise InvalidInput(f"{source}:1: FIDE's header lacks column(s) {', '.join(missing)}.")
    labels = {key: word for (key, _), (word, _) in zip(columns, words, strict=True) if key}
    entries = _txt_entries(stream, columns, len(header), _RowCheck(source, pools, labels))
    return FideListReader("txt", pools, month, entries, source, labels)


def _open_old_layout(
    stream: IO[bytes], source: str, words: list[tuple[str, int]], width: int
) -> FideListReader:
    """A reader of a standard list in FIDE's old layout (`_OLD_LAYOUT`)."""
    month = words[3][0]
    columns: list[tuple[str | None, int]] = []
    labels = {}
    for key, label, index in _OLD_COLUMNS:
        word, start = words[index]
        second = bool(label) and not word.lower().startswith(label.lower())
        columns.append((key, start + len(word) - len(label) if second else start))
        labels[key] = label or month
    pools = (Pool.STANDARD,)
    check = _RowCheck(source, pools, labels)
    entries = _txt_entries(stream, columns, width, check, reaches="standard_games")
    return FideListReader("txt", pools, month, _with_sex(entries), source, labels)


def _with_sex(entries: Iterator[Entry]) -> Iterator[Entry]:
    """The old layout's rows with the sex their flag gives: FIDE marked women `w`."""
    for number, values in entries:
        if isinstance(values, dict):
            values["sex"] = "F" if "w" in values["flag"].lower() else "M"
        yield number, values


def _txt_pools(words: list[tuple[str, int]], pool: Pool) -> tuple[tuple[Pool, ...], str]:
    """The pools of a TXT header, and the month of a single-pool one (the name before `Gms`)."""
    names = [word.lower() for word, _ in words]
    if "srtng" in names or "gms" not in names:
        return ALL_POOLS, ""
    return (pool,), words[names.index("gms") - 1][0]


def _txt_entries(
    stream: IO[bytes],
    columns: list[tuple[str | None, int]],
    width: int,
    read: _RowCheck,
    reaches: str = "birth_year",
) -> Iterator[Entry]:
    """Each row's values, or why it cannot be read. A row that stops before the column
    `reaches` (the birth year, which FIDE writes 0 where unknown; the old layout leaves it
    blank) is a problem, and a break-off where it is the file's last; so is a last row
    without a line end that stops before the last column or cannot be read: a download cut
    off in the middle of the row."""
    starts = [start for _, start in columns]
    ends = [*starts[1:], None]
    spans = [(key, start, end) for (key, start), end in zip(columns, ends, strict=True) if key]
    birth_start = next(start for key, start in columns if key == reaches)
    short: tuple[int, str] | None = None
    for number, raw in _numbered_lines(stream, read.source):
        line = _decoded(raw).rstrip("\r\n")
        length = len(line.rstrip())
        if not length:
            continue
        if short is not None:
            yield short
            short = None
        if length <= birth_start:
            short = (
                number,
                (
                    f"the row stops at character {length}, before {read.labels[reaches]} "
                    f"(character {birth_start + 1}); FIDE's rows are {width} characters long."
                ),
            )
            continue
        if len(line) <= width:
            values = {key: line[start:end].strip() for key, start, end in spans}
        else:
            texts = _slices(line, starts, width)
            values = {key: text for (key, _), text in zip(columns, texts, strict=True) if key}
        if not raw.endswith(b"\n"):
            read.whole(number, len(line), starts[-1], values)
        yield number, values
    if short is not None:
        raise _broken_off(read.source, *short)


@dataclass(frozen=True, slots=True)
class _RowCheck:
    """What a TXT list's rows are read with: its source, pools and column labels."""

    source: str
    pools: tuple[Pool, ...]
    labels: dict[str, str]

    def whole(self, number: int, length: int, last_column: int, values: dict[str, str]) -> None:
        """Refuse the list if the row without a line end, its last, stops before the last
        column starts (FIDE pads every row to the header's width) or cannot be read."""
        if length < last_column:
            why = f"the row stops at character {length}, before the last column starts"
            raise _broken_off(self.source, number, why)
        try:
            entry_row(values, self.pools, self.labels, number)
        except InvalidInput as error:
            raise _broken_off(self.source, number, str(error)) from None


def _broken_off(source: str, number: int, why: str) -> InvalidInput:
    return InvalidInput(
        f"{source}:{number}: the list breaks off in the middle of its last row "
        f"({why.rstrip('.')}); download the file again: a list cut off is not imported."
    )


def _numbered_lines(stream: IO[bytes], source: str) -> Iterator[tuple[int, bytes]]:
    """The lines after the header, numbered from 2, each at most `HEAD_BYTES` long."""
    number = 1
    while raw := stream.readline(HEAD_BYTES):
        number += 1
        if len(raw) == HEAD_BYTES and not raw.endswith(b"\n"):
            raise InvalidInput(
                f"{source}:{number}: the line is longer than {HEAD_BYTES} bytes; FIDE's rows "
                "are under 200 characters, so this is not a FIDE list."
            )
        yield number, raw


def _slices(line: str, starts: list[int], width: int) -> list[str]:
    """Each column's text. A value wider than its column pushes the rest of the row right, so
    the row is longer than the header: that surplus goes to the first value that runs into
    the next column without a space (FIDE's overflowing values are other titles)."""
    surplus = len(line) - width
    texts: list[str] = []
    shift = 0
    for start, after in pairwise(starts):
        begin, end = start + shift, after + shift
        if shift < surplus and _runs_on(line, end):
            shift += min(surplus - shift, _word_end(line, end) - end)
            end = after + shift
        texts.append(line[begin:end].strip())
    texts.append(line[starts[-1] + shift :].strip())
    return texts


def _runs_on(line: str, end: int) -> bool:
    return 0 < end < len(line) and line[end - 1] != " " and line[end] != " "


def _word_end(line: str, start: int) -> int:
    space = line.find(" ", start)
    return len(line) if space < 0 else space


def _decoded(raw: bytes) -> str:
    """A line of a FIDE list: UTF-8, or Latin-1 as FIDE's older files were."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _txt_columns(pools: tuple[Pool, ...], month: str) -> list[tuple[str, int, str]]:
    """(column name, width, key) of FIDE's combined or single-pool TXT layout."""
    names = _TXT_POOL if len(pools) > 1 else {pools[0]: (month, "Gms", "K")}
    middle = [
        (name, width, f"{pool.value}_{part}")
        for pool in pools
        for name, (part, width) in zip(names[pool], POOL_PARTS, strict=True)
    ]
    return [*_TXT_BEFORE, *middle, *_TXT_AFTER]


def _txt_lines(
    rows: Iterable[FideListRow], pools: tuple[Pool, ...], columns: list[tuple[str, int, str]]
) -> Iterator[str]:
    yield "".join(name.ljust(width) for name, width, _ in columns) + NEWLINE
    line = "".join(_txt_field(key, width) for _, width, key in columns) + NEWLINE
    for row in rows:
        yield line % row_texts(row, pools)


def _txt_field(key: str, width: int) -> str:
    """The %-format of a row's value in its column (twice as fast as `str.format` for a
    million rows): padded to the column's width (a longer value is written whole and pushes
    the rest of the row right), a name cut to leave the space after it (`_NAME_WIDTH`)."""
    cut = f".{_NAME_WIDTH - 1}" if key == "name" else ""
    return f"%({key})-{width}{cut}s"
