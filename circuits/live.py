"""What a circuit announces to the live screens (``scoring.live``): when a competition it counts
has new standings (``tournaments.extensions.STANDINGS_LISTENERS``, after commit), a
``standings`` event on the circuit's own channel (``circuit:<id>``), naming the competition and
its version; its public page fetches the circuit's table again."""

from __future__ import annotations

from circuits.models import CircuitCompetition
from scoring import live


def circuit_channel(circuit_id: int) -> str:
    return f"circuit:{circuit_id}"


def announce_standings(competition_id: int, version: int) -> None:
    circuits = CircuitCompetition.objects.filter(competition_id=competition_id)
    for circuit_id in circuits.values_list("circuit_id", flat=True):
        live.publish(
            circuit_channel(circuit_id),
            "standings",
            {"id": circuit_id, "competition": competition_id, "version": version},
        )
