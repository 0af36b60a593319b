"""Tournaments' rules as plain values, no database, no Flask, no sockets: Swiss pairing in
the spirit of FIDE's Dutch system (swiss.py, swiss_event.py), lichess's arena (arena.py),
and the general matching both lean on (matching.py). docs/tournaments.md states the rules."""
