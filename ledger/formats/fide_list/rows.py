"""The records of a FIDE rating list, and what FIDE's TXT and XML layouts share: a row as
values by key (`id`, `name`, ..., `standard_rating`, `standard_games`, `standard_k`, ...),
read into a `FideListRow` and written back, and the reader that streams a list's rows.

`txt` and `xml`, its neighbours, map those keys to columns and elements; the package
(`ledger.formats.fide_list`) opens a file of either kind.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import NamedTuple

from ledger.core.domain import Pool
from ledger.core.errors import InvalidInput
from ledger.core.fide_codes import title_code
from ledger.core.printable import escaped
from ledger.core.records import LARGEST_ID, problem, whole_number

ALL_POOLS = (Pool.STANDARD, Pool.RAPID, Pool.BLITZ)
"""The pools of the combined list, in FIDE's column order."""
NEWLINE = "\r\n"
"""FIDE ends every line of its TXT lists with CRLF; the XML is written the same way."""
HEAD_BYTES = 1 << 16
"""How much of a file is read to tell its format, and the longest TXT header read."""
POOL_PARTS = (("rating", 6), ("games", 4), ("k", 3))
"""The three values of each pool, with their TXT column widths."""

_FLAGS = {"": "", "i": "i", "w": "w", "wi": "wi", "iw": "wi"}
_POOL_KEYS = {pool: tuple(f"{pool.value}_{part}" for part, _ in POOL_PARTS) for pool in Pool}

Entry = tuple[int, dict[str, str] | str]
"""A row's line (or player number) and its values by key, or why it cannot be read."""


class PoolRating(NamedTuple):
    """A player's row in one pool: rating (None when unrated), games rated in the list's
    period, and K (None when the list gives none)."""

    rating: int | None
    games: int
    k: int | None


UNRATED = PoolRating(None, 0, None)
"""A pool in which the player is not rated."""


class FideListRow(NamedTuple):
    """One player of a FIDE list. `ratings` holds exactly the pools the file carries; `flag` is
    '', 'i', 'w' or 'wi'; `line` is the TXT line or the XML player's number, from 1. The
    records are named tuples, immutable as frozen dataclasses are and several times cheaper
    to make: a list makes one for each of its million rows, and one for each pool."""

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
        entries: Iterator[Entry],
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
        is skipped, and `problems` gets its `file:line: message`; a file that cannot be read
        to its end raises InvalidInput."""
        try:
            yield from self._rows()
        except InvalidInput as error:
            message = str(error)
            if not message.startswith(self._source):
                message = f"{self._source}: {message}"
            raise InvalidInput(message) from None

    def _rows(self) -> Iterator[FideListRow]:
        seen = _SeenIds()
        for line, entry in self._entries:
            try:
                row = entry_row(entry, self.pools, self._labels, line)
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


def file_pools(pools: tuple[Pool, ...]) -> tuple[Pool, ...]:
    if set(pools) == set(ALL_POOLS):
        return ALL_POOLS
    if len(pools) == 1:
        return pools
    raise ValueError(f"a FIDE list carries one pool or all three, not {pools!r}")


def entry_row(
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
        title=_title(entry, "title", labels),
        women_title=_title(entry, "women_title", labels),
        other_titles=entry.get("other_titles") or None,
        foa_title=entry.get("foa_title") or None,
        ratings={pool: _pool_rating(entry, pool, labels) for pool in pools},
        birth_year=_number(entry, "birth_year", labels) or None,
        flag=flag,
        line=line,
    )


def _title(entry: dict[str, str], key: str, labels: dict[str, str]) -> str | None:
    """A title column as FIDE's code (`ledger.core.fide_codes`: old lists write g, wg)."""
    text = entry.get(key, "").strip()
    try:
        return title_code(text) if text else None
    except InvalidInput as error:
        raise InvalidInput(f"{labels[key]}: {error}") from None


def _pool_rating(entry: dict[str, str], pool: Pool, labels: dict[str, str]) -> PoolRating:
    keys = _POOL_KEYS[pool]
    plain = _plain_pool_rating(*(entry.get(key, "") for key in keys))
    if plain is not None:
        return plain
    rating, games, k = (_number(entry, key, labels) for key in keys)
    return PoolRating(rating or None, games, k or None)


@functools.lru_cache(maxsize=1 << 16)
def _plain_pool_rating(rating: str, games: str, k: str) -> PoolRating | None:
    """A pool's values where each text is blank or a few digits (0 where blank), else None
    for `_number` to read or refuse by its column. Each is read once: a million rows hold
    some thousands of them."""
    if not all(map(_blank_or_digits, (rating, games, k))):
        return None
    return PoolRating(int(rating or 0) or None, int(games or 0), int(k or 0) or None)


def _blank_or_digits(text: str) -> bool:
    return not text or (text.isascii() and text.isdigit() and len(text) <= _PLAIN_DIGITS)


_PLAIN_DIGITS = 5
"""The most digits `_plain_pool_rating` reads itself (a rating has four): a longer text
goes to `_number`, which refuses a number too large for the ledger to store."""


def _number(entry: dict[str, str], key: str, labels: dict[str, str]) -> int:
    """A whole number; 0 for a blank field."""
    text = entry.get(key, "")
    if text.isdigit() and text.isascii():
        try:
            return whole_number(text)
        except InvalidInput as error:
            raise InvalidInput(f"{labels[key]}: {error}") from None
    if text:
        raise InvalidInput(f"{labels[key]}: {text!r} is not a whole number.")
    return 0


def row_texts(row: FideListRow, pools: tuple[Pool, ...]) -> dict[str, str]:
    """The row's values as FIDE writes them: unrated, no K and no birth year as 0; a control
    character stored before the ledger refused them is written as its escape, so the file
    holds none (XML allows none, and the ledger's own import refuses them). The texts are
    checked for one at once: a list's rows hold none."""
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
    if not "".join(texts.values()).isprintable():
        texts = {key: escaped(text) for key, text in texts.items()}
    for pool in pools:
        rating = row.ratings.get(pool, UNRATED)
        rating_key, games_key, k_key = _POOL_KEYS[pool]
        texts[rating_key] = str(rating.rating or 0)
        texts[games_key] = str(rating.games)
        texts[k_key] = str(rating.k or 0)
    return texts
