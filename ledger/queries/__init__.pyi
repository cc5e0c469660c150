from . import (
    accounts as accounts,
    cards as cards,
    crosstables as crosstables,
    explanations as explanations,
    exports as exports,
    federation_names as federation_names,
    federations as federations,
    filters as filters,
    games as games,
    integrity as integrity,
    lists as lists,
    log as log,
    overviews as overviews,
    people as people,
    pooling as pooling,
    reports as reports,
    shape as shape,
    tournament_reports as tournament_reports,
)
from .cards import (
    HistoryRow as HistoryRow,
    LiveRating as LiveRating,
    PlayerCard as PlayerCard,
    PoolStanding as PoolStanding,
    RatingOnDay as RatingOnDay,
    player_card as player_card,
    rating_on as rating_on,
)
from .crosstables import (
    CrossGame as CrossGame,
    CrossRow as CrossRow,
    CrossTable as CrossTable,
    cross_table as cross_table,
)
from .explanations import (
    EventTotal as EventTotal,
    ExplainedGame as ExplainedGame,
    Explanation as Explanation,
    explain as explain,
)
from .exports import (
    fide_list_file as fide_list_file,
    fide_list_left_out as fide_list_left_out,
    tournament_report as tournament_report,
)
from .federations import (
    FederationRanking as FederationRanking,
    FederationRow as FederationRow,
    federation_ranking as federation_ranking,
)
from .filters import (
    ListFilter as ListFilter,
)
from .games import (
    GameFilter as GameFilter,
    GameStatus as GameStatus,
    ListedGame as ListedGame,
    PlayedGames as PlayedGames,
    game_listing as game_listing,
    played_games as played_games,
)
from .integrity import (
    check_ledger as check_ledger,
    games_to_review as games_to_review,
)
from .lists import (
    KeptCounts as KeptCounts,
    ListRequest as ListRequest,
    ListRow as ListRow,
    RatingList as RatingList,
    Version as Version,
    list_cells as list_cells,
    list_size as list_size,
    live_list as live_list,
    published_list as published_list,
)
from .log import (
    LogRecord as LogRecord,
    last_change as last_change,
    last_list_change as last_list_change,
    log_records as log_records,
)
from .overviews import (
    EventFilter as EventFilter,
    EventRow as EventRow,
    PeriodRow as PeriodRow,
    PublishedRow as PublishedRow,
    event_listing as event_listing,
    latest_lists as latest_lists,
    period_overview as period_overview,
)
from .people import (
    FIND_LIMIT as FIND_LIMIT,
    FoundPlayer as FoundPlayer,
    find_players as find_players,
    one_player as one_player,
)
from .pooling import (
    FirstRating as FirstRating,
    PooledGame as PooledGame,
)
from .reports import (
    Band as Band,
    ListStatistics as ListStatistics,
    PeakRow as PeakRow,
    RankHolder as RankHolder,
    RankSummary as RankSummary,
    list_statistics as list_statistics,
    peaks as peaks,
    rank_history as rank_history,
    rank_summary as rank_summary,
)
from .shape import (
    plain as plain,
    records_csv as records_csv,
    to_csv as to_csv,
    to_json as to_json,
)
from .site import (
    Logo as Logo,
    Site as Site,
    site as site,
    site_logo as site_logo,
)
from .versions import (
    ChangedRow as ChangedRow,
    ListDiff as ListDiff,
    list_diff as list_diff,
    versions as versions,
)
