"""Finding players by name or number, and spotting two records that may be one person.

The read side of player identity: queries take a session and never commit. Names match by
their keys (`ledger.core.names`), so accents, case, word order and script do not matter
("ivanov" finds "Иванов, Иван"), nor do umlauts written out ("mueller" finds "Müller").
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, and_, case, func, or_, select
from sqlalchemy.orm import Session, aliased

from ledger.core import names
from ledger.core.domain import Pool
from ledger.core.errors import InvalidInput, NotFound
from ledger.core.records import LARGEST_ID, MOST_DIGITS
from ledger.storage.batches import BATCH_SIZE, AnyRow, AnySelect, select_in
from ledger.storage.database import LIKE_ESCAPE, holds_fewer_than, like_escaped
from ledger.storage.models import Player, PlayerRating

FIND_LIMIT = 50


@dataclass(frozen=True, slots=True)
class FoundPlayer:
    """A player a search found; `rating` is their current rating in the pool searched (None
    if unrated there)."""

    id: int
    fide_id: int | None
    name: str
    federation: str | None
    birth_year: int | None
    rating: int | None


def find_players(
    session: Session, text: str, pool: Pool, limit: int = FIND_LIMIT
) -> list[FoundPlayer]:
    """The players whose name has a word starting with each word of `text`, in any order
    ("carl mag" finds "Carlsen, Magnus", "mueller" finds "Müller"); a number also finds that
    ledger or FIDE ID.

    Exact matches (the whole name, or the ID) come first, then by name and ID.
    """
    words = names.name_words(text)
    if not words:
        raise InvalidInput(
            "the search has no name in it; give part of a name, a ledger ID or a FIDE ID."
        )
    wanted: ColumnElement[bool] = and_(*(_has_word_starting(word) for word in words))
    exact: ColumnElement[bool] = Player.name_key == names.name_key(text)
    number = _number(text)
    if number is not None:
        by_number = or_(Player.id == number, Player.fide_id == number)
        wanted, exact = or_(wanted, by_number), or_(exact, by_number)
    statement = (
        select(
            Player.id,
            Player.fide_id,
            Player.name,
            Player.federation,
            Player.birth_year,
            PlayerRating.rating,
        )
        .outerjoin(
            PlayerRating, (PlayerRating.player_id == Player.id) & (PlayerRating.pool == pool)
        )
        .where(wanted)
        .order_by(case((exact, 0), else_=1), Player.name, Player.id)
        .limit(limit)
    )
    return [FoundPlayer(*row) for row in session.execute(statement)]


def _has_word_starting(word: str) -> ColumnElement[bool]:
    """SQL for "a word of the name key starts with `word`" (a key is words joined by
    single spaces), both in their search form (`ledger.core.names.search_form`)."""
    escaped = like_escaped(names.search_form(word))
    key = _search_form(Player.name_key)
    return or_(
        key.like(f"{escaped}%", escape=LIKE_ESCAPE),
        key.like(f"% {escaped}%", escape=LIKE_ESCAPE),
    )


def _search_form(key: Any) -> Any:
    """SQL for `ledger.core.names.search_form`: the same replacements in the same order."""
    for pair, letter in names.SPELLED_OUT:
        key = func.replace(key, pair, letter)
    return key


def one_player(session: Session, text: str) -> int:
    """The ledger ID of the one player `text` names: a ledger ID, else a FIDE ID, else a
    name (`find_players`) that matches one player, or exactly one by its whole name.
    Refused when none matches, or several do (naming the first few to choose from)."""
    number = _number(text)
    if number is not None:
        for column in (Player.id, Player.fide_id):
            player_id = session.scalar(select(Player.id).where(column == number))
            if player_id is not None:
                return player_id
        raise NotFound(f"no player has the ledger or FIDE ID {number}.")
    found = find_players(session, text, Pool.STANDARD, CHOICES + 1)
    whole = [each for each in found if names.name_key(each.name) == names.name_key(text)]
    if len(found) == 1 or len(whole) == 1:
        return (whole or found)[0].id
    if not found:
        raise NotFound(f"no player matches {text!r}; `ledger find` searches by part of a name.")
    shown = ", ".join(f"{each.name} ({each.id})" for each in found[:CHOICES])
    more = " and more" if len(found) > CHOICES else ""
    raise InvalidInput(f"{text!r} matches several players: {shown}{more}; give the ID.")


CHOICES = 5
"""How many players a refusal of a name matching several names shows."""


def _number(text: str) -> int | None:
    """The ID a query of digits names, or None (also for numbers no ID can be)."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits) > MOST_DIGITS:
        return None
    number = int(digits)
    return number if number <= LARGEST_ID else None


def likely_duplicates(session: Session, player_ids: Collection[int]) -> list[str]:
    """One line for each other player with the same name key and birth year as one of
    `player_ids`, suggesting the merge that keeps the other record.

    A pair within `player_ids` is named once, keeping the lower ID. Players with two
    different FIDE IDs are two people and never named. Only the IDs the rows name are
    gathered in a set, not all of `player_ids` (a million-player list's would take 60 MB).
    """
    rows = list(_same_person_rows(session, player_ids))
    given = {row.id for row in rows}.intersection(player_ids)
    pairs = [
        row
        for row in rows
        if row.id in given and (row.other_id not in given or row.other_id < row.id)
    ]
    pairs.sort(key=lambda row: (row.id, row.other_id))
    return [_duplicate_line(row) for row in pairs]


def _same_person_rows(session: Session, given: Collection[int]) -> Iterable[AnyRow]:
    """`_same_person_statement`'s rows for the players `given` (each with the other player
    of the pair, so a pair within `given` comes both ways): read for the whole ledger where
    they are most of it (an import into a new ledger), one join instead of one for each
    batch of IDs."""
    statement = _same_person_statement()
    if len(given) >= BATCH_SIZE and _most_of_the_players(session, len(given)):
        return session.execute(statement)
    return select_in(session, statement, Player.id, given)


def _most_of_the_players(session: Session, count: int) -> bool:
    """Whether `count` players are more than half of the ledger's: counted up to twice
    `count`, never the whole of a large table."""
    return holds_fewer_than(session, Player.__tablename__, 2 * count)


def _same_person_statement() -> AnySelect:
    """Each player with the other players who share their name key and birth year."""
    other = aliased(Player)
    return select(
        Player.id,
        Player.name,
        Player.birth_year,
        other.id.label("other_id"),
        other.name.label("other_name"),
    ).join(
        other,
        (other.name_key == Player.name_key)
        & (other.birth_year == Player.birth_year)
        & (other.id != Player.id)
        & (Player.fide_id.is_(None) | other.fide_id.is_(None)),
    )


def _duplicate_line(row: AnyRow) -> str:
    return (
        f'player {row.id} "{row.name}" (born {row.birth_year}) may be the same person as '
        f'{row.other_id} "{row.other_name}"; merge them with '
        f"`ledger merge-players {row.other_id} {row.id}` if so."
    )
