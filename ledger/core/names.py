"""People's names for matching: one key per name, whatever the order, accents or case.

A federation's list writes "Carlsen, Magnus", a PGN file "Magnus Carlsen", a club sheet
"CARLSEN Magnus"; all three are one key. Pure: standard library only.
"""

from __future__ import annotations

import unicodedata

_LETTERS = str.maketrans(
    {"ø": "o", "ł": "l", "æ": "ae", "œ": "oe", "đ": "d", "ð": "d", "ı": "i", "þ": "th"}
)
"""Lower-case letters that NFKD does not split into a base letter and a mark (case folding
has already turned ß into ss, and capitals into these)."""


def name_key(name: str) -> str:
    """A name's words, plain and sorted: "Müller, Jörg" and "Jorg Muller" share "jorg muller".

    Accents go, case folds, and anything but letters and digits (commas, dots, hyphens,
    apostrophes) separates words.
    """
    return " ".join(sorted(_words(name)))


def sort_key(name: str) -> str:
    """A name as lists sort it: "Álvarez Peña, Lucía" among the A's, word order kept."""
    return " ".join(_words(name))


def name_words(query: str) -> list[str]:
    """The words of a search query, normalised as in `name_key`, in order, each once."""
    return list(dict.fromkeys(_words(query)))


def _words(text: str) -> list[str]:
    folded = unicodedata.normalize("NFKD", text).casefold()
    plain = "".join(
        char if char.isalnum() else " "
        for char in folded.translate(_LETTERS)
        if not unicodedata.combining(char)
    )
    return plain.split()
