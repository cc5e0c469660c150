"""The write side: each service is one transaction the caller opens with `Ledger.transaction`.

The command line reaches the services through this package, which imports each module when
it is first used (`ledger.core.packages`): `services.closing.close_period` loads the closing
alone, and `ledger --help`, which names every command, loads none of them.
"""

from typing import TYPE_CHECKING

from ledger.core.packages import export_on_use

if TYPE_CHECKING:
    from ledger.services import accounts as accounts  # which no other module imports
    from ledger.services import demo as demo  # nor these
    from ledger.services import site as site
    from ledger.services import tournament_reports as tournament_reports
    from ledger.services.activity import Author, utc_now

export_on_use(__name__, {"activity": ("Author", "utc_now")})

__all__ = ["Author", "utc_now"]
