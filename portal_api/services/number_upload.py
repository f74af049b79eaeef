"""CSV uploads of numbers: check every line, import the good ones with COPY, report the skipped
lines and why.

A file-level problem (not CSV, not UTF-8, empty, wrong header, more numbers than
MAX_UPLOAD_ROWS) refuses the whole upload and writes nothing; a bad line is only skipped, with
its reason, in the stored batch report. The answer and the stored report hold the counts and the
skipped lines only: an imported line needs no explaining (a 200,000-line file once answered 14.9 MB).
"""

import csv
import io
from collections.abc import Iterator
from decimal import Decimal
from pathlib import PurePath
from typing import cast

from psycopg import Connection
from psycopg.rows import TupleRow
from sqlalchemy import select
from sqlmodel import Session

from core.infra.settings import get_settings
from core.models import Country, Number, NumberUploadBatch, Vendor
from core.values.errors import DomainError, ErrorId
from core.values.phone import e164_and_region, filing_problem
from portal_api.deps import PageParams
from portal_api.envelope import PageData
from portal_api.schemas.numbers import UploadBatchOut, UploadLine, parse_fee
from portal_api.services.common import page_of, text_filter

COLUMNS = ("number", "country", "vendor", "setup_fee", "monthly_fee")
_COPY = "COPY number (number, country_id, vendor_id, setup_fee, monthly_fee, batch_id) FROM STDIN"
_CSV_TYPES = {"text/csv", "application/csv"}
# Keeps each existence query well under PostgreSQL's bind-parameter limit.
_CHUNK = 5000


class _Skip(Exception):
    """A line is skipped; the message is the reason shown in the report."""


def _text(filename: str, content_type: str | None, content: bytes) -> str:
    if not filename.lower().endswith(".csv") and (content_type or "").split(";")[0] not in _CSV_TYPES:
        raise DomainError(ErrorId.UPLOAD_NOT_CSV, "Upload a .csv file (text/csv).", "file")
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        message = "The file is not UTF-8 text; save it as 'CSV UTF-8' and retry."
        raise DomainError(ErrorId.UPLOAD_NOT_CSV, message, "file") from None
    if "\x00" in text:
        raise DomainError(ErrorId.UPLOAD_NOT_CSV, "The file is binary, not CSV text.", "file")
    return text


def _rows(text: str) -> Iterator[tuple[int, dict[str, str]]]:
    """(line number, cells by column) for every non-blank data line; the header is checked first."""
    reader = csv.reader(io.StringIO(text), strict=True)
    try:
        header = next((row for row in reader if any(cell.strip() for cell in row)), None)
        if header is None:
            raise DomainError(ErrorId.UPLOAD_EMPTY, "The file is empty.", "file")
        names = [cell.strip().lower() for cell in header]
        missing = [c for c in COLUMNS if c not in names]
        if missing:
            raise DomainError(
                ErrorId.UPLOAD_BAD_HEADER,
                f"The first line must name the columns {', '.join(COLUMNS)}; missing: {', '.join(missing)}.",
                "file",
            )
        at = {c: names.index(c) for c in COLUMNS}
        for row in reader:
            if any(cell.strip() for cell in row):
                yield reader.line_num, {c: row[i].strip() if i < len(row) else "" for c, i in at.items()}
    except csv.Error as exc:
        raise DomainError(
            ErrorId.UPLOAD_BAD_CSV, f"Line {reader.line_num} is not valid CSV: {exc}.", "file"
        ) from None


def _countries(session: Session) -> dict[str, Country]:
    """Every country by its ISO alpha-2 and alpha-3 code."""
    found: dict[str, Country] = {}
    for country in session.scalars(select(Country)):
        found[country.iso2] = found[country.iso3] = country
    return found


class _Lookups:
    """Countries, vendors and numbers already stored, loaded once per file instead of once per line."""

    def __init__(self, session: Session, countries: dict[str, Country], numbers: set[str]) -> None:
        self.countries = countries
        self.vendors: dict[str, Vendor] = {}
        for vendor in session.scalars(select(Vendor)):
            self.vendors[str(vendor.id)] = self.vendors[vendor.name.lower()] = vendor
        self.existing: set[str] = set()
        listed = sorted(numbers)
        for start in range(0, len(listed), _CHUNK):
            chunk = listed[start : start + _CHUNK]
            self.existing.update(session.scalars(select(Number.number).where(Number.number.in_(chunk))))

    def country_id(self, number: str, region: str | None, code: str) -> int | None:
        if not code:
            # Not given: the number's own country (none for non-geographic numbers such as +800).
            found = self.countries.get(region or "")
            return found.id if found else None
        country = self.countries.get(code.upper())
        if country is None:
            raise _Skip(f"unknown country {code!r}")
        problem = filing_problem(number, region, country.iso2)
        if problem:
            raise _Skip(problem)
        return country.id

    def vendor_id(self, name: str) -> int | None:
        if not name:
            return None
        vendor = self.vendors.get(name.lower())
        if vendor is None:
            raise _Skip(f"unknown vendor {name!r}")
        return vendor.id


def _e164(raw: str, country: Country | None) -> tuple[str, str | None] | _Skip:
    """The number in E.164 and its region; a number written without '+' is read as its country
    column's national number (020 7946 0713 in GB) when that column names one, else as E.164
    digits without the '+' (442079460713)."""
    try:
        if country is not None and not raw.lstrip().startswith(("+", "00")):
            try:
                return e164_and_region(raw, country.iso2)
            except ValueError:
                pass  # not national after all: read as international digits below
        return e164_and_region(raw)
    except ValueError as exc:
        return _Skip(f"invalid E.164: {exc}")


def _fee(cells: dict[str, str], column: str) -> Decimal:
    try:
        return parse_fee(cells[column] or "0")
    except ValueError as exc:
        raise _Skip(f"bad fee: {column} {exc}") from None


def _refuse_over_cap(count: int) -> None:
    cap = get_settings().max_upload_rows
    if count > cap:
        message = f"The file has {count:,} numbers; a file takes at most {cap:,}; split it."
        raise DomainError(ErrorId.UPLOAD_TOO_MANY_LINES, message, "file")


def import_csv(
    session: Session, filename: str, content_type: str | None, content: bytes, uploaded_by: int | None
) -> tuple[NumberUploadBatch, list[UploadLine]]:
    """Import the valid lines of an uploaded CSV and store the batch with its skipped lines;
    committed. Returns the batch and the skipped lines."""
    lines = list(_rows(_text(filename, content_type, content)))
    _refuse_over_cap(len(lines))
    if not lines:
        raise DomainError(ErrorId.UPLOAD_EMPTY, "The file has a header but no numbers.", "file")
    countries = _countries(session)
    rows = [
        (line, cells, _e164(cells["number"], countries.get(cells["country"].upper())))
        for line, cells in lines
    ]
    lookups = _Lookups(session, countries, {parsed[0] for _, _, parsed in rows if isinstance(parsed, tuple)})
    first_seen: dict[str, int] = {}
    skipped: list[UploadLine] = []
    new: list[tuple[str, int | None, int | None, Decimal, Decimal]] = []
    for line, cells, parsed in rows:
        try:
            if isinstance(parsed, _Skip):
                raise parsed
            number, region = parsed
            if number in first_seen:
                raise _Skip(f"duplicate of line {first_seen[number]}")
            first_seen[number] = line
            if number in lookups.existing:
                raise _Skip("duplicate: already in the inventory")
            new.append(
                (
                    number,
                    lookups.country_id(number, region, cells["country"]),
                    lookups.vendor_id(cells["vendor"]),
                    _fee(cells, "setup_fee"),
                    _fee(cells, "monthly_fee"),
                )
            )
        except _Skip as skip:
            skipped.append(UploadLine(line=line, number=cells["number"], status="skipped", reason=str(skip)))
    batch = NumberUploadBatch(
        uploaded_by=uploaded_by,
        # Browsers may send a path; only the file's own name is kept.
        filename=PurePath(filename.replace("\\", "/")).name[:255] or "upload.csv",
        total=len(rows),
        imported=len(new),
        skipped=len(skipped),
        lines=[s.model_dump() for s in skipped],
    )
    session.add(batch)
    session.flush()
    if new:
        # The psycopg connection under the session: the COPY is part of the batch's transaction.
        raw = cast(Connection[TupleRow], session.connection().connection.driver_connection)
        with raw.cursor() as cursor, cursor.copy(_COPY) as copy:
            for row in new:
                copy.write_row((*row, batch.id))
    session.commit()
    return batch, skipped


def batches_page(session: Session, pg: PageParams) -> PageData[UploadBatchOut]:
    """Past uploads with their counts, newest first; `params` matches the file name."""
    stmt = text_filter(select(NumberUploadBatch), pg.params, NumberUploadBatch.filename)
    return page_of(session, stmt.order_by(NumberUploadBatch.id.desc()), pg, UploadBatchOut.model_validate)
