"""Target defaults that routing depends on: the account's time zone, and a target without a trunk
(never dialled, docs/routing.md) said loudly on its row."""

from testkit.actors import Actor
from tests.api.test_buyers_targets import _trunk, make_buyer, make_target


def test_a_new_target_keeps_its_accounts_time_zone_unless_told_otherwise(
    client, customer_a: Actor, admin
) -> None:
    buyer = make_buyer(client, customer_a)
    assert make_target(client, customer_a, buyer["id"])["timezone"] == "Europe/Berlin"  # customer_a's zone
    # An administrator adding it for the customer: the customer's zone, not the administrator's.
    assert make_target(client, admin, buyer["id"], name="Night desk")["timezone"] == "Europe/Berlin"
    assert make_target(client, customer_a, buyer["id"], name="NY desk", timezone="America/New_York")[
        "timezone"
    ] == ("America/New_York")


def test_a_target_without_a_trunk_says_on_its_row_that_it_cannot_be_dialled(
    client, customer_a: Actor
) -> None:
    buyer = make_buyer(client, customer_a)
    make_target(client, customer_a, buyer["id"], name="No trunk")
    make_target(client, customer_a, buyer["id"], name="Dialled", trunk_id=_trunk("outbound"))
    rows = {
        r["name"]: r
        for r in client.get("/api/target/details", headers=customer_a.headers).json()["data"]["data"]
    }
    assert rows["No trunk"]["cannot_dial"] == "No trunk: calls never reach this target until one is set."
    assert rows["Dialled"]["cannot_dial"] is None
