"""The Asterisk side: the ARI Stasis app that routes calls, live-call state, call rows."""
