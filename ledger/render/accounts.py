"""The site's accounts and their API tokens, as the command line shows them (never a
secret's digest: a token is shown once, when it is made)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from ledger.queries.accounts import AccountRow, TokenRow
from ledger.render.base import (
    Console,
    Format,
    Table,
    message,
    moment,
    plain_table,
    print_records,
    text,
)


def _whole(table: Table, index: int, values: Sequence[str]) -> None:
    """Never shorten column `index` (an e-mail, which the commands take as the account's
    name; a day): the other columns wrap to make room for it."""
    column = table.columns[index]
    column.no_wrap = True
    column.min_width = max((len(value) for value in values), default=0)


def _day(at: dt.datetime | None) -> str:
    """The day alone (`ledger log` has the time)."""
    return "" if at is None else f"{at:%Y-%m-%d}"


def account_list(rows: Sequence[AccountRow], output: Format) -> None:
    if print_records(rows, AccountRow, output):
        return
    if not rows:
        message(
            "No accounts yet: make the first officer with "
            "`ledger users add EMAIL --name NAME --role officer`."
        )
        return
    disabled = any(row.disabled_at for row in rows)
    headers = ("ID", "E-mail", "Name", "Role", "Password", "Made", "Disabled")
    table = plain_table("Accounts", headers if disabled else headers[:-1])
    for row in rows:
        cells = (
            str(row.id),
            row.email,
            row.name,
            str(row.role),
            "set" if row.password_set else "not set",
            _day(row.created_at),
            _day(row.disabled_at),
        )
        table.add_row(*(cells if disabled else cells[:-1]))
    _whole(table, 1, [row.email for row in rows])
    for day in range(5, len(table.columns)):
        _whole(table, day, ["YYYY-MM-DD"])
    Console().print(table)


def token_list(rows: Sequence[TokenRow], output: Format) -> None:
    if print_records(rows, TokenRow, output):
        return
    if not rows:
        message("No API tokens.")
        return
    table = plain_table(
        "API tokens", ("ID", "Account", "Name", "Role", "Made (UTC)", "Revoked (UTC)")
    )
    for row in rows:
        table.add_row(
            str(row.id),
            row.email,
            text(row.name),
            text(row.role),
            moment(row.created_at),
            moment(row.revoked_at),
        )
    _whole(table, 1, [row.email for row in rows])
    Console().print(table)
