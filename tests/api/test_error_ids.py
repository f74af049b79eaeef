"""Every refusal has one stable id, and docs/api.md lists them as the code defines them."""

import re
from pathlib import Path

from core.values.errors import ErrorId, Kind
from portal_api.errors import STATUS_OF_KIND

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
ROW = re.compile(r"^\| `([a-z_.]+)` \| (\d{3}) \| (.+) \|$")


def _documented() -> list[tuple[str, int, str]]:
    section = API_DOC.read_text().split("## Error ids", 1)[1].split("\n## ", 1)[0]
    return [(m[1], int(m[2]), m[3]) for line in section.splitlines() if (m := ROW.match(line))]


def test_the_api_doc_lists_every_error_id_with_its_status_and_meaning() -> None:
    defined = [(e.id, STATUS_OF_KIND[e.kind], e.meaning) for e in ErrorId]
    # On a difference, paste the rows the code defines into docs/api.md ("Error ids"), in this order.
    assert _documented() == defined, "\n".join(f"| `{i}` | {s} | {m} |" for i, s, m in defined)


def test_each_id_is_written_as_its_name_in_the_code() -> None:
    # `ErrorId.ROW_IN_USE` at a raise site reads as the id `row.in_use` the doc lists.
    assert [e.name for e in ErrorId] == [e.id.upper().replace(".", "_") for e in ErrorId]


def test_every_kind_answers_a_status() -> None:
    assert set(STATUS_OF_KIND) == set(Kind)
