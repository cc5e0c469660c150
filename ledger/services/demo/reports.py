"""The demo's site: a demo officer's and a demo organiser's accounts, with passwords that
the demo prints (for the demo alone), and the organiser's tournament report of a club
evening in the open month, checked, its warnings acknowledged and submitted: it waits in
the officer's queue, so the workflow can be tried at once in a browser. Its new player,
whom the officer may match or create, is new to the ledger."""

from __future__ import annotations

import datetime as dt
import io
import random
from dataclasses import dataclass

from sqlalchemy.orm import Session

from ledger.core.access import Role
from ledger.core.domain import Pool
from ledger.core.records import new_player
from ledger.core.reports import Tier
from ledger.formats import trf
from ledger.queries.tournament_reports import COMMAND_LINE, report_detail
from ledger.services.accounts import add_account
from ledger.services.activity import Author
from ledger.services.demo import field
from ledger.services.demo.field import Entrant, Event
from ledger.services.tournament_reports import acknowledge, submit, upload


@dataclass(frozen=True, slots=True)
class DemoAccount:
    email: str
    name: str
    role: Role
    password: str


DEMO_OFFICER = DemoAccount(
    "officer@demo.example", "Demo rating officer", Role.OFFICER, "demo-officer-password"
)
DEMO_ORGANISER = DemoAccount(
    "organiser@demo.example", "Demo organiser", Role.ORGANISER, "demo-organiser-password"
)
NEW_PLAYER = "Lindqvist, Maja"
EVENING_PLAYERS = 10
ACKNOWLEDGED = "Demo: checked with the event's arbiter."


def add_demo_site(
    session: Session,
    pool: Pool,
    randomness: random.Random,
    roster: list[Entrant],
    now: dt.datetime,
    officer: Author,
) -> int:
    """The demo's two accounts and the organiser's report, submitted; its number."""
    made = {
        each.role: add_account(
            session, each.email, each.name, each.role, officer, now, each.password
        )
        for each in (DEMO_OFFICER, DEMO_ORGANISER)
    }
    sender = Author(DEMO_ORGANISER.email, account_id=made[Role.ORGANISER].id)
    content = trf.write_trf(_club_evening(randomness, roster, now)).encode()
    name = "club-evening.trf"
    sent = upload(session, name, io.BytesIO(content), now, sender, Role.ORGANISER, pool=pool)
    warnings = report_detail(session, sent.report, COMMAND_LINE).versions[0].findings
    for found in warnings:
        if found.tier is Tier.WARNING:
            acknowledge(session, sent.report, found.id, ACKNOWLEDGED, now, sender, Role.ORGANISER)
    submit(session, sent.report, now, sender, Role.ORGANISER)
    return sent.report


def _club_evening(
    randomness: random.Random, roster: list[Entrant], now: dt.datetime
) -> trf.TournamentReport:
    """Two rounds of club players and a newcomer, the day before `now` (in `now`'s month)."""
    today = now.date()
    day = max(today - dt.timedelta(days=1), today.replace(day=1))
    newcomer = new_player(
        name=NEW_PLAYER, federation="NOR", sex="F", birth_year=day.year - 16, today=today
    )
    players = randomness.sample(roster[field.TITLED : field.RATED], EVENING_PLAYERS)
    players.append(Entrant(0, None, newcomer))
    name = f"Club Evening {day:%b %Y}"
    return field.tournament_report(randomness, Event(name, day, players, 2), {})
