"""The one JSON shape of everything the read side returns: every face that prints or serves
JSON (`--format json`, the web API) goes through here, so they cannot disagree.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import json
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from ledger.core.domain import Period, Pool


def plain(value: Any) -> Any:
    """A query's result as plain data: dataclasses as dicts, periods as `YYYY-MM` text.

    (`dataclasses.asdict` would turn a Period, itself a dataclass, into a dict.)
    """
    if isinstance(value, Period | Pool):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            field.name: plain(getattr(value, field.name)) for field in dataclasses.fields(value)
        }
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


def _json_value(value: object) -> object:
    """JSON for the ledger's values: exact hundredths as numbers, dates and periods as text."""
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dt.date):
        return str(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def to_json(data: object) -> str:
    """Plain data (see `plain`) as JSON text, indented, with non-ASCII names as they are."""
    return json.dumps(data, ensure_ascii=False, indent=2, default=_json_value)


def to_csv(rows: Sequence[dict[str, object]], fields: Sequence[str]) -> str:
    """Plain rows as CSV text with one header line of `fields`."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def records_csv(records: Sequence[Any], kind: type[Any]) -> str:
    """Records of one dataclass as CSV, with the dataclass's fields as the header."""
    fields = [field.name for field in dataclasses.fields(kind)]
    return to_csv([plain(record) for record in records], fields)
