"""Invariants over generated hands (hypothesis): zero sums, determinism, and robustness."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.rules import RULESETS, RuleViolation, engine

from .helpers import new_game

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def soloist_hand(draw, key, n):
    dealer = draw(st.integers(0, n - 1))
    if draw(st.booleans()) and draw(st.booleans()):
        return n, {"dealer": dealer, "outcome": "passed_out"}
    idle = dealer if n == 4 else None
    soloist = draw(st.sampled_from([s for s in range(n) if s != idle]))
    top = 11 if key == "terziglio" else 35
    points = draw(st.integers(0, top))
    sweep = "none"
    if points == top:
        sweep = draw(st.sampled_from(["none", "soloist"]))
    elif points == 0:
        sweep = draw(st.sampled_from(["none", "opponents"]))
    doc = {
        "dealer": dealer,
        "outcome": "played",
        "soloist": soloist,
        "soloist_points": points,
        "sweep": sweep,
    }
    if key == "terziglio":
        doc["contract"] = draw(
            st.sampled_from(["chiamo", "solo", "solissimo", "dividete", "scegliete"])
        )
    return n, doc


@st.composite
def chiamata_hand(draw):
    n = draw(st.sampled_from([5, 6]))
    dealer = draw(st.integers(0, n - 1))
    active = [s for s in range(n) if not (n == 6 and s == dealer)]
    points = draw(st.integers(0, 120).filter(lambda p: p not in (1, 119)))
    return n, {
        "dealer": dealer,
        "outcome": "played",
        "caller": draw(st.sampled_from(active)),
        "partner": draw(st.sampled_from(active)),
        "target": draw(st.integers(61, 120)),
        "caller_points": points,
    }


ZERO_SUM = st.one_of(
    st.integers(3, 4)
    .flatmap(lambda n: soloist_hand("terziglio", n))
    .map(lambda x: ("terziglio", *x)),
    st.integers(3, 4)
    .flatmap(lambda n: soloist_hand("calabrasella", n))
    .map(lambda x: ("calabrasella", *x)),
    chiamata_hand().map(lambda x: ("briscola_chiamata", *x)),
)


@SETTINGS
@given(ZERO_SUM, st.booleans())
def test_zero_sum_games_sum_to_zero_for_every_valid_hand(case, idle_pays):
    key, n, document = case
    options = {"sitting_out_dealer_pays": idle_pays} if key != "briscola_chiamata" else {}
    game = engine.play(new_game(key, n, options), document)
    assert sum(game.hands[0].deltas) == 0
    assert len(game.hands[0].deltas) == n
    idle = RULESETS[key].sitting_out(document["dealer"], n)
    if idle is not None and not idle_pays:
        assert game.hands[0].deltas[idle] == 0


@SETTINGS
@given(st.lists(ZERO_SUM, min_size=1, max_size=12))
def test_scoring_and_recomputation_are_deterministic(cases):
    key, n, _ = cases[0]
    documents = [dict(doc) for k, m, doc in cases if (k, m) == (key, n)]
    game = new_game(
        key,
        n,
        {"free_dealer": True, "max_hands": None}
        if key == "terziglio"
        else {"free_dealer": True, "deals": 200},
    )
    try:
        first = engine.replay(game.ruleset, game.options, n, documents)
    except RuleViolation:
        return  # the game ended before the last document: a correct refusal, checked elsewhere
    second = engine.replay(game.ruleset, game.options, n, [h.document for h in first.hands])
    assert first == second
    assert first.totals == tuple(map(sum, zip(*(h.deltas for h in first.hands), strict=True)))


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 130)
    | st.floats(allow_nan=False)
    | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=8), children, max_size=6)
    ),
    max_leaves=20,
)
KEYS = sorted(
    {
        "dealer",
        "outcome",
        "soloist",
        "contract",
        "soloist_points",
        "soloist_cards",
        "sweep",
        "went_out",
        "cards_left",
        "penalties",
        "points",
        "caller",
        "partner",
        "target",
        "caller_points",
        "seat",
        "court",
        "tens",
        "other",
        "aces",
        "thirds",
        "counters",
        "last_trick",
    }
)
VALUES = st.one_of(
    st.integers(-1, 121),
    st.sampled_from(["played", "passed_out", "solo", "none", "soloist", "opponents", "chiamo"]),
    st.booleans(),
    st.none(),
    st.lists(st.integers(0, 120), max_size=6),
    st.lists(
        st.fixed_dictionaries(
            {"seat": st.integers(0, 8)},
            optional={
                "court": st.integers(0, 20),
                "tens": st.integers(0, 5),
                "other": st.integers(0, 40),
                "points": st.integers(0, 500),
            },
        ),
        max_size=8,
    ),
    st.fixed_dictionaries(
        {},
        optional={
            "aces": st.integers(0, 5),
            "thirds": st.integers(0, 21),
            "counters": st.integers(0, 21),
            "last_trick": st.booleans(),
        },
    ),
    JSON,
)
NEAR_VALID = st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=8)


@SETTINGS
@given(st.sampled_from(sorted(RULESETS)), st.data(), st.one_of(NEAR_VALID, JSON))
def test_any_document_gives_a_score_or_a_rule_violation_and_nothing_else(key, data, document):
    rules = RULESETS[key]
    n = data.draw(st.integers(rules.min_seats, rules.max_seats))
    game = new_game(key, n, {"free_dealer": data.draw(st.booleans())})
    if data.draw(st.booleans()) and game.ruleset.key != "briscola":
        game = engine.play(
            game,
            {"dealer": 0, "outcome": "passed_out"}
            if key != "turkish"
            else {
                "dealer": 0,
                "went_out": 0,
                "penalties": [{"seat": s, "points": 5} for s in range(1, n)],
            },
        )
    try:
        after = engine.play(game, document)
    except RuleViolation as violation:
        assert violation.problems and all(p.hand == len(game.hands) + 1 for p in violation.problems)
    else:
        assert len(after.hands[-1].deltas) == n


@SETTINGS
@given(
    st.sampled_from(sorted(RULESETS)),
    st.one_of(st.dictionaries(st.text(max_size=20), JSON, max_size=5), JSON),
    st.integers(0, 9),
)
def test_any_options_give_resolved_options_or_a_rule_violation(key, options, n):
    try:
        RULESETS[key].resolve_options(options, n)
    except RuleViolation as violation:
        assert all(p.field.startswith(("options", "players")) for p in violation.problems)


@SETTINGS
@given(
    st.one_of(
        JSON,
        st.fixed_dictionaries(
            {
                "ruleset": st.sampled_from([*RULESETS, "x"]),
                "players": st.lists(st.text(max_size=3) | st.integers(-1, 3), max_size=9),
            },
            optional={"options": JSON, "hands": st.lists(NEAR_VALID, max_size=3)},
        ),
    )
)
def test_any_game_document_gives_a_scored_game_or_a_rule_violation(document):
    try:
        game, players = engine.score_document(document, RULESETS)
    except RuleViolation as violation:
        assert violation.problems
    else:
        assert len(players) == game.n
