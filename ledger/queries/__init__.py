"""The read side, one face for every renderer: what the CLI, the exports and the web call.

Each query takes a session, never commits, checks its request, and returns frozen
dataclasses; `plain` and `to_json` give any of them the one JSON shape. Errors speak of the
data ("no standard list was published for period 2026-05"); a face adds its own next step
(`ledger.core.errors.Hint`).
"""

from typing import TYPE_CHECKING

from ledger.core.packages import export_on_use

if TYPE_CHECKING:
    from ledger.queries import tournament_reports as tournament_reports  # by its module's name
    from ledger.queries.cards import (
        HistoryRow,
        LiveRating,
        PlayerCard,
        PoolStanding,
        RatingOnDay,
        player_card,
        rating_on,
    )
    from ledger.queries.crosstables import CrossGame, CrossRow, CrossTable, cross_table
    from ledger.queries.explanations import EventTotal, ExplainedGame, Explanation, explain
    from ledger.queries.exports import fide_list_file, fide_list_left_out, tournament_report
    from ledger.queries.federations import FederationRanking, FederationRow, federation_ranking
    from ledger.queries.filters import ListFilter
    from ledger.queries.games import (
        GameFilter,
        GameStatus,
        ListedGame,
        PlayedGames,
        game_listing,
        played_games,
    )
    from ledger.queries.integrity import check_ledger, games_to_review
    from ledger.queries.lists import ListRow, RatingList, Version
    from ledger.queries.log import LogRecord, last_change, log_records
    from ledger.queries.overviews import (
        EventFilter,
        EventRow,
        PeriodRow,
        PublishedRow,
        event_listing,
        latest_lists,
        period_overview,
    )
    from ledger.queries.people import FIND_LIMIT, FoundPlayer, find_players, one_player
    from ledger.queries.pooling import FirstRating, PooledGame
    from ledger.queries.published import ListRequest, list_cells, list_size, published_list
    from ledger.queries.rating_counts import KeptCounts
    from ledger.queries.reports import (
        Band,
        ListStatistics,
        PeakRow,
        RankHolder,
        RankSummary,
        list_statistics,
        peaks,
        rank_history,
        rank_summary,
    )
    from ledger.queries.shape import plain, records_csv, to_csv, to_json
    from ledger.queries.site import Logo, Site, site, site_logo
    from ledger.queries.versions import ChangedRow, ListDiff, list_diff, versions

export_on_use(
    __name__,
    {
        "cards": (
            "HistoryRow",
            "LiveRating",
            "PlayerCard",
            "PoolStanding",
            "RatingOnDay",
            "Site",
            "player_card",
            "rating_on",
        ),
        "crosstables": ("CrossGame", "CrossRow", "CrossTable", "cross_table"),
        "explanations": ("EventTotal", "ExplainedGame", "Explanation", "explain"),
        "exports": ("fide_list_file", "fide_list_left_out", "tournament_report"),
        "federations": ("FederationRanking", "FederationRow", "federation_ranking"),
        "filters": ("ListFilter",),
        "games": (
            "GameFilter",
            "GameStatus",
            "ListedGame",
            "PlayedGames",
            "game_listing",
            "played_games",
        ),
        "integrity": ("check_ledger", "games_to_review"),
        "lists": ("ListRow", "RatingList", "Version"),
        "log": ("LogRecord", "last_change", "log_records"),
        "overviews": (
            "EventFilter",
            "EventRow",
            "PeriodRow",
            "PublishedRow",
            "event_listing",
            "latest_lists",
            "period_overview",
        ),
        "people": ("FIND_LIMIT", "FoundPlayer", "find_players", "one_player"),
        "pooling": ("FirstRating", "PooledGame"),
        "published": ("ListRequest", "list_cells", "list_size", "published_list"),
        "rating_counts": ("KeptCounts",),
        "reports": (
            "Band",
            "ListStatistics",
            "PeakRow",
            "RankHolder",
            "RankSummary",
            "list_statistics",
            "peaks",
            "rank_history",
            "rank_summary",
        ),
        "shape": ("plain", "records_csv", "to_csv", "to_json"),
        "site": ("Logo", "Site", "site", "site_logo"),
        "versions": ("ChangedRow", "ListDiff", "list_diff", "versions"),
    },
)

__all__ = [
    "FIND_LIMIT",
    "Band",
    "ChangedRow",
    "CrossGame",
    "CrossRow",
    "CrossTable",
    "EventFilter",
    "EventRow",
    "EventTotal",
    "ExplainedGame",
    "Explanation",
    "FederationRanking",
    "FederationRow",
    "FirstRating",
    "FoundPlayer",
    "GameFilter",
    "GameStatus",
    "HistoryRow",
    "KeptCounts",
    "ListDiff",
    "ListFilter",
    "ListRequest",
    "ListRow",
    "ListStatistics",
    "ListedGame",
    "LiveRating",
    "LogRecord",
    "Logo",
    "PeakRow",
    "PeriodRow",
    "PlayedGames",
    "PlayerCard",
    "PoolStanding",
    "PooledGame",
    "PublishedRow",
    "RankHolder",
    "RankSummary",
    "RatingList",
    "RatingOnDay",
    "Site",
    "Version",
    "check_ledger",
    "cross_table",
    "event_listing",
    "explain",
    "federation_ranking",
    "fide_list_file",
    "fide_list_left_out",
    "find_players",
    "game_listing",
    "games_to_review",
    "last_change",
    "latest_lists",
    "list_cells",
    "list_diff",
    "list_size",
    "list_statistics",
    "log_records",
    "one_player",
    "peaks",
    "period_overview",
    "plain",
    "played_games",
    "player_card",
    "published_list",
    "rank_history",
    "rank_summary",
    "rating_on",
    "records_csv",
    "site",
    "site_logo",
    "to_csv",
    "to_json",
    "tournament_report",
    "versions",
]
