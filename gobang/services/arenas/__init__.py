"""Arenas on the server: scheduling them, entries, the tick that starts, pairs and ends them,
and their standings derived from their stored games. The rules themselves are the pure
gobang.services.tournaments; docs/tournaments.md says how a host runs one."""
