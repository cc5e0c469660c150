"""Tournament reports sent in online (issue 39): an organiser uploads a report, which is
checked at once and kept as an unchangeable version; acknowledges its warnings and submits
it; the rating officer accepts it into its period (its games recorded through the imports),
returns it with a reason, or rejects it. `ledger.core.reports` tells a report's life.

Every function is one change in the caller's transaction, logged with the `Author` (the
account and its address on the web), and takes the `Role` it is asked with: an organiser
may change their own reports, an officer any (`ledger.core.access` grants the actions).

- `sending`: `upload`, `acknowledge`, `submit`, `withdraw`;
- `reviewing`: `accept`, `send_back` (return), `reject`;
- `checking`: the check of a version, in three tiers, with the trial of its recording;
- `identities`, `ratings`: what the check says of the players and of their ratings;
- `recording`: a version into the ledger through the imports, a correction by the re-rate;
- `changes`: what every change shares (the lock, who may, from which states, the log).
"""

from ledger.services.tournament_reports.changes import ReportChanged
from ledger.services.tournament_reports.reviewing import Accepted, accept, reject, send_back
from ledger.services.tournament_reports.sending import (
    Uploaded,
    WarningAcknowledged,
    acknowledge,
    submit,
    upload,
    withdraw,
)

__all__ = [
    "Accepted",
    "ReportChanged",
    "Uploaded",
    "WarningAcknowledged",
    "accept",
    "acknowledge",
    "reject",
    "send_back",
    "submit",
    "upload",
    "withdraw",
]
