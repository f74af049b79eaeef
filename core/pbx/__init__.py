"""Asterisk and its nodes as the other processes see them: ARI over HTTP, which node a call belongs to,
which nodes are up, and the commands sent to the bridge."""
