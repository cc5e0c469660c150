"""FIDE rating list files <-> records: the combined TXT (`players_list_foa.txt`), the
single-pool TXT lists (`standard_rating_list.txt`, ...), their XML twins, each possibly zipped.

Pure text in, records out, and back in FIDE's layouts byte for byte. Files are streamed (the
combined XML is about 900 MB): rows are read one at a time and never held, and a row that
cannot be read is skipped and described as `file:line: message` in the reader's `problems`.

FIDE's layouts, as in its October 2026 files: TXT lines end in CRLF; each column starts where
its name starts in the header and its value is left-aligned; a value wider than its column is
written in full and pushes the rest of the row right (long other titles such as
`SI,FI,LSI,SLI,NA` do). An unrated pool is written 0 (rating, games and K), an unknown birth
year 0. The XML has no declaration and one unindented element per line.
"""

from __future__ import annotations

import codecs
import re
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import IO, cast
from xml.etree import ElementTree
from xml.sax.saxutils import escape

from ledger.domain import Pool
from ledger.errors import InvalidInput
from ledger.records import LARGEST_ID, problem

ALL_POOLS = (Pool.STANDARD, Pool.RAPID, Pool.BLITZ)
"""The pools of the combined list, in FIDE's column order."""
NEWLINE = "\r\n"
"""FIDE ends every line of its TXT lists with CRLF; the XML is written the same way."""

_HEAD_BYTES = 1 << 16
_CHUNK_BYTES = 1 << 16
_MONTH_HEADER = re.compile(r"\S{1,5}")
_FLAGS = {"": "", "i": "i", "w": "w", "wi": "wi", "iw": "wi"}
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
_HEADER_WORDS = re.compile(r"ID Number|\S+", re.IGNORECASE)
_FIRST_ELEMENT = re.compile(rb"<([A-Za-z_][^\s/>]*)")

# (column name, width, key) of FIDE's TXT layouts, around the three columns of each pool.
_TXT_BEFORE = (
    ("ID Number", 15, "id"),
    ("Name", 61, "name"),
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
_POOL_PARTS = (("rating", 6), ("games", 4), ("k", 3))
_POOL_KEYS = {pool: tuple(f"{pool.value}_{part}" for part, _ in _POOL_PARTS) for pool in Pool}
_OPTIONAL_KEYS = {"foa_title"}
"""FIDE's legacy combined list has no FOA column; every other column is required."""

# (element, key) of FIDE's XML layout, around the three elements of each pool.
_XML_BEFORE = (
    ("fideid", "id"),
    ("name", "name"),
    ("country", "federation"),
    ("sex", "sex"),
    ("title", "title"),
    ("w_title", "women_title"),
    ("o_title", "other_titles"),
    ("foa_title", "foa_title"),
)
_XML_AFTER = (("birthday", "birth_year"), ("flag", "flag"))
_XML_PREFIX = {Pool.STANDARD: "", Pool.RAPID: "rapid_", Pool.BLITZ: "blitz_"}

_StartEvents = Iterator[tuple[str, ElementTree.Element]]
_Entry = tuple[int, dict[str, str] | str]
"""A row's line (or player number) and its values by key, or why it cannot be read."""


@dataclass(frozen=True, slots=True)
class PoolRating:
    """A player's row in one pool: rating (None when unrated), games rated in the list's
    period, and K (None when the list gives none)."""

    rating: int | None
    games: int
    k: int | None


_UNRATED = PoolRating(None, 0, None)


@dataclass(frozen=True, slots=True)
class FideListRow:
    """One player of a FIDE list. `ratings` holds exactly the pools the file carries; `flag` is
    '', 'i', 'w' or 'wi'; `line` is the TXT line or the XML player's number, from 1."""

    fide_id: int
    name: str
    federation: str | None
    sex: str | None
    title: str | None
    women_title: str | None
    other_titles: str | None
    foa_title: str | None
    ratings: dict[Pool, PoolRating]
    birth_year: int | None
    flag: str
    line: int


class FideListReader:
    """One FIDE list, open for reading: its kind ('txt' or 'xml'), its pools and its rows.

    `month` is the rating column's name of a single-pool TXT list (e.g. `NOV26`), else ''.
    """

    def __init__(
        self,
        kind: str,
        pools: tuple[Pool, ...],
        month: str,
        entries: Iterator[_Entry],
        source: str,
        labels: dict[str, str],
    ) -> None:
        self.kind = kind
        self.pools = pools
        self.month = month
        self.problems: list[str] = []
        self._entries = entries
        self._source = source
        self._labels = labels

    def rows(self) -> Iterator[FideListRow]:
        """The rows in file order, read once. A row that cannot be read (or repeats a FIDE ID)
        is skipped, and `problems` gets its `file:line: message`."""
        seen = _SeenIds()
        for line, entry in self._entries:
            try:
                row = _row(entry, self.pools, self._labels, line)
                if not seen.add(row.fide_id):
                    raise InvalidInput(f"FIDE ID {row.fide_id} appears earlier in the list.")
            except InvalidInput as error:
                self.problems.append(problem(f"{self._source}:{line}", str(error)))
                continue
            yield row


class _SeenIds:
    """FIDE IDs seen so far, as bits in blocks of 256 IDs. FIDE hands IDs out in runs per
    federation, so they cluster and a full list's two million IDs should take a few MB where
    a set of them takes over 100 MB; IDs scattered at random would cost about twice a set."""

    def __init__(self) -> None:
        self._blocks: dict[int, int] = {}

    def add(self, fide_id: int) -> bool:
        """Adds the ID; False if it was seen already."""
        block, bit = fide_id >> 8, 1 << (fide_id & 255)
        bits = self._blocks.get(block, 0)
        self._blocks[block] = bits | bit
        return not bits & bit


def open_fide_list(file: IO[bytes], file_name: str, pool: Pool = Pool.STANDARD) -> FideListReader:
    """A reader of a FIDE list: a zip (its first .txt or .xml member), XML or TXT, by content.

    `file` must be seekable; reading starts where it stands. `pool` names the pool of a
    single-pool list, whose header does not say. Raises InvalidInput when the file is not a
    FIDE list at all.
    """
    head = _head(file)
    if head.startswith(_ZIP_MAGIC):
        return _open_zip(file, file_name, pool)
    return _open_stream(file, head, file_name, pool)


def write_fide_txt(
    rows: Iterable[FideListRow], pools: tuple[Pool, ...], month: str = ""
) -> Iterator[str]:
    """FIDE's TXT layout, line by line with line endings: combined for all three pools, else
    single-pool with `month` heading the rating column (FIDE names a list by the month it
    takes effect: `NOV26` for the list of 1 November 2026)."""
    pools = _file_pools(pools)
    if len(pools) == 1 and not _MONTH_HEADER.fullmatch(month):
        raise ValueError(f"a single-pool list needs its month column, e.g. 'NOV26'; got {month!r}")
    return _txt_lines(rows, pools, _txt_columns(pools, month))


def write_fide_xml(rows: Iterable[FideListRow], pools: tuple[Pool, ...]) -> Iterator[str]:
    """FIDE's XML layout, one player per chunk: combined element names for all three pools,
    `rating`, `games` and `k` for a single pool."""
    pools = _file_pools(pools)
    return _xml_chunks(rows, pools, _xml_elements(pools))


# -- reading ------------------------------------------------------------------------------------


def _head(file: IO[bytes]) -> bytes:
    """The first bytes of the file, which tell its format; the file is left where it was."""
    start = file.tell()
    head = file.read(_HEAD_BYTES)
    file.seek(start)
    return head


def _open_zip(file: IO[bytes], file_name: str, pool: Pool) -> FideListReader:
    try:
        archive = zipfile.ZipFile(file)
    except zipfile.BadZipFile as error:
        raise InvalidInput(f"{file_name} is not a readable zip file ({error}).") from None
    member = next((info for info in archive.infolist() if _is_list(info)), None)
    if member is None:
        raise InvalidInput(f"{file_name} holds no .txt or .xml file, so no FIDE list.")
    stream = archive.open(member)
    return _open_stream(stream, _head(stream), f"{file_name}/{member.filename}", pool)


def _is_list(member: zipfile.ZipInfo) -> bool:
    name = member.filename.lower()
    return name.endswith((".txt", ".xml")) and not name.startswith("__macosx/")


def _open_stream(stream: IO[bytes], head: bytes, source: str, pool: Pool) -> FideListReader:
    start = head.removeprefix(codecs.BOM_UTF8).lstrip()
    if not start:
        raise InvalidInput(f"{source} is empty; expected a FIDE rating list.")
    if start.startswith(b"<"):
        return _open_xml(stream, head, source, pool)
    return _open_txt(stream, source, pool)


def _open_txt(stream: IO[bytes], source: str, pool: Pool) -> FideListReader:
    header = _decoded(stream.readline(_HEAD_BYTES)).lstrip("\ufeff").rstrip()
    words = [(match[0], match.start()) for match in _HEADER_WORDS.finditer(header)]
    if not words or words[0][0].lower() != "id number":
        raise InvalidInput(
            f"{source} is not a FIDE rating list: its first line should be FIDE's header, "
            "starting `ID Number      Name`."
        )
    pools, month = _txt_pools(words, pool)
    expected = _txt_columns(pools, month)
    keys = {name.lower(): key for name, _, key in expected}
    columns = [(keys.get(word.lower()), start) for word, start in words]
    found = {key for key, _ in columns}
    missing = [name for name, _, key in expected if key not in found | _OPTIONAL_KEYS]
    if missing:
        raise InvalidInput(f"{source}:1: FIDE's header lacks column(s) {', '.join(missing)}.")
    labels = {key: word for (key, _), (word, _) in zip(columns, words, strict=True) if key}
    entries = _txt_entries(stream, columns, len(header), labels["birth_year"])
    return FideListReader("txt", pools, month, entries, source, labels)


def _txt_pools(words: list[tuple[str, int]], pool: Pool) -> tuple[tuple[Pool, ...], str]:
    """The pools of a TXT header, and the month of a single-pool one (the name before `Gms`)."""
    names = [word.lower() for word, _ in words]
    if "srtng" in names or "gms" not in names:
        return ALL_POOLS, ""
    return (pool,), words[names.index("gms") - 1][0]


def _txt_entries(
    stream: IO[bytes], columns: list[tuple[str | None, int]], width: int, birth: str
) -> Iterator[_Entry]:
    starts = [start for _, start in columns]
    ends = [*starts[1:], None]
    spans = [(key, start, end) for (key, start), end in zip(columns, ends, strict=True) if key]
    birth_start = next(start for key, start in columns if key == "birth_year")
    for number, raw in enumerate(stream, start=2):
        line = _decoded(raw).rstrip("\r\n")
        length = len(line.rstrip())
        if not length:
            continue
        if length <= birth_start:
            message = (
                f"the row stops at character {length}, before {birth} (character "
                f"{birth_start + 1}); FIDE's rows are {width} characters long."
            )
            yield number, message
        elif len(line) <= width:
            yield number, {key: line[start:end].strip() for key, start, end in spans}
        else:
            texts = _slices(line, starts, width)
            yield number, {key: text for (key, _), text in zip(columns, texts, strict=True) if key}


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


def _open_xml(stream: IO[bytes], head: bytes, source: str, pool: Pool) -> FideListReader:
    root = _FIRST_ELEMENT.search(head)
    if root is None or root[1] != b"playerslist":
        raise InvalidInput(
            f"{source} is not a FIDE XML rating list: its root element should be <playerslist>."
        )
    first_player = head.split(b"</player>", 1)[0]
    combined = b"<rapid_rating" in first_player or b"<blitz_rating" in first_player
    pools = ALL_POOLS if combined else (pool,)
    elements = _xml_elements(pools)
    labels = {key: element for element, key in elements}
    return FideListReader("xml", pools, "", _xml_entries(stream, dict(elements)), source, labels)


def _xml_entries(stream: IO[bytes], keys: dict[str, str]) -> Iterator[_Entry]:
    """Each <player>'s values, numbered from 1. A player is complete when the next one starts
    (or the list ends); players read are dropped from the tree, so memory stays flat. Only
    start events are asked for: half the events of start and end, for the same players."""
    parser: ElementTree.XMLPullParser[ElementTree.Element] = ElementTree.XMLPullParser(("start",))
    root: ElementTree.Element | None = None
    player: ElementTree.Element | None = None
    number = 0
    try:
        for text in _text_chunks(stream):
            parser.feed(text)
            for _, element in cast(_StartEvents, parser.read_events()):
                if root is None:
                    root = element
                elif element.tag == "player":
                    if player is not None:
                        number += 1
                        yield number, _xml_values(player, keys)
                    player = element
                    root.clear()
        parser.close()
    except ElementTree.ParseError as error:
        yield number + 1, f"the XML is broken ({error}); the rest of the file cannot be read."
        return
    if player is not None:
        yield number + 1, _xml_values(player, keys)


def _xml_values(player: ElementTree.Element, keys: dict[str, str]) -> dict[str, str]:
    return {keys[child.tag]: (child.text or "").strip() for child in player if child.tag in keys}


def _text_chunks(stream: IO[bytes]) -> Iterator[str]:
    """The stream as text, chunk by chunk: UTF-8, or Latin-1 from the first chunk that is not
    UTF-8 on (FIDE's lists have been both; the XML does not always declare which)."""
    utf8 = codecs.getincrementaldecoder("utf-8-sig")()
    latin1 = False
    while chunk := stream.read(_CHUNK_BYTES):
        if not latin1:
            try:
                yield utf8.decode(chunk)
                continue
            except UnicodeDecodeError:
                latin1 = True
                chunk = utf8.getstate()[0] + chunk
        yield chunk.decode("latin-1")
    if not latin1:
        yield utf8.getstate()[0].decode("latin-1")


def _row(
    entry: dict[str, str] | str, pools: tuple[Pool, ...], labels: dict[str, str], line: int
) -> FideListRow:
    """The row of one entry; raises InvalidInput naming the first field it cannot read."""
    if isinstance(entry, str):
        raise InvalidInput(entry)
    fide_id = _number(entry, "id", labels)
    if not entry.get("id"):
        raise InvalidInput(f"{labels['id']}: the player has no FIDE ID.")
    if not 1 <= fide_id <= LARGEST_ID:
        raise InvalidInput(f"{labels['id']}: {entry['id']!r} is not a FIDE ID.")
    name = " ".join(entry.get("name", "").split())
    if not name:
        raise InvalidInput(f"{labels['name']}: the player has no name.")
    flag = _FLAGS.get(entry.get("flag", "").lower())
    if flag is None:
        raise InvalidInput(f"{labels['flag']}: {entry['flag']!r} is not one of i, w or wi.")
    return FideListRow(
        fide_id=fide_id,
        name=name,
        federation=entry.get("federation") or None,
        sex=entry.get("sex", "").upper() or None,
        title=entry.get("title") or None,
        women_title=entry.get("women_title") or None,
        other_titles=entry.get("other_titles") or None,
        foa_title=entry.get("foa_title") or None,
        ratings={pool: _pool_rating(entry, pool, labels) for pool in pools},
        birth_year=_number(entry, "birth_year", labels) or None,
        flag=flag,
        line=line,
    )


def _pool_rating(entry: dict[str, str], pool: Pool, labels: dict[str, str]) -> PoolRating:
    rating, games, k = _POOL_KEYS[pool]
    return PoolRating(
        _number(entry, rating, labels) or None,
        _number(entry, games, labels),
        _number(entry, k, labels) or None,
    )


def _number(entry: dict[str, str], key: str, labels: dict[str, str]) -> int:
    """A whole number; 0 for a blank field."""
    text = entry.get(key, "")
    if text.isdigit() and text.isascii():
        return int(text)
    if text:
        raise InvalidInput(f"{labels[key]}: {text!r} is not a whole number.")
    return 0


# -- writing ------------------------------------------------------------------------------------


def _file_pools(pools: tuple[Pool, ...]) -> tuple[Pool, ...]:
    if set(pools) == set(ALL_POOLS):
        return ALL_POOLS
    if len(pools) == 1:
        return pools
    raise ValueError(f"a FIDE list carries one pool or all three, not {pools!r}")


def _txt_columns(pools: tuple[Pool, ...], month: str) -> list[tuple[str, int, str]]:
    """(column name, width, key) of FIDE's combined or single-pool TXT layout."""
    names = _TXT_POOL if len(pools) > 1 else {pools[0]: (month, "Gms", "K")}
    middle = [
        (name, width, f"{pool.value}_{part}")
        for pool in pools
        for name, (part, width) in zip(names[pool], _POOL_PARTS, strict=True)
    ]
    return [*_TXT_BEFORE, *middle, *_TXT_AFTER]


def _xml_elements(pools: tuple[Pool, ...]) -> list[tuple[str, str]]:
    """(element, key) of FIDE's combined or single-pool XML layout."""
    prefixes = _XML_PREFIX if len(pools) > 1 else {pools[0]: ""}
    middle = [
        (f"{prefixes[pool]}{part}", f"{pool.value}_{part}")
        for pool in pools
        for part, _ in _POOL_PARTS
    ]
    return [*_XML_BEFORE, *middle, *_XML_AFTER]


def _txt_lines(
    rows: Iterable[FideListRow], pools: tuple[Pool, ...], columns: list[tuple[str, int, str]]
) -> Iterator[str]:
    yield "".join(name.ljust(width) for name, width, _ in columns) + NEWLINE
    for row in rows:
        texts = _texts(row, pools)
        yield "".join(texts[key].ljust(width) for _, width, key in columns) + NEWLINE


def _xml_chunks(
    rows: Iterable[FideListRow], pools: tuple[Pool, ...], elements: list[tuple[str, str]]
) -> Iterator[str]:
    yield f"<playerslist>{NEWLINE}"
    for row in rows:
        texts = _texts(row, pools)
        fields = "".join(f"<{tag}>{escape(texts[key])}</{tag}>{NEWLINE}" for tag, key in elements)
        yield f"<player>{NEWLINE}{fields}</player>{NEWLINE}"
    yield f"</playerslist>{NEWLINE}"


def _texts(row: FideListRow, pools: tuple[Pool, ...]) -> dict[str, str]:
    """The row's values as FIDE writes them: unrated, no K and no birth year as 0."""
    texts = {
        "id": str(row.fide_id),
        "name": row.name,
        "federation": row.federation or "",
        "sex": row.sex or "",
        "title": row.title or "",
        "women_title": row.women_title or "",
        "other_titles": row.other_titles or "",
        "foa_title": row.foa_title or "",
        "birth_year": str(row.birth_year or 0),
        "flag": row.flag,
    }
    for pool in pools:
        rating = row.ratings.get(pool, _UNRATED)
        texts[f"{pool.value}_rating"] = str(rating.rating or 0)
        texts[f"{pool.value}_games"] = str(rating.games)
        texts[f"{pool.value}_k"] = str(rating.k or 0)
    return texts
