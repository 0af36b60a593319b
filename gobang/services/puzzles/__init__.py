"""Puzzles from real games: positions where a player had a forced win and did not play it,
harvested from stored analyses, verified, served near the solver's puzzle rating and judged
move by move with the threat search (docs/engines.md, "Puzzles")."""
