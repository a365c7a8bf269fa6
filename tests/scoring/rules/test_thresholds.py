"""The thresholds a reader looks for are named where the rules use them, and say what the
specification says: Briscola's 61 of 120, Terziglio's 6 of 11 and Calabrasella's 18 of 35
(docs/rules/ cites the names). Pure: no database."""

from scoring.rules import briscola, calabrasella, get, terziglio


def test_briscola_is_won_with_61_of_120_and_60_all_is_drawn():
    assert (briscola.TOTAL_POINTS, briscola.WINNING_POINTS) == (120, 61)
    rules = get("briscola")
    options = rules.resolve_options({}, 2)
    assert rules.winner([61, 59], options) == 0
    assert rules.winner([59, 61], options) == 1
    assert rules.winner([60, 60], options) is None


def test_briscola_over_60_needs_61_at_a_table_of_three():
    rules = get("briscola")
    options = rules.resolve_options({"individual_win_rule": "over_60"}, 3)
    assert rules.winner([61, 30, 29], options) == 0
    assert rules.winner([60, 40, 20], options) is None


def test_calabrasella_soloist_wins_with_18_of_35():
    assert (calabrasella.TOTAL_POINTS, calabrasella.WINNING_POINTS) == (35, 18)
    rules = get("calabrasella")
    options = rules.resolve_options({}, 3)
    paid = {p: rules.payment(options, None, p, "") for p in range(36)}
    assert paid[calabrasella.WINNING_POINTS] == 1 and paid[calabrasella.WINNING_POINTS - 1] == -1
    assert all((paid[p] > 0) == (p >= calabrasella.WINNING_POINTS) for p in paid)
    assert paid[0] + paid[35] == 0


def test_terziglio_soloist_makes_the_contract_with_6_of_11():
    assert (terziglio.TOTAL_POINTS, terziglio.WINNING_POINTS) == (11, 6)
    rules = get("terziglio")
    options = rules.resolve_options({}, 3)
    paid = {p: rules.payment(options, "chiamo", p, "none") for p in range(12)}
    assert paid[terziglio.WINNING_POINTS] == 1 and paid[terziglio.WINNING_POINTS - 1] == -1
    assert all((paid[p] > 0) == (p >= terziglio.WINNING_POINTS) for p in paid)
    assert paid[0] == -paid[11] == -3  # all the points, no sweep: ×3


def test_the_rules_documents_name_the_thresholds():
    from pathlib import Path

    docs = Path(__file__).resolve().parents[3] / "docs" / "rules"
    assert "`WINNING_POINTS` in `scoring/rules/briscola.py`" in (docs / "briscola.md").read_text()
    assert (
        "`WINNING_POINTS` in `scoring/rules/calabrasella.py`"
        in (docs / "calabrasella.md").read_text()
    )
    assert "`WINNING_POINTS` in `scoring/rules/terziglio.py`" in (docs / "terziglio.md").read_text()
