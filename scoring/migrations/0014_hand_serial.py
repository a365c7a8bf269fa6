"""A hand's identity: ``Hand.serial``, given when it is entered and never changed (its number moves
when an earlier hand is removed), ``Game.last_hand_serial`` so that none is given twice, and
``AuditEvent.hand_serial`` so that a hand's history follows the hand, not its number.

Existing games get their serials by reading their trail in order (``serials``): every hand
entered gets the next serial, a removal or an undo takes the hand out of the numbering; the
serial of each event's hand is written into the event. That one write to the permanent audit
table goes through ``scoring.permanent.unlocked``. A game whose trail does not account for its
hands (none should) keeps its numbers as serials and its events their numbers.
"""

from django.db import migrations, models

from scoring import permanent

NUMBERED = {"record_hand", "correct_hand", "accept_hand", "reject_hand", "remove_hand", "undo_hand"}


class Untold(Exception):
    """The trail does not account for the game's hands."""


def serials(events, hand_count: int) -> tuple[dict[int, int], list[int], int]:
    """``({event id: serial}, serials of the hands now in the game in number order, the last
    serial given)`` from a game's events in order."""
    alive: list[int] = []
    given = 0
    of_event: dict[int, int] = {}
    index = 0
    while index < len(events):
        event = events[index]
        if event.action in ("start_game", "import_game"):
            count = len((event.after or {}).get("hands") or [])
            alive, given = list(range(1, count + 1)), count
        elif event.action == "record_hand":
            if event.hand_number != len(alive) + 1:
                raise Untold
            given += 1
            alive.append(given)
            of_event[event.id] = given
        elif event.action in ("remove_hand", "undo_hand"):
            # One removal, or the hands removed together (same moment): numbered before any of
            # them left.
            group = [event]
            while (
                index + 1 < len(events)
                and events[index + 1].action == "remove_hand"
                and event.action == "remove_hand"
                and events[index + 1].at == event.at
            ):
                index += 1
                group.append(events[index])
            gone = set()
            for removal in group:
                if not 1 <= removal.hand_number <= len(alive):
                    raise Untold
                of_event[removal.id] = alive[removal.hand_number - 1]
                gone.add(removal.hand_number)
            alive = [s for number, s in enumerate(alive, start=1) if number not in gone]
        elif event.action in NUMBERED:
            if not 1 <= event.hand_number <= len(alive):
                raise Untold
            of_event[event.id] = alive[event.hand_number - 1]
        index += 1
    if len(alive) != hand_count:
        raise Untold
    return of_event, alive, given


def give_serials(apps, schema_editor):
    Game = apps.get_model("scoring", "Game")
    Hand = apps.get_model("scoring", "Hand")
    AuditEvent = apps.get_model("scoring", "AuditEvent")
    with permanent.unlocked(schema_editor.connection):
        for game in Game.objects.order_by("pk").iterator():
            hands = list(Hand.objects.filter(game_id=game.pk).order_by("number"))
            events = list(AuditEvent.objects.filter(game_id=game.pk).order_by("at", "id"))
            try:
                of_event, alive, given = serials(events, len(hands))
            except Untold:
                of_event = {e.id: e.hand_number for e in events if e.action in NUMBERED}
                alive, given = [h.number for h in hands], len(hands)
            for hand, serial in zip(hands, alive, strict=True):
                hand.serial = serial
            Hand.objects.bulk_update(hands, ["serial"], batch_size=1000)
            changed = [e for e in events if e.id in of_event]
            for event in changed:
                event.hand_serial = of_event[event.id]
            AuditEvent.objects.bulk_update(changed, ["hand_serial"], batch_size=1000)
            Game.objects.filter(pk=game.pk).update(last_hand_serial=max(given, *alive, 0))


class Migration(migrations.Migration):
    dependencies = [("scoring", "0013_every_game_has_a_table_link")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="last_hand_serial",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="hand",
            name="serial",
            field=models.PositiveIntegerField(default=0),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="auditevent",
            name="hand_serial",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(give_serials, migrations.RunPython.noop),
        # On SQLite an added column may rebuild the table, and its triggers with it.
        migrations.RunPython(*permanent.installer("scoring_auditevent")),
    ]
