"""Text that reaches a terminal, a spreadsheet or an XML file as text: the control characters
the ledger refuses in what it records and escapes in what it prints, the cells a
spreadsheet would run as formulas, and a count of things in words."""

from __future__ import annotations

import re
from collections.abc import Iterable

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
"""C0 (with tab, newline and carriage return), DEL and C1: an escape sequence (`\\x1b[2J`,
an OSC title) starts with one, and XML 1.0 allows none of them but tab, CR and LF."""
_CONTROL_BUT_LINES = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_REORDERING = re.compile("[\u202a-\u202e\u2066-\u2069]")
"""The embeddings, overrides and isolates of Unicode's bidirectional algorithm (UAX #9):
each reorders the text shown after it (the "Trojan Source" attack, CVE-2021-42574), so a
name holding one can show as another. The marks (U+200E, U+200F), which reorder nothing,
are text."""
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula (OWASP, CSV injection)."""
_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")
_FORMULA_AFTER_COMMA = re.compile(f",[{re.escape(''.join(_FORMULA_START))}]")


QUOTED_AT_MOST = 40
"""A refusal quotes at most this many characters of what it refuses."""


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """`number` of `noun` in words: "1 game", "2 games" (`plural`: where it is not the
    noun and an s)."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def quoted(text: str) -> str:
    """`text` as a refusal quotes it: in quotes, cut after `QUOTED_AT_MOST` characters."""
    if len(text) <= QUOTED_AT_MOST:
        return repr(text)
    return f"{text[:QUOTED_AT_MOST]!r}... ({len(text):,} characters)"


def control_character(text: str, *, tab: bool = False) -> str | None:
    """The first control character of `text`, or None; `tab` allows tabs."""
    for match in _CONTROL.finditer(text):
        if not (tab and match[0] == "\t"):
            return match[0]
    return None


def reordering_character(text: str) -> str | None:
    """The first character of `text` that reorders the text shown around it, or None."""
    match = _REORDERING.search(text)
    return None if match is None else match[0]


def is_c1(character: str) -> bool:
    """A C1 control (U+0080 to U+009F): what Latin-1 makes of bytes that UTF-8 or
    Windows-1252 text holds, so a sign of a file read in the wrong encoding."""
    return "\x80" <= character <= "\x9f"


def escaped(text: str, *, lines: bool = False) -> str:
    """`text` with each control character written as its escape (`\\x1b`), so that a stored
    name prints as text and never drives the terminal; `lines` keeps newlines and tabs (of
    the ledger's own output around the text, which no stored name holds)."""
    if text.isprintable():
        return text  # the common case, checked much faster than by the pattern
    control = _CONTROL_BUT_LINES if lines else _CONTROL
    return control.sub(lambda match: f"\\x{ord(match[0]):02x}", text)


def spreadsheet_cell(text: str) -> str:
    """A CSV cell a spreadsheet shows as text: one that would start a formula gets a leading
    `'` (OWASP's advice); numbers such as `-5` or `+12` stay as they are."""
    if text.startswith(_FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def plain_cells(texts: Iterable[str]) -> bool:
    """True if no one of `texts` needs an escape (`escaped`) or a formula's guard
    (`spreadsheet_cell`), checked on them joined (a million names are no million calls).
    False where one might: a text holding `,` and then a formula's start reads as two, and
    the caller checks each text."""
    joined = "," + ",".join(texts)
    return joined.isprintable() and _FORMULA_AFTER_COMMA.search(joined) is None
