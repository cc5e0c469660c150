from . import (
    counts as counts,
    in_force as in_force,
    live as live,
    older as older,
    published as published,
    ranking as ranking,
    request as request,
    rows as rows,
    sql as sql,
    versions as versions,
    whole as whole,
)
from .counts import (
    KeptCounts as KeptCounts,
    RatingCounts as RatingCounts,
    above as above,
    kept_or_read as kept_or_read,
)
from .in_force import (
    is_published as is_published,
    newest_published as newest_published,
    published_period as published_period,
)
from .live import (
    LiveRow as LiveRow,
    live_list as live_list,
)
from .published import (
    PublishedList as PublishedList,
    previous_list as previous_list,
    rating_list as rating_list,
)
from .request import (
    ListRequest as ListRequest,
    list_cells as list_cells,
    list_size as list_size,
    published_list as published_list,
)
from .rows import (
    ORIGINAL as ORIGINAL,
    ListRow as ListRow,
    RatingList as RatingList,
    Version as Version,
    period_figures as period_figures,
    ranked as ranked,
)
from .sql import (
    best_first as best_first,
    list_statement as list_statement,
)
from .versions import (
    ChangedRow as ChangedRow,
    ListDiff as ListDiff,
    list_diff as list_diff,
    version as version,
    version_list as version_list,
)
from .whole import (
    cells as cells,
    whole_list_cells as whole_list_cells,
)
