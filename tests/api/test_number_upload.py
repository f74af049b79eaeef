"""POST /number/vcr and GET /number/vcrs: CSV imports answering counts and the skipped lines, and
files refused whole."""

from decimal import Decimal

import pytest
from sqlmodel import func, select

from core.infra.db import session_scope
from core.infra.settings import Settings, get_settings
from core.models import Country, Number, NumberUploadBatch, Vendor
from core.values.enums import NumberStatus

HEADER = "number,country,vendor,setup_fee,monthly_fee\n"


def _upload(client, actor, content: bytes | str, name: str = "numbers.csv", ctype: str = "text/csv"):
    data = content.encode() if isinstance(content, str) else content
    return client.post("/api/number/vcr", files={"file": (name, data, ctype)}, headers=actor.headers)


def _counts() -> tuple[int, int]:
    with session_scope() as s:
        numbers = s.scalar(select(func.count()).select_from(Number)) or 0
        return numbers, s.scalar(select(func.count()).select_from(NumberUploadBatch)) or 0


def _country(iso2: str) -> int:
    with session_scope() as s:
        return s.scalar(select(Country.id).where(Country.iso2 == iso2))


@pytest.fixture
def acme() -> int:
    with session_scope() as s:
        vendor = Vendor(name="Acme Telecom")
        s.add(vendor)
        s.flush()
        return vendor.id


def test_upload_imports_good_lines_and_reports_the_skipped_ones(client, admin, acme) -> None:
    with session_scope() as s:
        s.add(Number(number="+442071838759"))
    content = (
        "\ufeffNumber, Vendor ,country,setup_fee,monthly_fee,note\n"  # BOM, any order, extra column
        "+442071838750,acme telecom,gb,1.5,2,first\n"
        "442071838751,,,,\n"
        "\n"
        "12345,,GB,0,0\n"
        "+44 20 7183 8750,,GB,0,0\n"
        "+442071838759,,GB,0,0\n"
        "+442071838752,,ZZ,0,0\n"
        "+442071838753,Nobody,GB,0,0\n"
        "+442071838754,,GB,-1,0\n"
        "+442071838755,,GB,0,abc\n"
        "+442071838756,,US,0,0\n"
        f"+12025550143,{acme},USA,0.0001,0\n"
    )
    r = _upload(client, admin, content, name="C:\\exports\\april.csv")
    assert r.status_code == 201, r.text
    assert r.json()["message"] == "Imported 3 of 11 line(s); 8 skipped."
    report = r.json()["data"]
    assert (
        report["filename"],
        report["total"],
        report["imported"],
        report["skipped"],
        report["uploaded_by"],
    ) == (
        "april.csv",
        11,
        3,
        8,
        admin.id,
    )
    # The parser's own wording follows "invalid E.164: " (core.values.phone owns it).
    assert report["lines"][0]["reason"].startswith("invalid E.164: '12345' is not")
    report["lines"][0]["reason"] = "invalid E.164"
    # Imported lines are only counted: the answer explains the lines that need it.
    assert [(x["line"], x["number"], x["status"], x["reason"]) for x in report["lines"]] == [
        (5, "12345", "skipped", "invalid E.164"),
        (6, "+44 20 7183 8750", "skipped", "duplicate of line 2"),
        (7, "+442071838759", "skipped", "duplicate: already in the inventory"),
        (8, "+442071838752", "skipped", "unknown country 'ZZ'"),
        (9, "+442071838753", "skipped", "unknown vendor 'Nobody'"),
        (10, "+442071838754", "skipped", "bad fee: setup_fee can't be negative"),
        (11, "+442071838755", "skipped", 'bad fee: monthly_fee must be an amount such as "12.50"'),
        (12, "+442071838756", "skipped", "+442071838756 is a GB number, not US"),
    ]
    with session_scope() as s:
        batch = s.get(NumberUploadBatch, report["id"])
        assert (batch.total, batch.imported, batch.skipped, len(batch.lines)) == (11, 3, 8, 8)
        assert batch.lines[1] == {
            "line": 6,
            "number": "+44 20 7183 8750",
            "status": "skipped",
            "reason": "duplicate of line 2",
        }
        rows = {n.number: n for n in s.exec(select(Number).where(Number.batch_id == batch.id))}
    assert set(rows) == {"+442071838750", "+442071838751", "+12025550143"}
    first = rows["+442071838750"]
    assert (first.vendor_id, first.country_id, first.setup_fee, first.monthly_fee, first.user_id) == (
        acme,
        _country("GB"),
        Decimal("1.5000"),
        Decimal("2.0000"),
        None,
    )
    # Rows written by COPY get the columns' defaults as any other insert would.
    assert first.status == NumberStatus.ACTIVE.value and first.created_at is not None
    # Blank country: the number's own; blank fees: zero; a vendor may be named by its id.
    assert (rows["+442071838751"].country_id, rows["+442071838751"].setup_fee) == (_country("GB"), Decimal(0))
    assert (rows["+12025550143"].country_id, rows["+12025550143"].vendor_id) == (_country("US"), acme)


def test_past_uploads_are_listed_with_their_counts(client, admin) -> None:
    _upload(client, admin, HEADER + "+442071838750,,,,\n12345,,,,\n", name="first.csv")
    _upload(client, admin, HEADER + "+442071838751,,,,\n", name="second.csv")
    page = client.get("/api/number/vcrs?page=1&perpage=10", headers=admin.headers).json()["data"]
    assert page["total"] == 2
    assert [(b["filename"], b["total"], b["imported"], b["skipped"]) for b in page["data"]] == [
        ("second.csv", 1, 1, 0),
        ("first.csv", 2, 1, 1),
    ]
    assert "lines" not in page["data"][0]
    found = client.get("/api/number/vcrs?params=FIRST", headers=admin.headers).json()["data"]
    assert [b["filename"] for b in found["data"]] == ["first.csv"]


def test_a_file_with_only_bad_lines_still_records_its_report(client, admin) -> None:
    r = _upload(client, admin, HEADER + "nope,,,,\n")
    assert r.status_code == 201 and (r.json()["data"]["imported"], r.json()["data"]["skipped"]) == (0, 1)
    assert _counts() == (0, 1)


@pytest.mark.parametrize(
    ("content", "name", "ctype", "message"),
    [
        (b"PK\x03\x04binary", "numbers.xlsx", "application/vnd.ms-excel", "Upload a .csv file (text/csv)."),
        ((HEADER + "+442071838750,Télécom,,,\n").encode("latin-1"), "n.csv", "text/csv", "not UTF-8"),
        (b"number,country\x00,vendor", "n.csv", "text/csv", "binary, not CSV"),
        (b"", "n.csv", "text/csv", "The file is empty."),
        (b" \n\n ", "n.csv", "text/csv", "The file is empty."),
        (b',,,\n""\n', "n.csv", "text/csv", "The file is empty."),
        (HEADER.encode(), "n.csv", "text/csv", "The file has a header but no numbers."),
        (
            b"number,country,setup_fee\n+442071838750,GB,1\n",
            "n.csv",
            "text/csv",
            "missing: vendor, monthly_fee",
        ),
        (b"+442071838750,GB,,1,1\n", "n.csv", "text/csv", "The first line must name the columns"),
        ((HEADER + '+442071838750,"GB\n').encode(), "n.csv", "text/csv", "is not valid CSV"),
    ],
)
def test_files_that_are_not_usable_csv_are_refused_whole(
    client, admin, content, name, ctype, message
) -> None:
    r = _upload(client, admin, content, name=name, ctype=ctype)
    assert r.status_code == 422, r.text
    assert message in r.json()["message"] and "file" in r.json()["errors"]
    assert _counts() == (0, 0)


def test_csv_is_recognised_by_its_type_as_well_as_its_name(client, admin) -> None:
    r = _upload(client, admin, HEADER + "+442071838750,,,,\n", name="export", ctype="text/csv; charset=utf-8")
    assert r.status_code == 201 and r.json()["data"]["filename"] == "export"


def test_a_file_over_10_mb_is_refused_with_413(client, admin) -> None:
    line = "+442071838750,GB,,0,0\n"
    big = HEADER + line * (10_000_000 // len(line) + 1)
    r = _upload(client, admin, big)
    assert r.status_code == 413 and "10 MB" in r.json()["message"]
    assert _counts() == (0, 0)


def test_a_file_over_the_row_cap_is_refused_whole(client, admin, monkeypatch) -> None:
    assert Settings.model_fields["max_upload_rows"].default == 100_000
    monkeypatch.setenv("MAX_UPLOAD_ROWS", "3")  # the cap is a setting; a small one keeps this fast
    get_settings.cache_clear()
    try:
        lines = "".join(f"+4420718{i:05d},GB,,0,0\n" for i in range(4))
        over = _upload(client, admin, HEADER + lines)
        at_cap = _upload(client, admin, HEADER + lines.split("\n", 1)[1])
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
    assert over.status_code == 422, over.text
    assert over.json()["message"] == "The file has 4 numbers; a file takes at most 3; split it."
    assert at_cap.status_code == 201 and at_cap.json()["data"]["imported"] == 3
    assert _counts() == (3, 1)


def test_upload_needs_a_file_and_an_admin(client, admin, customer_a, buyer_a) -> None:
    missing = client.post("/api/number/vcr", headers=admin.headers)
    assert missing.status_code == 422 and "file" in missing.json()["errors"]
    for actor in (customer_a, buyer_a):
        assert _upload(client, actor, HEADER + "+442071838750,,,,\n").status_code == 403
        assert client.get("/api/number/vcrs", headers=actor.headers).status_code == 403
    assert _counts() == (0, 0)


def test_national_numbers_are_read_in_their_country_column(client, admin) -> None:
    """`02079460713,GB` is a London number written as Londoners do: the country column says how to read it."""
    content = HEADER + "02079460713,GB,,0,0\n020 7946 0714,GBR,,0,0\n(415) 555-0132,US,,0,0\n12345,GB,,0,0\n"
    r = _upload(client, admin, content)
    assert r.status_code == 201, r.text
    data = r.json()["data"]
    assert (data["imported"], data["skipped"]) == (3, 1), data
    assert [(s["line"], s["number"]) for s in data["lines"]] == [(5, "12345")]
    with session_scope() as s:
        stored = {n.number: n.country_id for n in s.exec(select(Number))}
    assert stored == {
        "+442079460713": _country("GB"),
        "+442079460714": _country("GB"),
        "+14155550132": _country("US"),
    }
