"""PURE PYTHON: the numbers behind ratings and player pages, over plain records.

- ``ratings``: OpenSkill (Plackett–Luce) ratings of players from finished games;
- ``players``: a player's results, streaks, activity, head to head and per-game figures;
- ``charts``: the geometry of the rating chart, drawn as SVG by a template.

Like ``scoring.rules``, nothing here imports Django, touches a database or does I/O (the purity
test reads every import); the one package besides the standard library is the rating library,
``openskill``. The selectors (``scoring.selectors.ratings``) turn rows into these records, the
services (``scoring.services.ratings``) store what ``ratings`` computes.
"""
