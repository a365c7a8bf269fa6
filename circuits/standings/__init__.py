"""Circuit standings and outlook: pure code (no Django), like ``tournaments.standings``."""
