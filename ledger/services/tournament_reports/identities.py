"""Who a report's players are: each the ledger player the imports would match
(`ledger.services.matching.find_matches`, read only), or new. What the check says of them:
errors for a player the ledger knows with other details, one merged away, a ledger ID it does
not know (a CSV's); warnings for a new player who looks like a ledger player and for a birth
year that is hard to believe; a note for each new player, whom the officer may match."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from ledger.core import names
from ledger.core.errors import InvalidInput, RejectedRecords
from ledger.core.records import NewPlayer, new_player
from ledger.core.reports import OLDEST, YOUNGEST, Finding, ReportFormat, Tier
from ledger.formats.report_files import ReportFile, ReportPlayer
from ledger.services.matching import find_matches
from ledger.storage.batches import AnyRow, select_in
from ledger.storage.models import Player, PlayerMerge

LOOK_ALIKES_NAMED = 3
"""The ledger players a warning names at most, of those with a new player's name."""


@dataclass(frozen=True, slots=True)
class Identified:
    """The ledger ID of each player the ledger has (by reference), and the findings."""

    ids: dict[str, int]
    findings: list[Finding]


def identify(
    session: Session,
    read: ReportFile,
    file_name: str,
    today: dt.date,
    matches: Mapping[str, int] | None = None,
) -> Identified:
    """Each player of `read` matched, as the import will match them (`matches`: those a
    rating officer matched, whose details the officer has seen), with what the check finds
    of them."""
    if read.format is ReportFormat.CSV:
        return _by_ledger_id(session, read)
    records, findings = _records(read.players, file_name, today)
    chosen = {ref: player_id for ref, player_id in (matches or {}).items() if ref in records}
    try:
        ids = find_matches(
            session, records, by_name_alone=read.format is ReportFormat.PGN, chosen=chosen
        )
    except RejectedRecords as refused:
        return Identified({}, findings + _problems("ambiguous-player", refused, file_name))
    new = [player for player in read.players if player.reference not in ids]
    matched = [player for player in read.players if player.reference not in chosen]
    findings += _other_details(session, matched, ids)
    findings += _merged_fide_ids(session, new)
    findings += _new_players(session, new)
    findings += _birth_years(read)
    return Identified(ids, findings)


def _records(
    players: Iterable[ReportPlayer], file_name: str, today: dt.date
) -> tuple[dict[str, NewPlayer], list[Finding]]:
    """The players as the import records them, each validated as any new player is."""
    records, findings = {}, []
    for player in players:
        try:
            records[player.reference] = new_player(
                name=player.name or "",
                fide_id=player.fide_id,
                federation=player.federation,
                sex=player.sex,
                birth_year=player.birth_year,
                source=f"{file_name}:{player.line}",
                today=today,
            )
        except InvalidInput as error:
            findings.append(Finding.of_problem(Tier.ERROR, "player", str(error), file_name))
    return records, findings


def _problems(code: str, refused: RejectedRecords, file_name: str) -> list[Finding]:
    return [Finding.of_problem(Tier.ERROR, code, text, file_name) for text in refused.problems]


def _other_details(
    session: Session, players: Iterable[ReportPlayer], ids: Mapping[str, int]
) -> list[Finding]:
    """An error for each matched player whose name, birth year, sex or federation in the
    file is not the ledger's."""
    given = {player.reference: player for player in players if player.reference in ids}
    known = {
        row.id: row
        for row in select_in(
            session,
            select(
                Player.id, Player.name, Player.name_key, Player.birth_year, Player.sex
            ).add_columns(Player.federation),
            Player.id,
            {ids[reference] for reference in given},
        )
    }
    findings = []
    for reference, player in given.items():
        ledgers = known[ids[reference]]
        differences = _differences(player, ledgers)
        if differences:
            findings.append(
                Finding(
                    tier=Tier.ERROR,
                    code="other-identity",
                    message=f"{_who(player)} is ledger player {ledgers.id}, {ledgers.name} "
                    f"({_details(ledgers.federation, ledgers.birth_year, ledgers.sex)}), but "
                    f"the report gives {', '.join(differences)}; correct the report, or ask "
                    "the rating officer to correct the player's record.",
                    line=player.line,
                    field="player",
                    subject=reference,
                )
            )
    return findings


def _differences(player: ReportPlayer, ledgers: AnyRow) -> list[str]:
    """What the file says of a player that the ledger does not (both saying something)."""
    found = []
    if player.name and names.name_key(player.name) != ledgers.name_key:
        found.append(f"the name {player.name!r}")
    for field, label in (
        ("birth_year", "the birth year"),
        ("sex", "the sex"),
        ("federation", "the federation"),
    ):
        mine, theirs = getattr(player, field), getattr(ledgers, field)
        if mine is not None and theirs is not None and mine != theirs:
            found.append(f"{label} {mine}")
    return found


def _who(player: ReportPlayer) -> str:
    return f"FIDE ID {player.fide_id}" if player.fide_id else repr(player.name)


def _details(federation: str | None, birth_year: int | None, sex: str | None) -> str:
    """A ledger player's federation, birth year and sex, as far as the ledger has them."""
    shown = [federation or "no federation", f"born {birth_year}" if birth_year else "no birth year"]
    return ", ".join([*shown, sex] if sex else shown)


def _merged_fide_ids(session: Session, new: list[ReportPlayer]) -> list[Finding]:
    """An error for each new player whose FIDE ID was a player merged into another."""
    fide_ids = {player.fide_id: player for player in new if player.fide_id is not None}
    merges = select_in(
        session,
        select(PlayerMerge.dropped_fide_id, PlayerMerge.kept_id),
        PlayerMerge.dropped_fide_id,
        fide_ids,
    )
    return [
        Finding(
            tier=Tier.ERROR,
            code="merged-player",
            message=f"FIDE ID {fide_id} was a ledger player merged into player {kept_id}, "
            "who has another FIDE ID now; give the player's FIDE ID as the ledger has it, or "
            "ask the rating officer.",
            line=fide_ids[fide_id].line,
            field="fide_id",
            subject=fide_ids[fide_id].reference,
        )
        for fide_id, kept_id in merges
    ]


def _new_players(session: Session, new: list[ReportPlayer]) -> list[Finding]:
    """A note for each new player, and a warning for each with a ledger player's name."""
    keys = {player.reference: names.name_key(player.name or "") for player in new}
    alike: dict[str, list[AnyRow]] = {}
    for row in select_in(
        session,
        select(Player.id, Player.name, Player.name_key, Player.fide_id).add_columns(
            Player.federation, Player.birth_year, Player.sex
        ),
        Player.name_key,
        set(keys.values()),
    ):
        alike.setdefault(row.name_key, []).append(row)
    findings = []
    for player in new:
        findings.append(_new_player_note(player))
        same = [
            row
            for row in alike.get(keys[player.reference], [])
            if None in (player.fide_id, row.fide_id)
        ]
        if same:
            findings.append(_look_alike(player, same))
    return findings


def _new_player_note(player: ReportPlayer) -> Finding:
    return Finding(
        tier=Tier.NOTE,
        code="new-player",
        message=f"{player.name} is new to the ledger: accepting the report adds them, "
        "unrated, unless the rating officer matches them to a ledger player.",
        line=player.line,
        field="name",
        subject=player.reference,
    )


def _look_alike(player: ReportPlayer, same: list[AnyRow]) -> Finding:
    named = "; ".join(
        f"{row.id}, {row.name} ({_details(row.federation, row.birth_year, row.sex)})"
        for row in same[:LOOK_ALIKES_NAMED]
    )
    return Finding(
        tier=Tier.WARNING,
        code="look-alike",
        message=f"{player.name} is new to the ledger, but ledger player {named} has the same "
        "name; if they are one person, say so in the note, and the rating officer matches "
        "them when accepting the report.",
        line=player.line,
        field="name",
        subject=player.reference,
    )


def _birth_years(read: ReportFile) -> list[Finding]:
    """A warning for each player too young or too old, at the event's end, to believe."""
    findings = []
    for player in read.players:
        if player.birth_year is None:
            continue
        age = read.end.year - player.birth_year
        if YOUNGEST <= age <= OLDEST:
            continue
        findings.append(
            Finding(
                tier=Tier.WARNING,
                code="birth-year",
                message=f"the birth year {player.birth_year} makes {player.name} {age} at the "
                f"event's end; correct it, or say in the note that it is right.",
                line=player.line,
                field="birth_year",
                subject=player.reference,
            )
        )
    return findings


def _by_ledger_id(session: Session, read: ReportFile) -> Identified:
    """A CSV's players are ledger IDs: an error for each the ledger does not have."""
    wanted = {player.ledger_id: player for player in read.players if player.ledger_id}
    known = {row.id for row in select_in(session, select(Player.id), Player.id, wanted)}
    merged: dict[int, int] = dict(
        select_in(
            session,
            select(PlayerMerge.dropped_id, PlayerMerge.kept_id),
            PlayerMerge.dropped_id,
            set(wanted) - known,
        )
    )
    findings = [
        _unknown(player, merged.get(player_id))
        for player_id, player in wanted.items()
        if player_id not in known
    ]
    ids = {
        player.reference: player_id for player_id, player in wanted.items() if player_id in known
    }
    return Identified(ids, findings)


def _unknown(player: ReportPlayer, kept_id: int | None) -> Finding:
    if kept_id is not None:
        return Finding(
            tier=Tier.ERROR,
            code="merged-player",
            message=f"player {player.ledger_id} was merged into player {kept_id}; write "
            f"{kept_id} instead.",
            line=player.line,
            field="player",
            subject=player.reference,
        )
    return Finding(
        tier=Tier.ERROR,
        code="unknown-player",
        message=f"the ledger has no player {player.ledger_id}; write the player's ledger ID "
        "(the site's search finds it), or ask the rating officer to add the player.",
        line=player.line,
        field="player",
        subject=player.reference,
    )
