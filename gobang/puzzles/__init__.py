"""The puzzles page and its API: thin views over gobang.services.puzzles."""
