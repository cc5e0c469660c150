"""Everything the ledger prints: Rich tables, CSV and JSON. The only package that uses Rich.

Tables go to stdout and hold nothing but the table; messages go to stdout as plain lines,
errors to stderr.
"""

from typing import TYPE_CHECKING

from ledger.core.packages import export_on_use

if TYPE_CHECKING:
    from ledger.render import tournament_reports as tournament_reports  # by its module's name
    from ledger.render.accounts import account_list, token_list
    from ledger.render.base import Format, error, message
    from ledger.render.corrections import corrected, list_diff, log_records, rerated
    from ledger.render.games import game_listing
    from ledger.render.identity import edited, found_players, merged
    from ledger.render.imports import (
        fide_list_imported,
        fide_list_left_out,
        file_imported,
        pgn_imported,
        tournament_imported,
        warnings,
    )
    from ledger.render.lists import closed, list_csv, list_json, movement, rating_list
    from ledger.render.overviews import event_listing, period_overview
    from ledger.render.players import explanation, player_card, rating_chart
    from ledger.render.progress import progress_bar
    from ledger.render.reports import (
        calculation,
        cross_table,
        federation_ranking,
        peaks,
        rank_history,
        rank_summary,
        statistics,
    )

export_on_use(
    __name__,
    {
        "accounts": ("account_list", "token_list"),
        "base": ("Format", "error", "message"),
        "corrections": ("corrected", "list_diff", "log_records", "rerated"),
        "games": ("game_listing",),
        "identity": ("edited", "found_players", "merged"),
        "imports": (
            "fide_list_imported",
            "fide_list_left_out",
            "file_imported",
            "pgn_imported",
            "tournament_imported",
            "warnings",
        ),
        "lists": ("closed", "list_csv", "list_json", "movement", "rating_list"),
        "overviews": ("event_listing", "period_overview"),
        "players": ("explanation", "player_card", "rating_chart"),
        "progress": ("progress_bar",),
        "reports": (
            "calculation",
            "cross_table",
            "federation_ranking",
            "peaks",
            "rank_history",
            "rank_summary",
            "statistics",
        ),
    },
)

__all__ = [
    "Format",
    "account_list",
    "calculation",
    "closed",
    "corrected",
    "cross_table",
    "edited",
    "error",
    "event_listing",
    "explanation",
    "federation_ranking",
    "fide_list_imported",
    "fide_list_left_out",
    "file_imported",
    "found_players",
    "game_listing",
    "list_csv",
    "list_diff",
    "list_json",
    "log_records",
    "merged",
    "message",
    "movement",
    "peaks",
    "period_overview",
    "pgn_imported",
    "player_card",
    "progress_bar",
    "rank_history",
    "rank_summary",
    "rating_chart",
    "rating_list",
    "rerated",
    "statistics",
    "token_list",
    "tournament_imported",
    "warnings",
]
