"""The username skeleton: what a name looks like, so that a new name is refused when it looks
like a taken one. Names are shown as typed, so a capital's own look-alikes count (capital I
is drawn as small l), and unique regardless of case, so a small letter's look-alikes count
whatever case it is typed in."""

from __future__ import annotations

import pytest

from gobang.services.accounts.accounts import username_skeleton


@pytest.mark.parametrize(("one", "other"), [
    ("Iance708", "lance708"),  # capital I is drawn as small l
    ("Ian708", "lan708"),
    ("Ill708", "lIl708"),
    ("IIl", "lll"),
    ("IVAN", "lVAN"),
    ("bob", "BOB"),  # one name in two cases
    ("Iance708", "IANCE708"),
    ("paypal", "paypa1"),
    ("modern", "rnodern"),
    ("MODERN", "rnodern"),  # MODERN is modern, which looks like rnodern
    ("ace", "\u0430\u0441\u0435"),  # all Cyrillic
    ("ACE", "\u0410\u0421\u0415"),  # all Cyrillic capitals
    ("ａｄｍｉｎ", "admin"),  # full-width letters
])
def test_names_that_look_alike_share_a_skeleton(one, other):
    assert username_skeleton(one) == username_skeleton(other)


@pytest.mark.parametrize(("one", "other"), [
    ("iance708", "lance708"),  # small i has its dot
    ("ian708", "lan708"),
    ("Ivan", "Ivana"),
    ("ace", "ace_2"),
    ("Ian", "Jan"),
    ("Ilse", "Else"),
    ("Bill", "Bell"),
    ("Jürgen", "Jurgen"),
    ("Ελένη", "Ελενη"),
    ("李小龍", "李小龙"),
])
def test_names_that_look_different_keep_their_own_skeletons(one, other):
    assert username_skeleton(one) != username_skeleton(other)
