"""Matching people by name (ledger.core.names): one key per name, prefix search by words."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.core.names import name_key, name_words

from builders import run

SAME = {
    "surname first, with a comma": ("Carlsen, Magnus", "Magnus Carlsen"),
    "surname first in capitals": ("CARLSEN Magnus", "Magnus Carlsen"),
    "case": ("magnus CARLSEN", "Magnus Carlsen"),
    "extra spaces": ("  Magnus   Carlsen ", "Magnus Carlsen"),
    "umlauts": ("Müller, Jörg", "Jorg Muller"),
    "acute, tilde and caron": ("Ibáñez, Nuño Šarić", "Ibanez Nuno Saric"),
    "cedilla and ring": ("François Ångström", "Francois Angstrom"),
    "ø": ("Øystein Hammer", "Oystein Hammer"),
    "ł": ("Łukasz Wróbel", "Lukasz Wrobel"),
    "ß": ("Jörg Großmann", "Jorg Grossmann"),
    "ẞ, the capital ß": ("GROẞMANN", "grossmann"),
    "æ": ("Ærø Læsø", "Aero Laeso"),
    "œ": ("Lœwe", "Loewe"),
    "đ": ("Đukić, Nikola", "Nikola Dukic"),
    "ı, the dotless i": ("Işık, Ali", "Ali Isik"),
    "İ, the dotted capital I": ("İlkin", "Ilkin"),
    "þ": ("Þórhallsson", "Thorhallsson"),
    "ð": ("Guðmundur", "Gudmundur"),
    "hyphenated name": ("Jean-Pierre Dupont", "Dupont, Jean Pierre"),
    "apostrophe": ("O'Brien, Seán", "Sean O Brien"),
    "typographic apostrophe": ("N’Diaye", "N'Diaye"),
    "dots of initials": ("Dupont, J.-P.", "J P Dupont"),
    "the same initials in any order": ("Carlsen, M.", "M. Carlsen"),
}


@pytest.mark.parametrize(("one", "other"), list(SAME.values()), ids=list(SAME))
def test_one_key(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


DIFFERENT = {
    "a short form is another name": ("Nepomniachtchi, Ian", "Ian Nepo"),
    "an initial is not the first name": ("Carlsen, M.", "Magnus Carlsen"),
    "a hyphen separates words": ("Jean-Pierre", "Jeanpierre"),
    "a middle name counts": ("Wesley So", "Wesley Barbasa So"),
    "a repeated word counts": ("Ana Ana Novak", "Ana Novak"),
}


@pytest.mark.parametrize(("one", "other"), list(DIFFERENT.values()), ids=list(DIFFERENT))
def test_different_keys(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


KEYS = {
    "words sorted": ("Magnus Carlsen", "carlsen magnus"),
    "punctuation gone": ("O'Brien, Seán", "brien o sean"),
    "digits kept": ("Player 12", "12 player"),
    "nothing but punctuation": (" ,.-' ", ""),
}


@pytest.mark.parametrize(("name", "key"), list(KEYS.values()), ids=list(KEYS))
def test_name_key(name: str, key: str) -> None:
    assert name_key(name) == key


WORDS = {
    "in the query's order": ("Magnus Carlsen", ["magnus", "carlsen"]),
    "each word once": ("carl Carl m", ["carl", "m"]),
    "accents and punctuation as in keys": ("Müller, J.-", ["muller", "j"]),
    "an empty query": ("  ", []),
}


@pytest.mark.parametrize(("query", "words"), list(WORDS.values()), ids=list(WORDS))
def test_name_words(query: str, words: list[str]) -> None:
    assert name_words(query) == words


# -- properties -------------------------------------------------------------------------------

names = st.text(max_size=40)
word_lists = st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=5)


@given(names)
def test_a_key_is_its_own_key(name: str) -> None:
    assert name_key(name_key(name)) == name_key(name)


@given(st.data())
def test_the_order_of_words_does_not_matter(data: st.DataObject) -> None:
    words = data.draw(word_lists)
    shuffled = data.draw(st.permutations(words))
    assert name_key(" ".join(shuffled)) == name_key(" ".join(words))


@given(names)
def test_the_words_of_a_key_are_the_words_of_the_name(name: str) -> None:
    assert sorted(set(name_key(name).split())) == sorted(name_words(name))


def test_a_name_that_looks_like_markup_is_printed_as_it_is(database_url: str) -> None:
    """Rich reads `[bold]` as a style and `:smile:` as an emoji in text it is given; the
    command line prints a stored name as text, whatever it holds."""
    name = "[bold red]Evil[/] :smile: [link=https://example.org]x[/link]"
    added = run("add-player", "--name", name, db=database_url)
    assert added.exit_code == 0, added.stderr
    player = added.stdout.strip()
    assert run("player", player, db=database_url).stdout.startswith(f"{name} (ID {player})")
