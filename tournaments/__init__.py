"""Clubs' competitions: leagues and tournaments, rounds, tables, schedules and standings."""
