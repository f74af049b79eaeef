"""GET /country: every signed-in user reads the seeded country list."""


def test_every_signed_in_role_reads_all_countries(client, admin, customer_a, buyer_a) -> None:
    for actor in (admin, customer_a, buyer_a):
        r = client.get("/api/country", headers=actor.headers)
        assert r.status_code == 200, r.text
        rows = r.json()["data"]
        assert len(rows) > 240
        gb = next(c for c in rows if c["iso2"] == "GB")
        assert set(gb) == {"id", "iso2", "iso3", "name", "dial_code"}
        assert (gb["iso3"], gb["name"], gb["dial_code"]) == ("GBR", "United Kingdom", "44")
        names = [c["name"] for c in rows]
        assert names == sorted(names)


def test_country_needs_a_token(client) -> None:
    r = client.get("/api/country")
    assert r.status_code == 401 and r.json()["message"].startswith("Sign in first")
