"""The analysis board: any position of any ruleset, checked by the rules, and the engine's
view of it from a worker process (docs/protocol.md, "Analysis board")."""
