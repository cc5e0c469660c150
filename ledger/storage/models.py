"""The database tables, as SQLAlchemy 2 typed models.

Columns and constraints only: the rules live in `ledger.core.rules`, the transactions in the
services. Ratings, scores and hundredths are integers; periods are stored as `YYYY-MM`.

The published lists are stored as changes: a `ListEntry` row is written for a player only
in a period where their standing changed (rated games, a first appearance, a new or lost
rating). The list in force at period P is, for every player, their newest entry at or before
P; `PlayerRating` holds each player's standing after the newest list, so the newest list is
read without history and a close writes rows only for the players who played.

The tables of tournament reports sent in online are in `ledger.storage.reports`, and what
every table shares (the base, the column types) in `ledger.storage.base`; this module names
them all, so that importing it gives the whole schema.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Annotated

from sqlalchemy import (
    CheckConstraint,
    ForeignKey,
    Index,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column

from ledger.core.access import Role
from ledger.core.domain import ByeKind, GameResult, Period, Pool
from ledger.storage.base import Base as Base
from ledger.storage.base import PeriodType as PeriodType
from ledger.storage.base import checked_enums, name_text, stored_enum
from ledger.storage.base import stored_period as stored_period
from ledger.storage.reports import Report as Report
from ledger.storage.reports import ReportAcknowledgement as ReportAcknowledgement
from ledger.storage.reports import ReportFinding as ReportFinding
from ledger.storage.reports import ReportVersion as ReportVersion

PlayerId = Annotated[int, mapped_column(ForeignKey("players.id"))]
PoolKey = Annotated[Pool, mapped_column(primary_key=True)]


class Player(Base):
    """A person the ledger rates, under the ledger ID (often a FIDE or federation ID)."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    fide_id: Mapped[int | None] = mapped_column(unique=True)
    name: Mapped[str] = mapped_column(name_text(200))
    federation: Mapped[str | None] = mapped_column(String(3), index=True)
    sex: Mapped[str | None] = mapped_column(String(1))
    title: Mapped[str | None] = mapped_column(String(8))
    women_title: Mapped[str | None] = mapped_column(String(8))
    other_titles: Mapped[str | None] = mapped_column(String(100))
    foa_title: Mapped[str | None] = mapped_column(String(8))
    birth_year: Mapped[int | None]
    details_from: Mapped[Period | None]
    """The first period whose lists carry `federation` and `title` as recorded here (set by a
    change `--from` a later list); None: the next list carries them. A published list keeps
    the federation and title it showed: its rows, and each player's standing, hold them."""
    name_key: Mapped[str] = mapped_column(name_text(200), index=True)
    """The name for matching (`ledger.core.names.name_key`): no accents or case, words sorted."""
    sort_name: Mapped[str] = mapped_column(name_text(200), index=True)
    """The name for ordering (`ledger.core.names.sort_key`): no accents or case, words in order."""

    __table_args__ = (CheckConstraint("sex IN ('M', 'F')", name="sex"),)


class PlayerRating(Base):
    """A player's standing in one pool after the newest published list (or a pending start).

    `rating` is None once the player has lost their rating (7.1.4). `first_list` is None for
    a starting rating that no published list has carried yet; the next close lists it.
    `federation` and `title` are those the newest list shows (the player's newest list row's).
    The ratings indexes hold `first_list` for the counts of listed players; the pending
    starting ratings have an index of their own, almost empty once a list is published.
    """

    __tablename__ = "player_ratings"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    pool: Mapped[PoolKey]
    rating: Mapped[int | None]
    games_completed: Mapped[int]
    ever_2400: Mapped[bool]
    peak: Mapped[int]
    peak_period: Mapped[Period | None]
    last_active: Mapped[Period | None]
    first_list: Mapped[Period | None]
    federation: Mapped[str | None] = mapped_column(String(3))
    title: Mapped[str | None] = mapped_column(String(8))

    __table_args__ = (
        Index("ix_player_ratings_pool_rating", "pool", "rating", "first_list"),
        Index(
            "ix_player_ratings_pool_pending",
            "pool",
            sqlite_where=text("first_list IS NULL"),
            postgresql_where=text("first_list IS NULL"),
        ),
        Index(
            "ix_player_ratings_pool_federation_rating_first_list",
            "pool",
            "federation",
            "rating",
            "first_list",
        ),
    )


class Event(Base):
    """A tournament, match or league in one pool: its games are rated in the period of its
    end date. Names are unique within a pool."""

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(primary_key=True)
    pool: Mapped[Pool]
    name: Mapped[str] = mapped_column(String(200))
    city: Mapped[str | None] = mapped_column(String(100))
    federation: Mapped[str | None] = mapped_column(String(3))
    start_date: Mapped[dt.date]
    end_date: Mapped[dt.date]
    report_records: Mapped[str | None] = mapped_column(Text)
    """The records of the event's tournament report that the ledger keeps as written (the
    chief and deputy arbiters, the type, the time control, the number of rounds, the team
    records, ...), one line each; `export-trf` writes them back."""

    __table_args__ = (
        UniqueConstraint("pool", "name"),
        Index("ix_events_pool_end_date", "pool", "end_date"),
    )


class Entrant(Base):
    """A player of an event's tournament report: the report's own starting number, points
    and final ranking, so that the event's tables and its exported report number, score and
    order the players as the report did (a player who only had byes is one too). A game of
    the event corrected, deleted or added later clears the points and ranks: the ledger then
    scores and ranks the event by its games."""

    __tablename__ = "entrants"

    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    number: Mapped[int]
    """The starting number (TRF columns 5-8), by which the report's rounds name the player."""
    points: Mapped[int | None]
    """The points (TRF columns 81-84) in hundredths, by the report's own scoring; None where
    the report gave none."""
    rank: Mapped[int | None]
    """The final ranking (TRF columns 86-89); None where the report gave none."""

    __table_args__ = (
        UniqueConstraint("event_id", "number"),
        Index("ix_entrants_player_id", "player_id"),
    )


class Game(Base):
    """A game as reported. `period` is the rating period it belongs to (FIDE 5).

    `rated` is False for a game the arbiter reported as not rated (TRF codes W, D, L).
    White and date find the recorded games a new one may repeat (`ledger.services.repeats`).
    """

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    pool: Mapped[Pool]
    period: Mapped[Period]
    date: Mapped[dt.date]
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id"), index=True)
    round: Mapped[int | None]
    white_id: Mapped[PlayerId]  # found by ix_games_white_id_date
    black_id: Mapped[PlayerId] = mapped_column(index=True)
    result: Mapped[GameResult]
    rated: Mapped[bool] = mapped_column(server_default=true())
    import_id: Mapped[int | None] = mapped_column(ForeignKey("imports.id"))
    colours: Mapped[bool] = mapped_column(server_default=true())
    """False for a forfeit reported without colours: White and Black then name the two
    players only (the lower starting number first), and a report written again gives none."""

    __table_args__ = (
        CheckConstraint("white_id <> black_id", name="two_players"),
        Index("ix_games_pool_period", "pool", "period"),
        Index("ix_games_white_id_date", "white_id", "date"),
    )


class RatingPeriod(Base):
    """A pool's rating period; `closed_at` is set when its list is published.

    `closed_by` is the period whose close published this one's list: itself, or a later one
    for an empty period closed along with it (None for lists published before it was kept).
    """

    __tablename__ = "rating_periods"

    pool: Mapped[PoolKey]
    period: Mapped[Period] = mapped_column(primary_key=True)
    closed_at: Mapped[dt.datetime | None]
    closed_by: Mapped[Period | None]


class ListFigures:
    """A player's figures on a published list, for `ListEntry` and `SupersededEntry`.

    `previous_rating` is the rating on the previous list (None for a player new to the
    list), `change` is None for a player newly rated on this list; `listed` is False when the new
    rating fell below the floor and the player is unrated from this list on. `k_times_sum`
    is the unrounded K x ΣΔR in hundredths, `k_applied` the K used (after the 700 cap),
    `k_rule` the line of 8.3.3 that gave it (`ledger.core.rules.KRule`), and
    `k_next` the K in force for the next period (None once the player is unrated).
    `federation` and `title` are the player's on this list: a transfer or a new title shows
    from the list that first carries it, and earlier lists keep what they showed.
    """

    rating: Mapped[int]
    previous_rating: Mapped[int | None]
    change: Mapped[int | None]
    listed: Mapped[bool]
    games: Mapped[int]
    k_applied: Mapped[int | None]
    k_rule: Mapped[str | None] = mapped_column(String(24))
    k_times_sum: Mapped[int | None]
    k_next: Mapped[int | None]
    games_completed: Mapped[int]
    ever_2400: Mapped[bool]
    peak: Mapped[int]
    peak_period: Mapped[Period | None]
    last_active: Mapped[Period | None]
    federation: Mapped[str | None] = mapped_column(String(3))
    title: Mapped[str | None] = mapped_column(String(8))


LIST_FIGURES = tuple(ListFigures.__annotations__)
"""The names of a list row's figures, as `ListEntry` and `SupersededEntry` hold them."""


class ListEntry(ListFigures, Base):
    """A player's row on the list published by closing `period`, where it changed."""

    __tablename__ = "list_entries"

    pool: Mapped[PoolKey]
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    period: Mapped[Period] = mapped_column(primary_key=True)
    import_id: Mapped[int | None] = mapped_column(ForeignKey("imports.id"))
    """The FIDE list file the row was imported from; None for a row the ledger rated."""

    __table_args__ = (
        Index("ix_list_entries_pool_period_rating", "pool", "period", "rating"),
        Index("ix_list_entries_pool_period_previous_rating", "pool", "period", "previous_rating"),
        Index("ix_list_entries_player_id", "player_id"),
    )


class ListVersion(Base):
    """One publication of a period's list: version 1 by its close (the "original"), each
    later one by a re-rate. `id` orders every publication of the pool's lists in time;
    the newest version of a closed period is the list in `list_entries`."""

    __tablename__ = "list_versions"

    id: Mapped[int] = mapped_column(primary_key=True)
    pool: Mapped[Pool]
    period: Mapped[Period]
    version: Mapped[int]
    published_at: Mapped[dt.datetime]

    __table_args__ = (UniqueConstraint("pool", "period", "version"),)


class SupersededEntry(ListFigures, Base):
    """A list row of an earlier version of a period's list, kept when a re-rate replaced
    it: a `ListEntry` as that version published it (an imported list is never re-rated)."""

    __tablename__ = "superseded_entries"

    pool: Mapped[PoolKey]
    period: Mapped[Period] = mapped_column(primary_key=True)
    version: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)

    __table_args__ = (Index("ix_superseded_entries_player_id", "player_id"),)


LIST_CHANGES = text("NOT leaves_lists")
"""SQL: the log entries of changes that may have altered a published list, written as their
partial index is, so that both backends find the newest on it."""


class LogEntry(Base):
    """One change to the ledger's published state, for `ledger log`: a close, re-rate,
    reopen, correction, import or merge, with who made it, why, and what it did."""

    __tablename__ = "log_entries"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[dt.datetime]
    operator: Mapped[str] = mapped_column(String(100))
    action: Mapped[str] = mapped_column(String(30))
    pool: Mapped[Pool | None]
    period: Mapped[Period | None]
    reason: Mapped[str | None] = mapped_column(String(1000))
    summary: Mapped[str] = mapped_column(String(1000))
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))
    """The signed-in account that made the change on the web (None: the command line)."""
    address: Mapped[str | None] = mapped_column(String(45))
    """The address the change came from, on the web."""
    report_id: Mapped[int | None] = mapped_column(ForeignKey("reports.id"), index=True)
    """The tournament report the change was made to: its history is its entries."""
    leaves_lists: Mapped[bool] = mapped_column(server_default=false())
    """The change left every published list as it was, with the lists' rows and the site
    around them: games recorded in open periods, a report's steps, accounts and tokens. A
    long-running reader keeps what it draws from the lists until a change without it
    (`ledger.queries.log.last_list_change`)."""

    __table_args__ = (
        Index(
            "ix_log_entries_list_changes",
            "id",
            sqlite_where=LIST_CHANGES,
            postgresql_where=LIST_CHANGES,
        ),
    )


class SiteSettings(Base):
    """The federation's public site, as `ledger site set` gives it: its name, short name
    (the header's), footer (contact, the data's licence) and logo (its bytes and media
    type), shared by every worker that serves the ledger. One row, or none (the defaults)."""

    __tablename__ = "site_settings"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    name: Mapped[str | None] = mapped_column(String(200))
    short_name: Mapped[str | None] = mapped_column(String(40))
    footer: Mapped[str | None] = mapped_column(String(1000))
    logo: Mapped[bytes | None] = mapped_column(LargeBinary)
    logo_type: Mapped[str | None] = mapped_column(String(20))

    __table_args__ = (CheckConstraint("id = 1", name="one_row"),)


STANDING_COLUMNS = (
    "rating",
    "games_completed",
    "ever_2400",
    "peak",
    "peak_period",
    "last_active",
    "first_list",
    "federation",
    "title",
)
"""A player's standing in a pool, as `PlayerRating` holds it and `PriorStanding` keeps it."""


class PriorStanding(Base):
    """A player's standing in a pool before the close of `period` changed it, kept so that
    `reopen-period` restores it exactly. `had_standing` is False for a player the close gave
    their first standing in the pool (reopening removes it)."""

    __tablename__ = "prior_standings"

    pool: Mapped[PoolKey]
    period: Mapped[Period] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    had_standing: Mapped[bool]
    rating: Mapped[int | None]
    games_completed: Mapped[int | None]
    ever_2400: Mapped[bool | None]
    peak: Mapped[int | None]
    peak_period: Mapped[Period | None]
    last_active: Mapped[Period | None]
    first_list: Mapped[Period | None]
    federation: Mapped[str | None] = mapped_column(String(3))
    title: Mapped[str | None] = mapped_column(String(8))

    __table_args__ = (Index("ix_prior_standings_player_id", "player_id"),)


class GameRating(Base):
    """How the close rated one game: the ratings used and each side's expected score.

    An expected score is None where that side was not rated (an unrated player or opponent,
    a forfeit, a rapid or blitz pairing too far apart). A rating is None for an unrated player.
    """

    __tablename__ = "game_ratings"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    white_rating: Mapped[int | None]
    black_rating: Mapped[int | None]
    white_expected: Mapped[int | None]
    black_expected: Mapped[int | None]


class Bye(Base):
    """A round an event's player sat out (TRF codes): stored, never rated (FIDE 5)."""

    __tablename__ = "byes"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    round: Mapped[int]
    player_id: Mapped[PlayerId] = mapped_column(index=True)
    kind: Mapped[ByeKind]
    import_id: Mapped[int | None] = mapped_column(ForeignKey("imports.id"))

    __table_args__ = (UniqueConstraint("event_id", "round", "player_id"),)


class Import(Base):
    """A file imported into the ledger; its content hash refuses a second import.

    `period` is the list period of an imported FIDE rating list.
    """

    __tablename__ = "imports"

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    file_name: Mapped[str] = mapped_column(String(500))
    sha256: Mapped[str] = mapped_column(String(64))
    rows: Mapped[int]
    imported_at: Mapped[dt.datetime]
    period: Mapped[Period | None]

    __table_args__ = (UniqueConstraint("kind", "sha256"),)


class PlayerMerge(Base):
    """Two records of one person made one: `dropped_id`'s games and history now belong to
    `kept_id`, and the dropped record is gone."""

    __tablename__ = "player_merges"

    id: Mapped[int] = mapped_column(primary_key=True)
    kept_id: Mapped[PlayerId] = mapped_column(index=True)
    dropped_id: Mapped[int]
    dropped_fide_id: Mapped[int | None]
    dropped_name: Mapped[str] = mapped_column(String(200))
    games_moved: Mapped[int]
    entries_moved: Mapped[int]
    merged_at: Mapped[dt.datetime]


class Account(Base):
    """A person who signs in to the ledger's site: an organiser or a rating officer. The
    password is kept as its argon2 hash alone (None: not set yet); a disabled account
    cannot sign in, and its sessions and tokens no longer count."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    """Lower case: the account's name for signing in."""
    name: Mapped[str] = mapped_column(String(200))
    role: Mapped[Role]
    password_hash: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[dt.datetime]
    disabled_at: Mapped[dt.datetime | None]


class SecretKind(StrEnum):
    """What an account's secret opens."""

    SESSION = "session"
    """A signed-in browser's session, sent as a cookie."""
    TOKEN = "token"
    """A personal API token, sent as `Authorization: Bearer`."""
    PASSWORD_LINK = "password-link"
    """A one-time link to set the account's password."""


class AccountSecret(Base):
    """A secret an account holds, kept as its SHA-256 digest alone (the secret itself is
    shown once, when made): it counts until it expires or is revoked (a password link: until
    it is used). A token may do what its `role` may, never more than its account's."""

    __tablename__ = "account_secrets"

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    kind: Mapped[SecretKind] = mapped_column(stored_enum(SecretKind, "secret_kind"))
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str | None] = mapped_column(String(100))
    role: Mapped[Role | None]
    address: Mapped[str | None] = mapped_column(String(45))
    """The address it was made from (a session's sign-in)."""
    created_at: Mapped[dt.datetime]
    expires_at: Mapped[dt.datetime | None]
    revoked_at: Mapped[dt.datetime | None]


class SignInFailure(Base):
    """A sign-in refused for a wrong password: counted per account and per address to
    throttle guessing, whichever worker answered."""

    __tablename__ = "sign_in_failures"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254))
    address: Mapped[str] = mapped_column(String(45))
    at: Mapped[dt.datetime]

    __table_args__ = (
        Index("ix_sign_in_failures_email_at", "email", "at"),
        Index("ix_sign_in_failures_address_at", "address", "at"),
    )


checked_enums(Base.metadata)
