"""People's names for matching: one key per name, whatever the order, script, accents or case.

A federation's list writes "Carlsen, Magnus", a PGN file "Magnus Carlsen", a club sheet
"CARLSEN Magnus"; all three are one key. Names in other scripts are transliterated to
Latin letters (`anyascii`, ISC licence), so "Иванов, Иван" has the key of "Ivan Ivanov".
Pure: no I/O beyond the library's own tables.
"""

from __future__ import annotations

import re

from anyascii import anyascii

SPELLED_OUT = (("ae", "a"), ("oe", "o"), ("ue", "u"))
"""The German and Scandinavian ways of writing ä, ö and ü without the marks ("Mueller" for
"Müller"): searches treat each pair as its one letter (`search_form`)."""


def name_key(name: str) -> str:
    """A name's words, plain and sorted: "Müller, Jörg" and "Jorg Muller" share "jorg muller".

    Letters are transliterated to Latin ones without marks, case folds, and anything but
    letters and digits (commas, dots, hyphens, apostrophes) separates words.
    """
    return " ".join(sorted(_words(name)))


def sort_key(name: str) -> str:
    """A name as lists sort it: "Álvarez Peña, Lucía" among the A's, word order kept."""
    return " ".join(_words(name))


def name_words(query: str) -> list[str]:
    """The words of a search query, normalised as in `name_key`, in order, each once."""
    return list(dict.fromkeys(_words(query)))


def has_words(text: str) -> bool:
    """True if `text` has a letter or a digit in any script: a word `name_key` keeps. Zero-
    width spaces, fillers and punctuation alone have none."""
    return _ASCII_WORD.search(text) is not None or bool(_words(text))


def search_form(key: str) -> str:
    """A key or query word with the spelled-out umlauts made single letters, so that
    "mueller" and "Müller" meet ("muller"). Applied alike to both sides of a search; the
    same replacements in the same order as SQL's `replace` makes them."""
    for pair, letter in SPELLED_OUT:
        key = key.replace(pair, letter)
    return key


_WORD = re.compile(r"[^\W_]+")
"""A run of letters and digits (`str.isalnum`)."""
_ASCII_WORD = re.compile(r"[A-Za-z0-9]")
"""A letter or digit that every name in Latin letters has: found, the name has a word,
without transliterating it (a list's million names)."""


def _words(text: str) -> list[str]:
    return _WORD.findall(anyascii(text).casefold())
