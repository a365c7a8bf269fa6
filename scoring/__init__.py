"""Scorekeeping at the table: clubs, players, games, hands and their corrections."""
