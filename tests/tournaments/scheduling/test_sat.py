"""The complete SAT search: finds small designs, proves the impossible ones, keeps its budget."""

from itertools import combinations

from tournaments.scheduling import sat
from tournaments.scheduling.sat import Model, solve


def test_it_finds_the_affine_plane_of_order_3_as_4_rounds_of_3_tables():
    rounds = solve(3, 3, 4, 30)
    met = [frozenset(p) for tables in rounds for t in tables for p in combinations(t, 2)]
    assert len(met) == len(set(met)) == 36
    assert all(sorted(p for t in tables for p in t) == list(range(9)) for tables in rounds)
    assert rounds[0] == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]  # symmetry breaking fixes round 1


def test_it_proves_that_6_players_at_tables_of_3_have_one_repeat_free_round_only():
    assert solve(2, 3, 2, 30) is False


def test_it_proves_there_is_no_nearly_kirkman_system_on_12_points():
    assert solve(4, 3, 5, 120) is False


def test_it_gives_up_when_the_time_runs_out():
    assert solve(5, 3, 7, 0.0) is None


def test_without_python_sat_it_says_so_and_returns_nothing(monkeypatch):
    def missing(name):
        raise ImportError(name)

    monkeypatch.setattr(sat, "import_module", missing)
    assert not sat.available()
    assert solve(3, 3, 4, 30) is None


def test_the_model_without_symmetry_breaking_has_fewer_clauses():
    assert len(Model(3, 3, 4, symmetry=False).clauses) < len(Model(3, 3, 4).clauses)


def test_the_background_task_runs_the_search():
    from tournaments.tasks import search_design

    assert search_design.delay(2, 3, 2, 30).get() is False


def test_a_single_table_for_a_single_round_is_found():
    assert solve(1, 3, 1, 30) == [[[0, 1, 2]]]
