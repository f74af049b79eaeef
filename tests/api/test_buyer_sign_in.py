"""A buyer's sign-in, as its customer sees it (docs/security.md, "Adding a buyer"): the row says
whether this buyer can sign in, an invitation by mail lets the person choose a password, a password
set on the form makes the sign-in; deleting a buyer never takes a sign-in that is not its own."""

from sqlmodel import select

from core.infra.db import session_scope
from core.models import Buyer, User
from testkit.actors import Actor
from tests.api.test_account_enumeration import _signs_in
from tests.api.test_buyers_targets import BUYER, make_buyer


def _row(client, actor: Actor, buyer_id: int) -> dict:
    rows = client.get("/api/buyer/details", headers=actor.headers).json()["data"]["data"]
    return next(r for r in rows if r["id"] == buyer_id)


def test_a_buyer_whose_address_has_an_account_says_it_has_no_sign_in_and_deleting_it_keeps_the_other(
    client, customer_a: Actor, customer_b: Actor, mailer
) -> None:
    first = make_buyer(client, customer_a)
    assert first["sign_in"] == "active" and first["invited_at"] is None
    # The same address again: saved (the answer tells nothing of other accounts), but this row says the truth.
    second = make_buyer(client, customer_a, name="Acme Plumbing (again)")
    assert second["sign_in"] == "none"
    taken = make_buyer(client, customer_a, name="Bob's desk", email=customer_b.email)
    assert _row(client, customer_a, taken["id"])["sign_in"] == "none"
    # Deleting the duplicate leaves the first buyer's sign-in; deleting the first takes its own only.
    assert client.delete(f"/api/buyer/{second['id']}", headers=customer_a.headers).status_code == 200
    assert _signs_in(client, BUYER["email"], BUYER["password"])
    assert client.delete(f"/api/buyer/{taken['id']}", headers=customer_a.headers).status_code == 200
    assert _signs_in(client, customer_b.email, customer_b.password)


def test_a_password_set_on_a_buyer_without_a_sign_in_makes_one(
    client, customer_a: Actor, customer_b: Actor
) -> None:
    buyer = make_buyer(client, customer_a, email=customer_b.email)
    r = client.put(
        f"/api/buyer/{buyer['id']}",
        json={"email": "desk@acme.example.com", "password": "deskpass12"},
        headers=customer_a.headers,
    )
    assert r.status_code == 200 and r.json()["data"]["sign_in"] == "active", r.text
    assert _signs_in(client, "desk@acme.example.com", "deskpass12")
    assert _signs_in(client, customer_b.email, customer_b.password)  # untouched


def test_an_invitation_mails_a_link_that_sets_the_buyers_password(
    client, customer_a: Actor, customer_b: Actor, buyer_a: Actor, mailer
) -> None:
    with session_scope() as s:  # a buyer saved without a sign-in (its address was taken then)
        buyer = Buyer(user_id=customer_a.id, name="Desk", email="desk@acme.example.com")
        s.add(buyer)
        s.flush()
        buyer_id = buyer.id
    r = client.post(f"/api/buyer/invite/{buyer_id}", headers=customer_a.headers)
    assert r.status_code == 200, r.text
    assert r.json()["message"] == "Invitation sent to desk@acme.example.com."
    row = r.json()["data"]
    assert row["sign_in"] == "invited" and row["invited_at"]
    [(_, to, subject, body)] = mailer
    assert to == "desk@acme.example.com" and "buyer" in subject.lower()
    token = body.split("/reset-password?token=")[1].split()[0]
    assert not _signs_in(client, "desk@acme.example.com", "deskpass12")
    done = client.post("/api/reset-password", json={"token": token, "new_password": "deskpass12"})
    assert done.status_code == 200, done.text
    assert _signs_in(client, "desk@acme.example.com", "deskpass12")
    assert _row(client, customer_a, buyer_id)["sign_in"] == "active"
    # A buyer that can sign in needs no invitation; another tenant's buyer is not found; a buyer can't invite.
    again = client.post(f"/api/buyer/invite/{buyer_id}", headers=customer_a.headers)
    assert again.status_code == 409, again.text
    assert client.post(f"/api/buyer/invite/{buyer_id}", headers=customer_b.headers).status_code == 404
    assert client.post(f"/api/buyer/invite/{buyer_id}", headers=buyer_a.headers).status_code == 403


def test_inviting_an_address_that_has_an_account_answers_alike_and_tells_the_address(
    client, customer_a: Actor, customer_b: Actor, mailer
) -> None:
    buyer = make_buyer(client, customer_a, email=customer_b.email)
    mailer.clear()
    r = client.post(f"/api/buyer/invite/{buyer['id']}", headers=customer_a.headers)
    assert r.status_code == 200 and r.json()["message"] == f"Invitation sent to {customer_b.email}.", r.text
    assert r.json()["data"]["sign_in"] == "invited"
    with session_scope() as s:
        assert s.exec(select(User).where(User.email == customer_b.email)).one().role == 2  # untouched
    assert _signs_in(client, customer_b.email, customer_b.password)
