from . import (
    tournament_reports as tournament_reports,
)
from .accounts import (
    account_list as account_list,
    token_list as token_list,
)
from .base import (
    Format as Format,
    error as error,
    message as message,
    pool_option as pool_option,
)
from .corrections import (
    corrected as corrected,
    list_diff as list_diff,
    log_records as log_records,
    rerated as rerated,
)
from .games import (
    game_listing as game_listing,
)
from .identity import (
    edited as edited,
    found_players as found_players,
    merged as merged,
)
from .imports import (
    fide_list_imported as fide_list_imported,
    fide_list_left_out as fide_list_left_out,
    file_imported as file_imported,
    pgn_imported as pgn_imported,
    tournament_imported as tournament_imported,
    warnings as warnings,
)
from .lists import (
    closed as closed,
    list_csv as list_csv,
    list_json as list_json,
    movement as movement,
    rating_list as rating_list,
)
from .overviews import (
    event_listing as event_listing,
    period_overview as period_overview,
)
from .players import (
    explanation as explanation,
    player_card as player_card,
    rating_chart as rating_chart,
)
from .progress import (
    progress_bar as progress_bar,
)
from .reports import (
    calculation as calculation,
    cross_table as cross_table,
    federation_ranking as federation_ranking,
    peaks as peaks,
    rank_history as rank_history,
    rank_summary as rank_summary,
    statistics as statistics,
)
