"""What every renderer shares: the output formats, JSON and CSV of plain data, messages."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from decimal import Decimal
from enum import StrEnum
from typing import Any

from ledger.core.domain import Period
from ledger.queries.shape import plain, records_csv, to_csv, to_json


class Format(StrEnum):
    TABLE = "table"
    CSV = "csv"
    JSON = "json"


def print_json(data: object) -> None:
    print(to_json(data))


def print_csv(rows: Sequence[dict[str, object]], fields: Sequence[str]) -> None:
    sys.stdout.write(to_csv(rows, fields))


def print_records(records: Sequence[Any], kind: type[Any], output: Format) -> bool:
    """Records of one dataclass as a JSON array, or as CSV with the dataclass's fields (one
    header line); False, printing nothing, when the output is a table."""
    if output is Format.TABLE:
        return False
    if output is Format.JSON:
        print_json([plain(record) for record in records])
    else:
        sys.stdout.write(records_csv(records, kind))
    return True


def message(text: str) -> None:
    print(text)


def error(text: str) -> None:
    print(f"error: {text}", file=sys.stderr)


def text(value: object) -> str:
    return "" if value is None else str(value)


def list_text(period: Period | None) -> str:
    """A list by its date and its period: "Nov 2026 (2026-10)"."""
    return "" if period is None else f"{period.list_name} ({period})"


def points(hundredths: int) -> str:
    return f"{Decimal(hundredths) / 100:.2f}".rstrip("0").rstrip(".")
