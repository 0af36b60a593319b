"""Swiss events on the server: their stored rounds, the leader's tick that starts them, pairs
each round and finishes them, and what their pages show. The pairing and the standings are
the pure gobang.services.tournaments (swiss.py, swiss_event.py); scheduling, entries and the
start of games are the arenas' (gobang/services/arenas). docs/tournaments.md says how a host
runs one."""
