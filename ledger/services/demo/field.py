"""The demo's people and games: a federation's players drawn at random (seeded), events
paired as round robins and rough Swiss events, and results drawn from FIDE's expected
scores. Records only: the story (`ledger.services.demo`) records them through the services.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from ledger.core import rules
from ledger.core.domain import GameResult, Period
from ledger.core.records import NewGame, NewPlayer, new_game, new_player
from ledger.formats import trf

# fmt: off
_GIVEN = (
    "Anna", "Boris", "Carla", "Daniel", "Elena", "Farid", "Greta", "Hugo", "Irina", "Jonas",
    "Kateryna", "Liam", "Maria", "Nikolai", "Olga", "Pablo", "Quentin", "Rosa", "Stefan",
    "Tatiana", "Umar", "Vera", "Wei", "Ximena", "Yusuf", "Zofia", "Arjun", "Bianca", "Chen",
    "Dmitri", "Emil", "Freya", "Gukesh", "Hanna", "Ivan", "Julia", "Kamil", "Lucia", "Magnus",
    "Nodira",
)
_SURNAMES = (
    "Andersen", "Bauer", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Horvath", "Ivanova",
    "Jensen", "Kowalski", "Lopez", "Müller", "Novak", "Olsen", "Petrov", "Quispe", "Rossi",
    "Schmidt", "Tanaka", "Usmanov", "Virtanen", "Wagner", "Xu", "Yilmaz", "Zhang", "Abdullayev",
    "Berg", "Carvalho", "Dvořák", "Esposito", "Fernández", "Gupta", "Hansen", "Iyer", "Janssen",
    "Kumar", "Larsen", "Moreau", "Nakamura",
)
FEDERATIONS = (
    "NOR", "ENG", "FRA", "GER", "ESP", "ITA", "NED", "POL", "IND", "USA", "CZE", "HUN", "UZB",
    "CHN",
)
# fmt: on
FIRST_FIDE_ID = 1_503_000
"""The demo's players have FIDE IDs from here (a report names them by FIDE ID)."""
TITLED = 40
"""The roster's first players are titled."""
RATED = 270
"""The roster's players from here on are newcomers, without a rating."""

Pairing = tuple["Entrant", "Entrant"]


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player as the demo pairs them: the ledger ID, the rating a result is drawn from
    (1500 for the unrated) and what a tournament report names them by."""

    id: int
    rating: int | None
    player: NewPlayer


@dataclass(frozen=True, slots=True)
class Byes:
    """Who sits out a round of a Swiss: `unpaired` the odd one out (TRF's U), `half_points`
    those who asked for a half-point bye (H)."""

    unpaired: Entrant | None
    half_points: list[Entrant]


def roster(randomness: random.Random, period: Period, today: dt.date) -> list[NewPlayer]:
    """300 players: a few elite grandmasters, titled players, club players, juniors, and 30
    newcomers without a rating."""
    return [
        player(randomness, period, today, number, _starting_rating(randomness, number))
        for number in range(300)
    ]


def rapid_club(randomness: random.Random, period: Period, today: dt.date) -> list[NewPlayer]:
    """40 players rated in rapid alone, from 1500 to 2300."""
    return [
        player(randomness, period, today, number, randomness.randint(1500, 2300))
        for number in range(300, 340)
    ]


def player(
    randomness: random.Random, period: Period, today: dt.date, number: int, rating: int | None
) -> NewPlayer:
    """Player `number`, of a random name, federation, sex and age (the first 40 titled)."""
    titled = number < TITLED
    junior = not titled and randomness.random() < 0.3
    age = randomness.randint(10, 18) if junior else randomness.randint(19, 70)
    return new_player(
        name=f"{randomness.choice(_SURNAMES)}, {randomness.choice(_GIVEN)}",
        fide_id=FIRST_FIDE_ID + number,
        federation=randomness.choice(FEDERATIONS),
        sex="F" if randomness.random() < 0.2 else "M",
        title=_title(rating),
        birth_year=period.year - age,
        rating=rating,
        games=None if rating is None else _games_completed(randomness, titled=titled),
        peak=None if rating is None else rating + randomness.choice((0, 0, 15, 60)),
        today=today,
    )


def _starting_rating(randomness: random.Random, number: int) -> int | None:
    if number < 8:
        return randomness.randint(2650, 2830)
    if number < TITLED:
        return randomness.randint(2300, 2640)
    if number < RATED:
        return max(1400, min(2290, round(randomness.gauss(1850, 230))))
    return None


def _games_completed(randomness: random.Random, *, titled: bool) -> int:
    if titled:
        return randomness.randint(300, 1500)
    return randomness.choice((0, 8, 15, 25, 40, 120, 400))


def _title(rating: int | None) -> str | None:
    for floor, title in ((2500, "GM"), (2400, "IM"), (2300, "FM")):
        if rating is not None and rating >= floor:
            return title
    return None


def round_robin(field: list[Entrant]) -> list[list[Pairing]]:
    """The circle method: every player meets every other once, colours alternating."""
    players = list(field)
    rounds = []
    for number in range(len(players) - 1):
        pairs = [(players[i], players[-1 - i]) for i in range(len(players) // 2)]
        rounds.append([(b, a) if number % 2 else (a, b) for a, b in pairs])
        players.insert(1, players.pop())
    return rounds


def swiss_round(
    randomness: random.Random, field: list[Entrant], resting: list[Entrant]
) -> tuple[list[Pairing], Byes]:
    """A rough Swiss round: neighbours paired in a shuffled rating order, those `resting`
    left out, and the odd one out, if any, unpaired."""
    order = sorted(
        (entrant for entrant in field if entrant not in resting),
        key=lambda e: (e.rating or 1500) + randomness.randint(-150, 150),
    )
    unpaired = order.pop() if len(order) % 2 else None
    pairs = [
        (a, b) if randomness.random() < 0.5 else (b, a)
        for a, b in zip(order[0::2], order[1::2], strict=True)
    ]
    return pairs, Byes(unpaired, resting)


def swiss(randomness: random.Random, field: list[Entrant], rounds: int) -> list[list[Pairing]]:
    """A rough Swiss without byes (an even field)."""
    return [swiss_round(randomness, field, [])[0] for _ in range(rounds)]


def result(randomness: random.Random, white: Entrant, black: Entrant) -> GameResult:
    """A result drawn from White's expected score, with 30% draws and 1% forfeits."""
    if randomness.random() < 0.01:
        return GameResult.WHITE_WINS_BY_FORFEIT
    expected = rules.expected_score((white.rating or 1500) - (black.rating or 1500)) / 100
    draw = 0.3
    roll = randomness.random()
    if roll < expected - draw / 2:
        return GameResult.WHITE_WINS
    if roll < expected + draw / 2:
        return GameResult.DRAW
    return GameResult.BLACK_WINS


@dataclass(frozen=True, slots=True)
class Event:
    """An event to play: its name, first day, field and rounds (None: a round robin)."""

    name: str
    first_day: dt.date
    field: list[Entrant]
    rounds: int | None


def games(randomness: random.Random, event: Event, today: dt.date) -> list[NewGame]:
    """The event's games, two rounds a day."""
    if event.rounds is None:
        pairings = round_robin(event.field)
    else:
        pairings = swiss(randomness, event.field, event.rounds)
    return [
        new_game(
            date=round_day(event, number),
            white=white.id,
            black=black.id,
            result=result(randomness, white, black),
            event=event.name,
            round=number,
            today=today,
        )
        for number, pairs in enumerate(pairings, start=1)
        for white, black in pairs
    ]


def round_day(event: Event, number: int) -> dt.date:
    return event.first_day + dt.timedelta(days=(number - 1) // 2)


def tournament_report(
    randomness: random.Random, event: Event, half_point_byes: dict[int, int]
) -> trf.TournamentReport:
    """A Swiss event as its arbiter reports it in TRF: the odd one out unpaired each round
    (U), and in round r, `half_point_byes[r]` players resting on a half-point bye (H)."""
    assert event.rounds is not None
    ranks = {entrant.id: rank for rank, entrant in enumerate(event.field, start=1)}
    played, rested = [], []
    for number in range(1, event.rounds + 1):
        resting = randomness.sample(event.field, half_point_byes.get(number, 0))
        pairs, byes = swiss_round(randomness, event.field, resting)
        day = round_day(event, number)
        played += [
            _reported_game(
                number, ranks[white.id], ranks[black.id], result(randomness, white, black), day
            )
            for white, black in pairs
        ]
        rested += [
            trf.TrfBye(number, ranks[each.id], "H", day, ranks[each.id])
            for each in byes.half_points
        ]
        if byes.unpaired is not None:
            rested.append(
                trf.TrfBye(number, ranks[byes.unpaired.id], "U", day, ranks[byes.unpaired.id])
            )
    days = tuple(round_day(event, number) for number in range(1, event.rounds + 1))
    return trf.TournamentReport(
        trf.TrfEvent(event.name, "Bergen", "NOR", days[0], days[-1], days),
        [
            _reported_player(rank, entrant.player)
            for rank, entrant in enumerate(event.field, start=1)
        ],
        played,
        rested,
    )


def _reported_game(
    number: int, white: int, black: int, outcome: GameResult, day: dt.date
) -> trf.TrfGame:
    return trf.TrfGame(number, white, black, outcome, outcome.is_played, day, (white, black))


def _reported_player(rank: int, player: NewPlayer) -> trf.TrfPlayer:
    return trf.TrfPlayer(
        rank=rank,
        sex=player.sex,
        title=player.title,
        name=player.name,
        rating=player.starting.rating if player.starting else None,
        federation=player.federation,
        fide_id=player.fide_id,
        birth_year=player.birth_year,
        line=rank,
    )
