"""The pages where games are played: the hall and a game's room."""
