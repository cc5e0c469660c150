"""FIDE's codes for titles and federations, as every file and command gives them.

FIDE writes a player's title as GM, IM, FM, CM, WGM, WIM, WFM or WCM; older lists and
pairing programs' reports (Swiss-Manager, JaVaFo) write the same titles as g, m, f, c, wg,
wm, wf and wc. Both read as the one code, so `list --title GM` finds every grandmaster.
Federations are FIDE's three-letter codes (mostly the IOC's: GER, not ISO's DEU), with
those of federations that no longer exist, which old lists and reports still carry.
"""

from __future__ import annotations

import difflib

from ledger.core.errors import InvalidInput
from ledger.core.printable import quoted

TITLES = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")
"""FIDE's titles of chess players, as FIDE writes them."""
_SHORT_TITLES = {"g": "GM", "m": "IM", "f": "FM", "c": "CM"}
_TITLE_CODES = (
    {title.lower(): title for title in TITLES}
    | _SHORT_TITLES
    | {f"w{short}": f"W{title}" for short, title in _SHORT_TITLES.items()}
)
"""Every way a title is written, in lower case -> the title."""
TITLE_SPELLINGS = tuple(_TITLE_CODES)
"""Every way a title is written, in lower case (a title's check ignores the case)."""

# fmt: off
FEDERATIONS = frozenset((
    "AFG", "AHO", "ALB", "ALG", "AND", "ANG", "ANT", "ARG", "ARM", "ARU", "AUS", "AUT",
    "AZE", "BAH", "BAN", "BAR", "BDI", "BEL", "BEN", "BER", "BHU", "BIH", "BIZ", "BLR",
    "BOL", "BOT", "BRA", "BRN", "BRU", "BUL", "BUR", "CAF", "CAM", "CAN", "CAY", "CGO",
    "CHA", "CHI", "CHN", "CIV", "CMR", "COD", "COL", "COM", "CPV", "CRC", "CRO", "CUB",
    "CYP", "CZE", "DEN", "DJI", "DMA", "DOM", "ECU", "EGY", "ENG", "ERI", "ESA", "ESP",
    "EST", "ETH", "FAI", "FID", "FIJ", "FIN", "FRA", "GAB", "GAM", "GCI", "GEO", "GEQ",
    "GER", "GHA", "GRE", "GRN", "GUA", "GUM", "GUY", "HAI", "HKG", "HON", "HUN", "INA",
    "IND", "IOM", "IRI", "IRL", "IRQ", "ISL", "ISR", "ISV", "ITA", "IVB", "JAM", "JCI",
    "JOR", "JPN", "KAZ", "KEN", "KGZ", "KOR", "KOS", "KSA", "KUW", "LAO", "LAT", "LBA",
    "LBN", "LBR", "LCA", "LES", "LIE", "LTU", "LUX", "MAC", "MAD", "MAR", "MAS", "MAW",
    "MDA", "MDV", "MEX", "MGL", "MKD", "MLI", "MLT", "MNC", "MNE", "MOZ", "MRI", "MTN",
    "MYA", "NAM", "NCA", "NED", "NEP", "NGR", "NIG", "NOR", "NRU", "NZL", "OMA", "PAK",
    "PAN", "PAR", "PER", "PHI", "PLE", "PLW", "PNG", "POL", "POR", "PUR", "QAT", "ROU",
    "RSA", "RUS", "RWA", "SCO", "SEN", "SEY", "SGP", "SKN", "SLE", "SLO", "SMR", "SOL",
    "SOM", "SRB", "SRI", "SSD", "STP", "SUD", "SUI", "SUR", "SVK", "SWE", "SWZ", "SYR",
    "TAN", "TGA", "THA", "TJK", "TKM", "TLS", "TOG", "TPE", "TTO", "TUN", "TUR", "UAE",
    "UGA", "UKR", "URU", "USA", "UZB", "VAN", "VEN", "VIE", "VIN", "WLS", "YEM", "ZAM",
    "ZIM",
    # Federations of the past, on old lists and reports.
    "FRG", "GDR", "ROM", "SCG", "TCH", "URS", "YUG",
))
"""FIDE's federation codes: its member federations (ratings.fide.com, "Federations"), FIDE
itself (FID, for players who play under its flag) and the federations of the past."""
# fmt: on
EXAMPLE_FEDERATIONS = "ENG, GER, NOR or USA"


def title_code(text: str) -> str:
    """The FIDE title `text` writes (GM for GM, gm or g); raises InvalidInput naming the
    titles where it writes none."""
    title = _TITLE_CODES.get(text.strip().lower())
    if title is None:
        raise InvalidInput(
            f"{quoted(text)} is not a FIDE title; the titles are {', '.join(TITLES[:-1])} and "
            f"{TITLES[-1]} (also written g, m, f, c, wg, wm, wf and wc)."
        )
    return title


def federation_asked(text: str) -> str:
    """A federation a reader filters on: any three letters, in capitals (a FIDE list file
    may give a code the ledger does not know, and its players are filtered on it); anything
    else is refused as `federation_code` refuses it, with the nearest codes."""
    code = text.strip().upper()
    if len(code) == 3 and code.isascii() and code.isalpha():
        return code
    return federation_code(text)


def federation_code(text: str) -> str:
    """The FIDE federation code `text` writes, in capitals; raises InvalidInput naming the
    nearest codes where it is none."""
    code = text.strip().upper()
    if code in FEDERATIONS:
        return code
    nearest = difflib.get_close_matches(code, sorted(FEDERATIONS), n=3, cutoff=0.6)
    near = f" (the nearest are {', '.join(nearest)})" if nearest else ""
    raise InvalidInput(
        f"{quoted(text)} is not a FIDE federation code{near}; give FIDE's three-letter code, "
        f"such as {EXAMPLE_FEDERATIONS}."
    )
