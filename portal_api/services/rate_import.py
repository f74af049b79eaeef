"""Rate-card CSV import, all or nothing.

Every line is validated in Python first (no database round trip per line); the valid lines are
then streamed with COPY into a temporary table on the request's own transaction, checked against
the tariff's existing rates in one query, and moved into `rate` with one INSERT ... SELECT. Any
problem anywhere refuses the whole file with a per-line report, and nothing is written.
"""

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import BinaryIO, TypeVar, cast

from psycopg import Connection
from psycopg.rows import TupleRow
from sqlalchemy import select, text
from sqlmodel import Session

from core.models import Country, Tariff
from core.values.errors import DomainError, ErrorId, not_found
from core.values.phone import region_for_prefix
from portal_api.schemas.rating import (
    RateImportOut,
    connection_fee,
    increment,
    min_duration,
    moment,
    prefix,
    rate_per_minute,
)

COLUMNS = (
    "prefix",
    "country",
    "rate",
    "connection_fee",
    "initial_increment",
    "billing_increment",
    "min_duration",
    "effective_from",
)
REQUIRED = ("prefix", "rate")
# The refusal lists this many lines and counts the rest.
REPORT_LINES = 100
T = TypeVar("T")
_EMPTY = "The file is empty; upload a CSV with a header line and one rate per line."
_TEMP_COLUMNS = (
    "line, prefix, country_id, rate_per_minute, connection_fee,"
    " initial_increment, billing_increment, min_duration, effective_from"
)
_RATE_COLUMNS = _TEMP_COLUMNS.removeprefix("line, ")


@dataclass(slots=True)
class _Line:
    line: int
    prefix: str
    country_id: int | None
    rate: Decimal
    connection_fee: Decimal
    initial_increment: int
    billing_increment: int
    min_duration: int
    effective_from: datetime

    def copy_text(self) -> str:
        # Every value is validated (digits, decimals, ISO times): nothing needs COPY escaping.
        country = "\\N" if self.country_id is None else str(self.country_id)
        return (
            f"{self.line}\t{self.prefix}\t{country}\t{self.rate}\t{self.connection_fee}\t"
            f"{self.initial_increment}\t{self.billing_increment}\t{self.min_duration}\t"
            f"{self.effective_from.isoformat()}\n"
        )


def _whole(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ValueError("must be a whole number") from None


class _Cells:
    """One CSV line's values by column; `take` parses one and collects its problem."""

    def __init__(self, values: dict[str, str]) -> None:
        self.values = values
        self.problems: list[str] = []

    def take(self, column: str, parse: Callable[[str], T], default: T | None) -> T | None:
        raw = self.values.get(column, "").strip()
        if not raw:
            if default is None:
                self.problems.append(f"{column} is required")
            return default
        try:
            return parse(raw)
        except ValueError as exc:
            self.problems.append(f"{column} {exc}")
            return None


def import_rates(
    session: Session, tariff_id: int, file: BinaryIO, *, replace: bool, max_bytes: int
) -> RateImportOut:
    """Load a rate card into `tariff_id` within the session's transaction (the caller commits)."""
    # Locked, so no other import or new rate of this tariff interleaves between the checks and the insert.
    if session.scalar(select(Tariff.id).where(Tariff.id == tariff_id).with_for_update()) is None:
        raise not_found("Tariff")
    data = file.read(max_bytes + 1)
    if len(data) > max_bytes:
        message = f"The file is too large; the limit is {max_bytes // 1_000_000 or 1} MB."
        raise DomainError(ErrorId.UPLOAD_TOO_LARGE, message)
    lines, errors = _parse(_text_of(data), dict(session.execute(select(Country.iso2, Country.id)).all()))
    conflicts = _stage(session, tariff_id, lines) if lines else {}
    replaced = 0
    for line, used in conflicts.items():
        row = lines[line]
        key = f"prefix {row.prefix} from {row.effective_from.isoformat()}"
        if used:
            errors.setdefault(line, []).append(
                f"the existing rate for {key} was used by calls, so it can't be replaced;"
                " give this line a later effective_from"
            )
        elif replace:
            replaced += 1
        else:
            errors.setdefault(line, []).append(
                f"a rate for {key} already exists in this tariff; upload with ?replace=true to overwrite it"
            )
    if errors:
        raise _refusal(errors)
    _insert(session, tariff_id, replace)
    return RateImportOut(
        tariff_id=tariff_id, rows=len(lines), inserted=len(lines) - replaced, replaced=replaced
    )


def _text_of(data: bytes) -> str:
    if not data.strip():
        raise DomainError(ErrorId.UPLOAD_EMPTY, _EMPTY)
    try:
        content = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        message = "The file is not UTF-8 text; export the rate card as CSV (UTF-8)."
        raise DomainError(ErrorId.UPLOAD_NOT_CSV, message) from None
    if "\x00" in content:
        message = "The file is not a CSV text file; export the rate card as CSV (UTF-8)."
        raise DomainError(ErrorId.UPLOAD_NOT_CSV, message)
    return content


def _header(cells: list[str]) -> list[str]:
    names = [c.strip().lower() for c in cells]
    problems = [f"unknown column '{n[:40]}'" for n in names if n not in COLUMNS]
    problems += [f"column '{n}' appears twice" for n in COLUMNS if names.count(n) > 1]
    problems += [f"missing column '{n}'" for n in REQUIRED if n not in names]
    if problems:
        raise DomainError(
            ErrorId.UPLOAD_BAD_HEADER,
            f"The first line must name the columns ({', '.join(COLUMNS)}; prefix and rate are required):"
            f" {problems[0]}.",
            errors={"line 1": problems},
        )
    return names


def _parse(content: str, countries: dict[str, int]) -> tuple[dict[int, _Line], dict[int, list[str]]]:
    """Valid lines by line number, and the problems of the others."""
    reader = csv.reader(io.StringIO(content, newline=""))
    now = datetime.now(UTC)
    lines: dict[int, _Line] = {}
    errors: dict[int, list[str]] = {}
    first_of: dict[tuple[str, datetime], int] = {}
    try:
        header = _header(next(reader))
        for cells in reader:
            if not any(c.strip() for c in cells):
                continue  # blank lines are not rates
            number = reader.line_num
            if len(cells) != len(header):
                errors[number] = [f"has {len(cells)} values; the header has {len(header)}"]
                continue
            row, problems = _row(dict(zip(header, cells, strict=True)), number, countries, now)
            if row is not None:
                key = (row.prefix, row.effective_from)
                if key in first_of:
                    problems.append(
                        f"prefix {row.prefix} from {row.effective_from.isoformat()} is already on line"
                        f" {first_of[key]}"
                    )
                else:
                    first_of[key] = number
            if problems:
                errors[number] = problems
            elif row is not None:
                lines[number] = row
    except StopIteration:
        raise DomainError(ErrorId.UPLOAD_EMPTY, _EMPTY) from None
    except csv.Error as exc:
        message = f"The file is not a readable CSV (line {reader.line_num}: {exc})."
        raise DomainError(ErrorId.UPLOAD_BAD_CSV, message) from None
    if not lines and not errors:
        raise DomainError(ErrorId.UPLOAD_EMPTY, "The file has a header line but no rates.")
    return lines, errors


def _row(
    values: dict[str, str], number: int, countries: dict[str, int], now: datetime
) -> tuple[_Line | None, list[str]]:
    cells = _Cells(values)
    digits = cells.take("prefix", prefix, None)
    rate = cells.take("rate", rate_per_minute, None)
    fee = cells.take("connection_fee", connection_fee, Decimal("0.0000"))
    initial = cells.take("initial_increment", lambda v: increment(_whole(v)), 60)
    billing = cells.take("billing_increment", lambda v: increment(_whole(v)), 60)
    shortest = cells.take("min_duration", lambda v: min_duration(_whole(v)), 0)
    start = cells.take("effective_from", moment, now)
    code = values.get("country", "").strip().upper()
    country_id = countries.get(code) if code else None
    if code and country_id is None:
        cells.problems.append(f"country '{code[:20]}' is not an ISO 3166 alpha-2 code")
    if cells.problems:
        return None, cells.problems
    # No problem means every take() returned a value; mypy can't follow that, hence the two ignores.
    if not code:
        country_id = countries.get(region_for_prefix(digits) or "")  # type: ignore[arg-type]
    row = _Line(number, digits, country_id, rate, fee, initial, billing, shortest, start)  # type: ignore[arg-type]
    return row, []


def _stage(session: Session, tariff_id: int, lines: dict[int, _Line]) -> dict[int, bool]:
    """COPY the lines into a temp table; map lines matching an existing rate to "calls used that rate"."""
    session.execute(
        text(
            "CREATE TEMP TABLE rate_import (line integer PRIMARY KEY, prefix varchar(15), country_id integer,"
            " rate_per_minute numeric(18, 4), connection_fee numeric(18, 4), initial_increment integer,"
            " billing_increment integer, min_duration integer, effective_from timestamptz) ON COMMIT DROP"
        )
    )
    # The psycopg connection under the session: COPY runs inside the same transaction.
    raw = cast(Connection[TupleRow], session.connection().connection.driver_connection)
    with raw.cursor() as cursor, cursor.copy(f"COPY rate_import ({_TEMP_COLUMNS}) FROM STDIN") as copy:
        batch: list[str] = []
        for row in lines.values():
            batch.append(row.copy_text())
            if len(batch) == 10_000:
                copy.write("".join(batch))
                batch.clear()
        copy.write("".join(batch))
    found = session.execute(
        text(
            "SELECT i.line, EXISTS (SELECT 1 FROM call c WHERE c.rate_id = r.id) FROM rate_import i"
            " JOIN rate r ON r.tariff_id = :tariff_id AND r.prefix = i.prefix"
            " AND r.effective_from = i.effective_from"
        ),
        {"tariff_id": tariff_id},
    )
    return {line: used for line, used in found}


def _insert(session: Session, tariff_id: int, replace: bool) -> None:
    upsert = (
        " ON CONFLICT ON CONSTRAINT uq_rate_prefix_from DO UPDATE SET country_id = EXCLUDED.country_id,"
        " rate_per_minute = EXCLUDED.rate_per_minute, connection_fee = EXCLUDED.connection_fee,"
        " initial_increment = EXCLUDED.initial_increment, billing_increment = EXCLUDED.billing_increment,"
        " min_duration = EXCLUDED.min_duration"
        if replace
        else ""
    )
    session.execute(
        text(
            f"INSERT INTO rate (tariff_id, {_RATE_COLUMNS}) SELECT :tariff_id, {_RATE_COLUMNS}"
            f" FROM rate_import{upsert}"
        ),
        {"tariff_id": tariff_id},
    )


def _refusal(errors: dict[int, list[str]]) -> DomainError:
    numbers = sorted(errors)
    first = numbers[0]
    shown = numbers[:REPORT_LINES]
    hidden = len(numbers) - len(shown)
    message = (
        f"Nothing was imported: {len(numbers)} line{'s' if len(numbers) > 1 else ''} with problems,"
        f" the first on line {first} ({errors[first][0]})."
    )
    if hidden:
        message += f" The first {REPORT_LINES} are listed; {hidden} more are not shown."
    return DomainError(ErrorId.RATE_CARD_BAD_LINES, message, errors={f"line {n}": errors[n] for n in shown})
