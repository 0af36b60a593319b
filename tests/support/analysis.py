"""Games for the analysis tests: long enough that a worker can be killed while at work."""

from __future__ import annotations

# Forty moves of the built-in engine against itself (level 5, seeds 3 and 4), no five made.
FORTY_MOVES = [
    (7, 7), (9, 5), (5, 9), (6, 8), (7, 9), (7, 8), (8, 8), (8, 9), (6, 7), (9, 7),
    (9, 6), (6, 6), (5, 7), (4, 7), (5, 8), (5, 6), (5, 10), (5, 11), (7, 6), (8, 5),
    (4, 9), (3, 10), (3, 8), (6, 11), (3, 9), (6, 9), (2, 7), (1, 6), (2, 9), (1, 9),
    (2, 10), (2, 8), (4, 8), (1, 11), (3, 7), (6, 10), (6, 12), (3, 6), (1, 5), (2, 6),
]

# Black has a four-three at move 11 ((7, 8) wins by VCF) and plays (0, 13) instead; white
# blocks. Move 11 is a blunder and a missed VCF.
MISSED_VCF = [
    (7, 5), (7, 4), (7, 6), (0, 0), (7, 7), (0, 3), (5, 8), (14, 14), (6, 8), (14, 11),
    (0, 13), (7, 8), (13, 0),
]
