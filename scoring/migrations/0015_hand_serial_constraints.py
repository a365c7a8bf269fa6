"""A hand's serial is unique in its game, and the audit trail is read by it (in a migration of
its own, once the serials of 0014 are written: PostgreSQL alters a table only without pending
row events)."""

from django.db import migrations, models

from scoring import permanent


class Migration(migrations.Migration):
    dependencies = [("scoring", "0014_hand_serial")]

    operations = [
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.UniqueConstraint(
                fields=("game", "serial"), name="hand_serial_unique_in_game"
            ),
        ),
        migrations.RemoveIndex(model_name="auditevent", name="audit_game_hand"),
        migrations.AddIndex(
            model_name="auditevent",
            index=models.Index(fields=["game", "hand_serial"], name="audit_game_hand_serial"),
        ),
        migrations.RunPython(*permanent.installer("scoring_auditevent")),
    ]
