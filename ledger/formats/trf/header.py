"""Reading a TRF file's header records: those the ledger reads into the event (012 name,
022 city, 032 federation, 042 and 052 dates, 132 round dates, `ledger.formats.trf.dates`),
and those it keeps as the report wrote them, to write them back: the tournament's other
records (`??2`: the number of teams, the type, the chief and deputy arbiters, the time
control, TRF-2026's number of rounds and the rest), the pairing programs' `XX?` records (the
number of rounds, XXR), TRF-2026's records of teams, byes and the rest (`_SECTIONS`) and
the national records (a federation's code, then its own fields). Every problem
is kept with its line.
"""

from __future__ import annotations

import datetime as dt
import re

from ledger.core.errors import InvalidInput
from ledger.core.fide_codes import FEDERATIONS
from ledger.core.records import CITY_LENGTH, event_name, refuse_controls, stored_text
from ledger.formats.trf import dates
from ledger.formats.trf.lines import Problems, Record, blocks, column
from ledger.formats.trf.records import TrfEvent

_HEADER_CODES = ("012", "022", "032", "042", "052", "132")
_WRITTEN_BY_THE_LEDGER = ("062", "072")
"""The counts of players and of rated players, which the ledger counts when it writes."""
TOURNAMENT_RECORDS = re.compile(r"[0-3][0-9]2|XX[A-Z]")
"""TRF's tournament records (012 to 362, and the codes up to 392 a later version may add)
and JaVaFo's: those a report writes before its players."""
_SECTIONS = re.compile(r"013|240|250|260|299|300|310|320|330|801|802")
"""The records of TRF-2026's other sections: teams (013, 310), byes, accelerated rounds,
prohibited pairings, abnormal points, out-of-order boards, a team's pairing-allocated byes,
forfeited matches, and the informative 801 and 802. A federation's own records (National
Rating Support) begin with its FIDE code. Other lines (the column rulers some programs
write above the players) are left out."""
_READ_OR_COUNTED = _HEADER_CODES + _WRITTEN_BY_THE_LEDGER
_FEDERATION = re.compile(r"[A-Z]{3}")


def header_records(records: list[Record], problems: Problems) -> dict[str, Record]:
    """The header records the ledger uses, by code; every other record is skipped."""
    headers: dict[str, Record] = {}
    for number, text in records:
        code = text[:3]
        if code in headers:
            first = headers[code][0]
            problems.add(number, f"a second {code} record; line {first} has the first.")
        elif code in _HEADER_CODES:
            headers[code] = (number, text)
    return headers


def read_event(headers: dict[str, Record], problems: Problems, rounds: int) -> TrfEvent:
    """The event of the header records; an event of `rounds` rounds whose dates fit it
    only read month for day is read as written, with a warning (`ledger.formats.trf.dates`)."""
    federation = _header_text(headers, "032").upper()
    written = dates.ReportDates(
        _written_header_date(headers, "042", "start date", problems),
        _written_header_date(headers, "052", "end date", problems),
        _written_round_dates(headers.get("132"), problems),
    )
    start, end, *round_dates = _read_dates(headers, written, rounds, problems)
    return TrfEvent(
        name=_event_name(headers, problems),
        city=_city(headers, problems),
        federation=federation if _FEDERATION.fullmatch(federation) else None,
        start_date=start,
        end_date=end,
        round_dates=tuple(round_dates),
    )


def _read_dates(
    headers: dict[str, Record], written: dates.ReportDates, rounds: int, problems: Problems
) -> list[dt.date | None]:
    """The report's start, end and round dates, each problem kept with its line. Dates
    that fit the event only read month for day are read as written (TRF's YY/MM/DD), with
    a warning: a league's rounds a month apart read so too, and a date read otherwise than
    written could move the event's games into another period."""
    if written.other_reading_fits(rounds):
        line = next(headers[code][0] for code in ("042", "052", "132") if code in headers)
        as_written, other = written.read(), written.read(swapped=True)
        problems.warn(
            line,
            "dates",
            f"the report's dates read as written (YYYY/MM/DD) run from {dates.span(as_written)}, "
            f"long for {rounds} rounds; read month for day (YYYY/DD/MM) they would run from "
            f"{dates.span(other)}. They are read as written: check them, and if they were "
            "written month for day, write them as YYYY/MM/DD.",
        )
    start = _checked(headers, "042", "start date", written.start, None, problems)
    end = _checked(headers, "052", "end date", written.end, None, problems)
    near = start or end
    if "132" not in headers:
        return [start, end]
    line = headers["132"][0]
    return [
        start,
        end,
        *(
            _checked_round(line, round, date, near, problems)
            for round, date in enumerate(written.rounds, start=1)
        ),
    ]


def _checked(
    headers: dict[str, Record],
    code: str,
    what: str,
    date: dates.WrittenDate | None,
    near: dt.date | None,
    problems: Problems,
) -> dt.date | None:
    if date is None:
        return None
    try:
        return date.read(near)
    except ValueError:
        problems.add(
            headers[code][0], f"the {what} {date.text!r} is not a date; write it as YYYY/MM/DD."
        )
    except InvalidInput as error:
        problems.add(headers[code][0], f"the {what}: {error}")
    return None


def _checked_round(
    line: int,
    round: int,
    date: dates.WrittenDate | None,
    near: dt.date | None,
    problems: Problems,
) -> dt.date | None:
    if date is None:
        return None
    try:
        return date.read(near)
    except ValueError:
        first = column(round, 0)
        problems.add(
            line,
            f"round {round}: the date {date.text!r} is not a date; write it as YY/MM/DD in "
            f"columns {first}-{first + 7}.",
        )
    except InvalidInput as error:
        problems.add(line, f"round {round}: {error}")
    return None


def _event_name(headers: dict[str, Record], problems: Problems) -> str:
    """The 012 record's name, as the ledger records an event's (`records.event_name`)."""
    line = headers["012"][0] if "012" in headers else 0
    try:
        name = event_name(_header_text(headers, "012"))
    except InvalidInput as error:
        problems.add(line, str(error))
        return ""
    if not name:
        problems.add(line, "the event has no name; write it in a 012 record from column 5.")
    return name


def _city(headers: dict[str, Record], problems: Problems) -> str | None:
    """The 022 record's city, as the events table stores it."""
    city = _header_text(headers, "022")
    try:
        return stored_text("city", city, CITY_LENGTH) or None
    except InvalidInput as error:
        problems.add(headers["022"][0], str(error))
        return None


def _header_text(headers: dict[str, Record], code: str) -> str:
    """A header record's data from column 5, spaces collapsed; empty when there is none."""
    return " ".join(headers[code][1][4:].split()) if code in headers else ""


def _written_header_date(
    headers: dict[str, Record], code: str, what: str, problems: Problems
) -> dates.WrittenDate | None:
    text = _header_text(headers, code)
    if not text:
        return None
    try:
        return dates.header_date(text)
    except ValueError:
        problems.add(
            headers[code][0],
            f"the {what} {text!r} is not written as the ledger reads dates (YYYY/MM/DD or "
            "DD.MM.YYYY); write it as YYYY/MM/DD.",
        )
        return None


def _written_round_dates(
    header: Record | None, problems: Problems
) -> tuple[dates.WrittenDate | None, ...]:
    """The 132 record's dates as written, YYYY/MM/DD or YY/MM/DD in each round's columns."""
    if header is None:
        return ()
    number, text = header
    written: list[dates.WrittenDate | None] = []
    for round, block in blocks(text):
        try:
            written.append(dates.round_date(block.strip()) if block.strip() else None)
        except ValueError:
            first = column(round, 0)
            problems.add(
                number,
                f"round {round}: the date {block.strip()!r} is not written as YY/MM/DD or "
                f"YYYY/MM/DD; write it as YY/MM/DD in columns {first}-{first + 7}.",
            )
            written.append(None)
    return tuple(written)


def kept_records(records: list[Record], problems: Problems) -> tuple[str, ...]:
    """The records the report keeps as written, in their order: the tournament's
    (`TOURNAMENT_RECORDS`) but those the ledger reads or counts itself, the other sections'
    (`_SECTIONS`) and the federations' own. One with a control character is left out, with
    a warning."""
    kept = []
    for number, text in records:
        code = text[:3]
        ours = TOURNAMENT_RECORDS.fullmatch(code) or _SECTIONS.fullmatch(code)
        if not (ours or code in FEDERATIONS) or code in _READ_OR_COUNTED:
            continue
        try:
            refuse_controls(f"record {code}", "the record", text)
        except InvalidInput as error:
            problems.warn(number, f"record {code}", f"{error} It is left out.")
            continue
        kept.append(text)
    return tuple(kept)
