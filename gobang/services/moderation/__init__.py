"""Keeping the community pleasant: reports (reports.py), moderators' actions and their audit
log (desk.py), and what chat refuses (chat_guard.py: guests, muted players, the host's
words)."""
