"""FIDE rating list files <-> records: the combined TXT (`players_list_foa.txt`), the
single-pool TXT lists (`standard_rating_list.txt`, ...), their XML twins, each possibly zipped.

Pure text in, records out, and back in FIDE's layouts byte for byte. Files are streamed (the
combined XML is about 900 MB): rows are read one at a time and never held, and a row that
cannot be read is skipped and described as `file:line: message` in the reader's `problems`.

This package is the public face and tells a file's format by its content (zip, XML or TXT);
`rows` holds the records and the reader, `txt` and `xml` FIDE's two layouts.
"""

from __future__ import annotations

import codecs
import io
import lzma
import re
import zipfile
import zlib
from collections.abc import Callable
from pathlib import PurePath
from typing import IO, Any, TypeVar

from ledger.core.domain import Period, Pool
from ledger.core.errors import InvalidInput
from ledger.formats.fide_list.rows import (
    ALL_POOLS,
    HEAD_BYTES,
    NEWLINE,
    UNRATED,
    FideListReader,
    FideListRow,
    PoolRating,
)
from ledger.formats.fide_list.txt import open_txt, write_fide_txt
from ledger.formats.fide_list.xml import open_xml, write_fide_xml

__all__ = [
    "ALL_POOLS",
    "NEWLINE",
    "UNRATED",
    "FideListReader",
    "FideListRow",
    "PoolRating",
    "list_month",
    "month_period",
    "named_pool",
    "open_fide_list",
    "single_pool",
    "write_fide_txt",
    "write_fide_xml",
]

T = TypeVar("T")

_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
LARGEST_MEMBER = 1 << 31
"""The most bytes a zipped list may unpack to: 2 GB, over twice FIDE's combined XML.
Reading stops at a member's declared size, so a zip bomb is refused by its directory."""
_NAMED_POOL = re.compile(r"(standard|rapid|blitz)_")
_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")


def list_month(period: Period) -> str:
    """FIDE's name for the list published by closing `period`, from the month it takes
    effect: NOV26 for the list of 2026-10."""
    effective = period + 1
    return f"{_MONTHS[effective.month - 1]}{effective.year % 100:02d}"


def month_period(month: str) -> Period:
    """The period whose list FIDE names `month` (NOV26: 2026-10); years 2000 to 2099."""
    name, year = month[:3].upper(), month[3:]
    if name not in _MONTHS or len(year) != 2 or not year.isdigit():
        raise InvalidInput(f"{month!r} is not a FIDE list month such as NOV26.")
    return Period(2000 + int(year), _MONTHS.index(name) + 1) - 1


def named_pool(file_name: str) -> Pool | None:
    """The pool FIDE's name for a single-pool list file gives (`blitz_rating_list.txt`,
    `rapid_oct26frl.zip`), ignoring case and folders; None where the name gives none."""
    match = _NAMED_POOL.match(PurePath(file_name).name.lower())
    return Pool(match[1]) if match else None


def single_pool(file_name: str, given: Pool | None) -> Pool:
    """The pool of a single-pool list file: the one given, which must be the one FIDE's
    name for the file gives (`named_pool`); else the name's; else standard. Raises
    InvalidInput where the two disagree."""
    named = named_pool(file_name)
    if given is not None and named is not None and given is not named:
        raise InvalidInput(
            f"{file_name} is FIDE's {named} list by its name, but it was given as the {given} "
            f"list; import it with --pool {named}, or rename a file that holds the {given} list."
        )
    return given or named or Pool.STANDARD


def open_fide_list(file: IO[bytes], file_name: str, pool: Pool | None = None) -> FideListReader:
    """A reader of a FIDE list: a zip (its first .txt or .xml member), XML or TXT, by content.

    `file` must be seekable; reading starts where it stands. A single-pool list's header
    does not say its pool: `pool` names it, else the file's name does (`single_pool`).
    Raises InvalidInput when the file is not a FIDE list at all.
    """
    head = _head(file)
    if head.startswith(_ZIP_MAGIC):
        return _open_zip(file, file_name, single_pool(file_name, pool))
    return _open_stream(file, head, file_name, single_pool(file_name, pool))


def _head(file: IO[bytes]) -> bytes:
    """The first bytes of the file, which tell its format; the file is left where it was."""
    start = file.tell()
    head = file.read(HEAD_BYTES)
    file.seek(start)
    return head


_ZIP_DAMAGE = (
    zipfile.BadZipFile,
    zlib.error,
    lzma.LZMAError,
    EOFError,
    OSError,
    NotImplementedError,
    RuntimeError,
    ValueError,
)
"""What a damaged zip raises: a bad header, CRC or offset, a deflate stream that breaks off,
an unsupported compression method, encryption (RuntimeError: a password is needed)."""


def _open_zip(file: IO[bytes], file_name: str, pool: Pool) -> FideListReader:
    try:
        archive = zipfile.ZipFile(file)
        member = next((info for info in archive.infolist() if _is_list(info)), None)
        if member is None:
            raise InvalidInput(f"{file_name} holds no .txt or .xml file, so no FIDE list.")
        source = f"{file_name}/{member.filename}"
        if member.file_size > LARGEST_MEMBER:
            raise InvalidInput(
                f"{source} unpacks to {member.file_size} bytes, more than any FIDE list "
                f"({LARGEST_MEMBER >> 30} GB); it is not imported."
            )
        member_stream = _ZipMember(archive.open(member), source)
        stream: IO[bytes] = io.BufferedReader(member_stream, buffer_size=HEAD_BYTES)
    except _ZIP_DAMAGE as error:
        raise InvalidInput(f"{file_name} is not a readable zip file ({error}).") from None
    return _open_stream(stream, _head(stream), source, pool)


class _ZipMember(io.RawIOBase):
    """A zip member as a stream whose damage, found as it is read, is an InvalidInput."""

    def __init__(self, member: IO[bytes], source: str) -> None:
        super().__init__()
        self._member = member
        self._source = source

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._guarded(lambda: self._member.read(len(buffer)))
        buffer[: len(data)] = data
        return len(data)

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        return self._guarded(lambda: self._member.seek(offset, whence))

    def tell(self) -> int:
        return self._member.tell()

    def close(self) -> None:
        self._member.close()
        super().close()

    def _guarded(self, read: Callable[[], T]) -> T:
        try:
            return read()
        except _ZIP_DAMAGE as error:
            raise InvalidInput(f"{self._source}: the zip file is damaged ({error}).") from None


def _is_list(member: zipfile.ZipInfo) -> bool:
    name = member.filename.lower()
    return name.endswith((".txt", ".xml")) and not name.startswith("__macosx/")


def _open_stream(stream: IO[bytes], head: bytes, source: str, pool: Pool) -> FideListReader:
    start = head.removeprefix(codecs.BOM_UTF8).lstrip()
    if not start:
        raise InvalidInput(f"{source} is empty; expected a FIDE rating list.")
    if start.startswith(b"<"):
        return open_xml(stream, head, source, pool)
    return open_txt(stream, source, pool)
