"""CSV uploads of numbers: check every line, import the good ones, report each line and why.

A file-level problem (not CSV, not UTF-8, empty, wrong header) refuses the whole upload and
writes nothing; a bad line is only skipped, with its reason, in the stored batch report.
"""

import csv
import io
from collections.abc import Iterator
from decimal import Decimal
from pathlib import PurePath
from typing import Any

from sqlalchemy import insert, select
from sqlmodel import Session

from core.models import Country, Number, NumberUploadBatch, Vendor
from core.phone import region_of, region_problem, to_e164
from portal_api.deps import PageParams
from portal_api.errors import field_error
from portal_api.schemas.numbers import UploadBatchOut, UploadLine, parse_fee
from portal_api.services.common import page_of, text_filter

COLUMNS = ("number", "country", "vendor", "setup_fee", "monthly_fee")
# Numbers per file: a 200,000-line file took 244 s and a 14.9 MB answer; this one stays near 10 s.
MAX_ROWS = 10_000
_CSV_TYPES = {"text/csv", "application/csv"}
# Keeps each existence query well under PostgreSQL's bind-parameter limit.
_CHUNK = 5000


class _Skip(Exception):
    """A line is skipped; the message is the reason shown in the report."""


def _text(filename: str, content_type: str | None, content: bytes) -> str:
    if not filename.lower().endswith(".csv") and (content_type or "").split(";")[0] not in _CSV_TYPES:
        raise field_error("file", "Upload a .csv file (text/csv).")
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise field_error("file", "The file is not UTF-8 text; save it as 'CSV UTF-8' and retry.") from None
    if "\x00" in text:
        raise field_error("file", "The file is binary, not CSV text.")
    return text


def _rows(text: str) -> Iterator[tuple[int, dict[str, str]]]:
    """(line number, cells by column) for every non-blank data line; the header is checked first."""
    reader = csv.reader(io.StringIO(text), strict=True)
    try:
        header = next((row for row in reader if any(cell.strip() for cell in row)), None)
        if header is None:
            raise field_error("file", "The file is empty.")
        names = [cell.strip().lower() for cell in header]
        missing = [c for c in COLUMNS if c not in names]
        if missing:
            raise field_error(
                "file",
                f"The first line must name the columns {', '.join(COLUMNS)}; missing: {', '.join(missing)}.",
            )
        at = {c: names.index(c) for c in COLUMNS}
        for row in reader:
            if any(cell.strip() for cell in row):
                yield reader.line_num, {c: row[i].strip() if i < len(row) else "" for c, i in at.items()}
    except csv.Error as exc:
        raise field_error("file", f"Line {reader.line_num} is not valid CSV: {exc}.") from None


class _Lookups:
    """Countries, vendors and numbers already stored, loaded once per file instead of once per line."""

    def __init__(self, session: Session, numbers: set[str]) -> None:
        self.countries: dict[str, Country] = {}
        for country in session.scalars(select(Country)):
            self.countries[country.iso2] = self.countries[country.iso3] = country
        self.vendors: dict[str, Vendor] = {}
        for vendor in session.scalars(select(Vendor)):
            self.vendors[str(vendor.id)] = self.vendors[vendor.name.lower()] = vendor
        self.existing: set[str] = set()
        listed = sorted(numbers)
        for start in range(0, len(listed), _CHUNK):
            chunk = listed[start : start + _CHUNK]
            self.existing.update(session.scalars(select(Number.number).where(Number.number.in_(chunk))))

    def country_id(self, number: str, code: str) -> int | None:
        if not code:
            # Not given: the number's own country (none for non-geographic numbers such as +800).
            found = self.countries.get(region_of(number) or "")
            return found.id if found else None
        country = self.countries.get(code.upper())
        if country is None:
            raise _Skip(f"unknown country {code!r}")
        problem = region_problem(number, country.iso2)
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


def _e164(raw: str) -> str | _Skip:
    try:
        return to_e164(raw)
    except ValueError as exc:
        return _Skip(f"invalid E.164: {exc}")


def _fee(cells: dict[str, str], column: str) -> Decimal:
    try:
        return parse_fee(cells[column] or "0")
    except ValueError as exc:
        raise _Skip(f"bad fee: {column} {exc}") from None


def import_csv(
    session: Session, filename: str, content_type: str | None, content: bytes, uploaded_by: int | None
) -> tuple[NumberUploadBatch, list[UploadLine]]:
    """Import the valid lines of an uploaded CSV and store the batch with its report; committed."""
    lines = list(_rows(_text(filename, content_type, content)))
    if len(lines) > MAX_ROWS:
        raise field_error(
            "file", f"The file has {len(lines):,} numbers; a file takes at most {MAX_ROWS:,}; split it."
        )
    rows = [(line, cells, _e164(cells["number"])) for line, cells in lines]
    if not rows:
        raise field_error("file", "The file has a header but no numbers.")
    lookups = _Lookups(session, {number for _, _, number in rows if isinstance(number, str)})
    first_seen: dict[str, int] = {}
    report: list[UploadLine] = []
    new: list[dict[str, Any]] = []
    for line, cells, number in rows:
        try:
            if isinstance(number, _Skip):
                raise number
            if number in first_seen:
                raise _Skip(f"duplicate of line {first_seen[number]}")
            first_seen[number] = line
            if number in lookups.existing:
                raise _Skip("duplicate: already in the inventory")
            new.append(
                {
                    "number": number,
                    "country_id": lookups.country_id(number, cells["country"]),
                    "vendor_id": lookups.vendor_id(cells["vendor"]),
                    "setup_fee": _fee(cells, "setup_fee"),
                    "monthly_fee": _fee(cells, "monthly_fee"),
                }
            )
            report.append(UploadLine(line=line, number=number, status="imported"))
        except _Skip as skip:
            report.append(UploadLine(line=line, number=cells["number"], status="skipped", reason=str(skip)))
    batch = NumberUploadBatch(
        uploaded_by=uploaded_by,
        # Browsers may send a path; only the file's own name is kept.
        filename=PurePath(filename.replace("\\", "/")).name[:255] or "upload.csv",
        total=len(report),
        imported=len(new),
        skipped=len(report) - len(new),
        lines=[r.model_dump() for r in report],
    )
    session.add(batch)
    session.flush()
    if new:
        session.execute(insert(Number), [{**row, "batch_id": batch.id} for row in new])
    session.commit()
    return batch, report


def batches_page(session: Session, pg: PageParams) -> dict[str, Any]:
    """Past uploads with their counts, newest first; `params` matches the file name."""
    stmt = text_filter(select(NumberUploadBatch), pg.params, NumberUploadBatch.filename)
    return page_of(session, stmt.order_by(NumberUploadBatch.id.desc()), pg, UploadBatchOut.model_validate)
