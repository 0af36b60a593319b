"""Players and the players they choose: who they follow (follows.py), whose challenges, chat
and pairings they keep away (blocks.py). The hall and the rooms ask; nothing here asks them."""
