"""The text of a file as federations, arbiters, pairing programs and spreadsheets send it."""

from __future__ import annotations

import codecs

from ledger.core.errors import InvalidInput

LONGEST_LINE = 1 << 20
"""The longest line (in bytes) of a file the ledger reads whole; no CSV, TRF or PGN line of
a real file comes near it."""
_WINDOWS_1252 = str.maketrans(
    {chr(byte): bytes([byte]).decode("cp1252", "ignore") or chr(byte) for byte in range(256)}
)
"""Latin-1 text as Windows-1252 (what Excel saves as CSV in western Europe) reads it: the
bytes 0x80-0x9f are its letters and signs (€, Š, „), and the five it leaves unused stay
Latin-1's control characters, which no name may hold."""


def file_text(content: bytes, file_name: str) -> str:
    """The text of an import file read whole (`decode`). Raises InvalidInput for a file that
    is not text (UTF-16, binary) or has a line longer than `LONGEST_LINE`."""
    _refuse_not_text(content, file_name)
    return decode(content)


def decode(content: bytes) -> str:
    """UTF-8 (a byte-order mark dropped) when the whole file decodes, else line by line: a
    line that is UTF-8 is read so, any other as Windows-1252 (Latin-1 where it is not), as
    older files and spreadsheets write them, so a file mixing the two keeps its UTF-8 names.
    """
    content = content.removeprefix(codecs.BOM_UTF8)
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        return "".join(_decoded_line(line) for line in content.splitlines(keepends=True))


def _decoded_line(line: bytes) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return line.decode("latin-1").translate(_WINDOWS_1252)


def _refuse_not_text(content: bytes, file_name: str) -> None:
    if content.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or b"\x00" in content:
        raise InvalidInput(
            f"{file_name}: the encoding is wrong: the file holds NUL bytes, as UTF-16 text "
            "(Excel's 'Unicode text') or a binary file does; save it as UTF-8 (or "
            "Windows-1252) text."
        )
    for number, line in enumerate(content.splitlines(), start=1):
        if len(line) > LONGEST_LINE:
            raise InvalidInput(
                f"{file_name}:{number}: the line is longer than {LONGEST_LINE} bytes; "
                "the file is not one the ledger reads."
            )
