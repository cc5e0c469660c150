"""`ledger site`: the federation's public site, as `ledger serve` shows it on every page."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ledger import queries, render, services
from ledger.cli.options import (
    DbOption,
    NoteOption,
    OperatorOption,
    import_file,
    now,
    reading,
    writing,
)
from ledger.cli.usage import CommandGroup, Commands
from ledger.core.errors import InvalidInput

app = Commands(
    name="site",
    cls=CommandGroup,
    no_args_is_help=True,
    help="The public site's name, footer and logo: `ledger site set`, `ledger site show`.",
)


@app.command("set")
def site_set(
    ctx: typer.Context,
    name: Annotated[
        str | None,
        typer.Option("--name", metavar="TEXT", help="E.g. 'Norwegian Chess Federation'."),
    ] = None,
    short_name: Annotated[
        str | None, typer.Option("--short-name", metavar="TEXT", help="The header's, e.g. NSF.")
    ] = None,
    footer: Annotated[
        str | None,
        typer.Option("--footer", metavar="TEXT", help="Contact and the data's licence."),
    ] = None,
    logo: Annotated[
        Path | None,
        typer.Option("--logo", metavar="FILE", help="A PNG, JPEG, GIF or WebP of 100 KB at most."),
    ] = None,
    no_logo: Annotated[bool, typer.Option("--no-logo", help="Remove the logo.")] = False,
    reason: NoteOption = None,
    operator: OperatorOption = None,
    db: DbOption = None,
) -> None:
    """Give the public site its name, short name, footer or logo ('' removes a text); every
    worker of `ledger serve` shows them from its next answer.

    Example: ledger site set --name 'Norwegian Chess Federation' --short-name NSF
    """
    content = None if logo is None else _logo(logo)
    change = services.site.SiteChange(name, short_name, footer, content, no_logo)
    with writing(ctx, db) as session:
        done = services.site.set_site(session, change, now(), services.Author(operator, reason))
    render.message(f"The site's {done.changed} set; `ledger site show` shows them.")


def _logo(file: Path) -> bytes:
    """The logo file's bytes, read no further than the largest logo allowed."""
    limit = services.site.LOGO_BYTES
    with import_file(file) as stream:
        content = stream.read(limit + 1)
    if len(content) > limit:
        raise InvalidInput(f"{file} is larger than {limit:,} bytes; give a smaller logo.")
    return content


@app.command("show")
def site_show(ctx: typer.Context, db: DbOption = None) -> None:
    """Show the public site's settings.

    Example: ledger site show --db sqlite:///club.db
    """
    with reading(ctx, db) as session:
        shown = queries.site(session)
    render.message(
        "\n".join(
            (
                f"Name: {shown.name}",
                f"Short name: {shown.short_name}",
                f"Footer: {shown.footer or '(none)'}",
                f"Logo: {shown.logo_type or '(none)'}",
            )
        )
    )
