"""The site's accounts and their API tokens, as the command line shows them (never a
secret's digest: a token is shown once, when it is made)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from rich import box

from ledger.queries.accounts import AccountRow, TokenRow
from ledger.render.base import Console, Format, Table, message, print_records, text


def _table(title: str, headers: Sequence[str]) -> Table:
    table = Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    for header in headers:
        table.add_column(header)
    return table


def _when(at: dt.datetime | None) -> str:
    return "" if at is None else f"{at:%Y-%m-%d %H:%M}"


def account_list(rows: Sequence[AccountRow], output: Format) -> None:
    if print_records(rows, AccountRow, output):
        return
    if not rows:
        message(
            "No accounts yet: make the first officer with "
            "`ledger users add EMAIL --name NAME --role officer`."
        )
        return
    table = _table(
        "Accounts", ("ID", "E-mail", "Name", "Role", "Password", "Made (UTC)", "Disabled (UTC)")
    )
    for row in rows:
        table.add_row(
            str(row.id),
            row.email,
            row.name,
            str(row.role),
            "set" if row.password_set else "not set",
            _when(row.created_at),
            _when(row.disabled_at),
        )
    Console().print(table)


def token_list(rows: Sequence[TokenRow], output: Format) -> None:
    if print_records(rows, TokenRow, output):
        return
    if not rows:
        message("No API tokens.")
        return
    table = _table("API tokens", ("ID", "Account", "Name", "Role", "Made (UTC)", "Revoked (UTC)"))
    for row in rows:
        table.add_row(
            str(row.id),
            row.email,
            text(row.name),
            text(row.role),
            _when(row.created_at),
            _when(row.revoked_at),
        )
    Console().print(table)
