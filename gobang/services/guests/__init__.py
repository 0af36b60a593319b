"""Guests: accounts for visitors who play the computer without registering (guests.py)."""
