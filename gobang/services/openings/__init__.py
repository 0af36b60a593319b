"""Opening rules in play: the steps judged, saved and told (steps.py), as stored (stored.py)."""
