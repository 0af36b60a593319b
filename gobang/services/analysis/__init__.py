"""Computer analysis of finished games: requests queued per player, worked through in
processes of their own (never this one's, so live games never wait for it), results stored
in one transaction (docs/engines.md, "Analysis")."""
