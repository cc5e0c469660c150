"""What every renderer shares: the output formats, plain data for JSON and CSV, messages."""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import json
import sys
from collections.abc import Sequence
from decimal import Decimal
from enum import StrEnum
from typing import Any

from ledger.domain import Period, Pool


class Format(StrEnum):
    TABLE = "table"
    CSV = "csv"
    JSON = "json"


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


def print_json(data: object) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2, default=_json_value))


def print_csv(rows: Sequence[dict[str, object]], fields: Sequence[str]) -> None:
    writer = csv.DictWriter(sys.stdout, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)


def print_records(records: Sequence[Any], kind: type[Any], output: Format) -> bool:
    """Records of one dataclass as a JSON array, or as CSV with the dataclass's fields (one
    header line); False, printing nothing, when the output is a table."""
    if output is Format.TABLE:
        return False
    rows = [plain(record) for record in records]
    if output is Format.JSON:
        print_json(rows)
    else:
        print_csv(rows, [field.name for field in dataclasses.fields(kind)])
    return True


def message(text: str) -> None:
    print(text)


def error(text: str) -> None:
    print(f"error: {text}", file=sys.stderr)


def text(value: object) -> str:
    return "" if value is None else str(value)


def points(hundredths: int) -> str:
    return f"{Decimal(hundredths) / 100:.2f}".rstrip("0").rstrip(".")
