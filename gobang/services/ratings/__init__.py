"""Ratings per category (ruleset x speed), Glicko-2 as lichess runs it: the arithmetic
(glicko2.py) and which category a game counts in (categories.py)."""
