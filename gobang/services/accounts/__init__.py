"""Accounts: users, passwords and sign-in."""
