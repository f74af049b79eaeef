"""The notices under the header bell, which billing, webhooks and password resets all write."""
