"""Games in play: seating, moves, clocks, what players ask of each other, and the end."""
