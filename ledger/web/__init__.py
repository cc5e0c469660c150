"""The web face: a read-only site and JSON API over the ledger (`ledger serve`).

Thin like the CLI: each page and each API answer calls the same query (`ledger.queries`) the
command line calls and, for JSON, goes through the same shape (`ledger.queries.shape`), so a
page, an API answer and `--format json` cannot disagree. No Typer and no Rich here.
"""

from ledger.web.app import app_from_environment, create_app

__all__ = ["app_from_environment", "create_app"]
