"""The demo club that ``manage.py loaddemo`` builds: a living club to look around in.

"Circolo Demo" has a dozen players and, for every game the app scores, a finished game and a
game in progress, plus one abandoned game. The hands are made up by small generators, one per
game, that follow that game's rules (the dealer rotation, who sits out, the card points that can
occur); they are drawn from ``random.Random(SEED)``, so every run builds the same club. Some hands
are passed out (where the game has them) and a few were "entered wrong at the table" and then
corrected with a reason, so the history shows corrected hands and their audit trail.

Everything is written through :mod:`scoring.services` as the demo user, exactly as a scorer at
the table would: the services validate every hand again, which checks the generators.

The package: ``plans`` (the club's players and the plan of every game), ``hands`` (the hand
generators and the mistakes), ``club`` (games dealt and entered, the club loaded).
"""

from scoring.demo.club import build_game, deal_game, deal_once, load, plan_typo, summary
from scoring.demo.hands import HAND_MAKERS, PASSING_GAMES, TYPO_MAKERS
from scoring.demo.plans import CLUB_NAME, CLUB_SLUG, PLANS, PLAYER_NAMES, SEED, Plan

__all__ = [
    "CLUB_NAME",
    "CLUB_SLUG",
    "HAND_MAKERS",
    "PASSING_GAMES",
    "PLANS",
    "PLAYER_NAMES",
    "SEED",
    "TYPO_MAKERS",
    "Plan",
    "build_game",
    "deal_game",
    "deal_once",
    "load",
    "plan_typo",
    "summary",
]
