"""Finished games: records, record files and the players' pages."""
