"""`%`, `_` and `\\` typed into a search match themselves: every substring search goes through one
helper (portal_api.services.common.contains_text), and no other code builds a LIKE pattern."""

import ast

import pytest

from core.infra.settings import REPO_ROOT
from testkit.actors import Actor
from testkit.rows import seed_calls

VENDORS = ["100% Telecom", "Tele_Com", "TeleXCom", "Back\\slash Ltd", "Plain"]


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("%", ["100% Telecom"]),
        ("_", ["Tele_Com"]),
        ("e_c", ["Tele_Com"]),  # a wildcard `_` would also match "TeleXCom"
        ("\\", ["Back\\slash Ltd"]),
        ("0%_", []),
        ("tele", ["100% Telecom", "TeleXCom", "Tele_Com"]),
    ],
)
def test_list_search_takes_wildcards_literally(client, admin: Actor, typed: str, found: list[str]) -> None:
    for name in VENDORS:
        assert client.post("/api/vendor/add", json={"name": name}, headers=admin.headers).status_code == 201
    page = client.get("/api/vendor/details", params={"params": typed}, headers=admin.headers).json()["data"]
    assert sorted(v["name"] for v in page["data"]) == found


def test_report_and_buyer_report_take_wildcards_literally(client, customer_a: Actor) -> None:
    seed_calls(customer_a, "Spring_Sale", {"caller": "+447911123456"}, {"caller": "+15550100"})

    def report(**params: str) -> int:
        r = client.get("/api/report", params=params, headers=customer_a.headers)
        return int(r.json()["data"]["total"])

    def buyer_report(caller: str) -> int:
        r = client.post("/api/buyer/buyer-report", json={"caller_number": caller}, headers=customer_a.headers)
        return int(r.json()["data"]["total"])

    assert report(caller_number="4_7") == 0 and report(caller_number="%") == 0
    assert report(caller_number="4479") == 1
    assert report(campaign_name="g_s") == 2 and report(campaign_name="gXs") == 0
    assert report(campaign_name="Spring%") == 0
    assert buyer_report("4_7") == 0 and buyer_report("%") == 0 and buyer_report("4479") == 1


def test_no_code_but_the_helper_builds_a_like_pattern() -> None:
    """A second `.ilike(f"%{text}%")` would bring the wildcards back: only the helpers may call LIKE."""
    like_calls = {"like", "ilike", "notlike", "notilike", "contains", "icontains"}
    helpers = {"contains_text", "starts_with_text"}
    found = []
    for folder in ("portal_api", "core", "pbx_bridge", "workers"):
        for path in (REPO_ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text(), str(path))
            for func in ast.walk(tree):
                if isinstance(func, ast.FunctionDef) and func.name not in helpers:
                    found += [
                        f"{path.relative_to(REPO_ROOT)}:{node.lineno}"
                        for node in ast.walk(func)
                        if isinstance(node, ast.Call)
                        and isinstance(node.func, ast.Attribute)
                        and node.func.attr in like_calls
                    ]
    assert found == []
