from . import (
    accounts as accounts,
    activity as activity,
    closing as closing,
    corrections as corrections,
    demo as demo,
    edits as edits,
    games as games,
    imports as imports,
    list_details as list_details,
    list_imports as list_imports,
    matching as matching,
    merges as merges,
    players as players,
    reopening as reopening,
    repeats as repeats,
    set_rating as set_rating,
    site as site,
    tournaments as tournaments,
)
from .activity import (
    Author as Author,
    utc_now as utc_now,
)
