"""The computer as a player: engine processes thinking for its side of live games."""
