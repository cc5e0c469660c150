"""The names of chess federations by their FIDE codes ("NOR": Norway, "GER": Germany).

FIDE names its member federations by three-letter codes, the IOC's mostly: most are ISO 3166
alpha-3 codes of the same country, whose names `pycountry` keeps (the ISO's own data, kept
up to date by its maintainers); the rest are below. They are those of FIDE's list of its
federations (ratings.fide.com, "Federations"), wherever the code is not ISO's for the same
country: ISO has no "ENG" or "GER", and ISO's "BRN" is Brunei where FIDE's is Bahrain.
"""

from __future__ import annotations

import functools

import pycountry

# fmt: off
FIDE_CODES = {
    "AHO": "Netherlands Antilles", "ALG": "Algeria", "ANG": "Angola",
    "ANT": "Antigua and Barbuda", "ARU": "Aruba", "BAH": "Bahamas", "BAN": "Bangladesh",
    "BAR": "Barbados", "BER": "Bermuda", "BHU": "Bhutan", "BIZ": "Belize", "BOT": "Botswana",
    "BRN": "Bahrain", "BRU": "Brunei", "BUL": "Bulgaria", "BUR": "Burkina Faso",
    "CAM": "Cambodia", "CAY": "Cayman Islands", "CHA": "Chad", "CHI": "Chile",
    "COD": "DR Congo", "CRC": "Costa Rica", "CRO": "Croatia", "DEN": "Denmark",
    "ENG": "England", "ESA": "El Salvador", "FAI": "Faroe Islands", "FID": "FIDE",
    "FIJ": "Fiji", "GAM": "Gambia", "GCI": "Guernsey", "GEQ": "Equatorial Guinea",
    "GER": "Germany", "GRE": "Greece", "GRN": "Grenada", "GUA": "Guatemala", "HAI": "Haiti",
    "HON": "Honduras", "INA": "Indonesia", "IOM": "Isle of Man", "IRI": "Iran",
    "ISV": "US Virgin Islands", "IVB": "British Virgin Islands", "JCI": "Jersey",
    "KOS": "Kosovo", "KSA": "Saudi Arabia", "KUW": "Kuwait", "LAT": "Latvia", "LBA": "Libya",
    "LES": "Lesotho", "MAD": "Madagascar", "MAS": "Malaysia", "MAW": "Malawi",
    "MGL": "Mongolia", "MNC": "Monaco", "MRI": "Mauritius", "MTN": "Mauritania",
    "MYA": "Myanmar", "NCA": "Nicaragua", "NED": "Netherlands", "NEP": "Nepal",
    "NGR": "Nigeria", "NIG": "Niger", "OMA": "Oman", "PAR": "Paraguay", "PHI": "Philippines",
    "PLE": "Palestine", "POR": "Portugal", "PUR": "Puerto Rico", "RSA": "South Africa",
    "RUS": "Russia",
    "SCO": "Scotland", "SEY": "Seychelles", "SKN": "Saint Kitts and Nevis", "SLO": "Slovenia",
    "SOL": "Solomon Islands", "SRI": "Sri Lanka", "SUD": "Sudan", "SUI": "Switzerland",
    "TAN": "Tanzania", "TGA": "Tonga", "TOG": "Togo", "TPE": "Chinese Taipei",
    "UAE": "United Arab Emirates", "URU": "Uruguay", "VAN": "Vanuatu", "VIE": "Vietnam",
    "VIN": "Saint Vincent and the Grenadines", "WLS": "Wales", "ZAM": "Zambia",
    "ZIM": "Zimbabwe",
}
"""FIDE's codes that are not ISO 3166 alpha-3 codes of the same country, and two whose ISO
names read as an index does ("Congo, The Democratic Republic of the"), with FIDE's names."""
# fmt: on


@functools.cache
def federation_name(code: str | None) -> str | None:
    """The name of the federation of FIDE code `code` (None: no code, or none known)."""
    if not code:
        return None
    code = code.upper()
    if code in FIDE_CODES:
        return FIDE_CODES[code]
    country = pycountry.countries.get(alpha_3=code)
    return None if country is None else getattr(country, "common_name", country.name)
