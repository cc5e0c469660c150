"""FIDE's XML lists <-> rows, the twins of its TXT lists: a <playerslist> of <player>
elements, with no declaration and one unindented element per line when written. Reading
streams the file (the combined XML is about 900 MB), one player at a time.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Iterator
from typing import IO, cast
from xml.etree import ElementTree
from xml.sax.saxutils import escape

from ledger.core.domain import Pool
from ledger.core.errors import InvalidInput
from ledger.formats.fide_list.rows import (
    ALL_POOLS,
    NEWLINE,
    POOL_PARTS,
    Entry,
    FideListReader,
    FideListRow,
    file_pools,
    row_texts,
)

_CHUNK_BYTES = 1 << 16
_LONGEST_TEXT = 1 << 20
"""The most characters between two `<` of a list: a FIDE player's element is under a
hundred, and a longer run would be held whole in memory by the parser."""
_FIRST_ELEMENT = re.compile(rb"<([A-Za-z_][^\s/>]*)")

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


def write_fide_xml(rows: Iterable[FideListRow], pools: tuple[Pool, ...]) -> Iterator[str]:
    """FIDE's XML layout, one player per chunk: combined element names for all three pools,
    `rating`, `games` and `k` for a single pool."""
    pools = file_pools(pools)
    return _xml_chunks(rows, pools, _xml_elements(pools))


def open_xml(stream: IO[bytes], head: bytes, source: str, pool: Pool) -> FideListReader:
    """A reader of an XML list whose first bytes are `head`: combined when its first player
    has rapid or blitz elements, else `pool`'s. Raises InvalidInput when the root element is
    not FIDE's."""
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


def _xml_entries(stream: IO[bytes], keys: dict[str, str]) -> Iterator[Entry]:
    """Each <player>'s values, numbered from 1. A player is complete when the next one starts
    (or the list ends); players read are dropped from the tree, so memory stays flat. Only
    start events are asked for: half the events of start and end, for the same players."""
    parser: ElementTree.XMLPullParser[ElementTree.Element] = ElementTree.XMLPullParser(("start",))
    root: ElementTree.Element | None = None
    player: ElementTree.Element | None = None
    number = 0
    try:
        for text in _bounded(_text_chunks(stream)):
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
        raise InvalidInput(
            f"the XML is broken after player {number} ({error}); a list that cannot be read "
            "to its end is not imported."
        ) from None
    if player is not None:
        yield number + 1, _xml_values(player, keys)


def _bounded(chunks: Iterator[str]) -> Iterator[str]:
    """The chunks, refused where more than `_LONGEST_TEXT` characters pass without a `<`."""
    gap = 0
    for text in chunks:
        first = text.find("<")
        if gap + (len(text) if first < 0 else first) > _LONGEST_TEXT:
            raise InvalidInput(
                f"the XML runs more than {_LONGEST_TEXT} characters without a tag; a FIDE "
                "list's elements are short, so a list that long is not imported."
            )
        gap = gap + len(text) if first < 0 else len(text) - text.rfind("<") - 1
        yield text


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


def _xml_elements(pools: tuple[Pool, ...]) -> list[tuple[str, str]]:
    """(element, key) of FIDE's combined or single-pool XML layout."""
    prefixes = _XML_PREFIX if len(pools) > 1 else {pools[0]: ""}
    middle = [
        (f"{prefixes[pool]}{part}", f"{pool.value}_{part}")
        for pool in pools
        for part, _ in POOL_PARTS
    ]
    return [*_XML_BEFORE, *middle, *_XML_AFTER]


def _xml_chunks(
    rows: Iterable[FideListRow], pools: tuple[Pool, ...], elements: list[tuple[str, str]]
) -> Iterator[str]:
    yield f"<playerslist>{NEWLINE}"
    for row in rows:
        texts = row_texts(row, pools)
        fields = "".join(f"<{tag}>{escape(texts[key])}</{tag}>{NEWLINE}" for tag, key in elements)
        yield f"<player>{NEWLINE}{fields}</player>{NEWLINE}"
    yield f"</playerslist>{NEWLINE}"
