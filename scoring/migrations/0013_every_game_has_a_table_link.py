"""Every game has its table link from its start (``services.start_game`` makes it), so that no
page creates one when it is read. Games started before that get theirs here."""

import secrets

from django.db import migrations


def give_links(apps, schema_editor):
    Game = apps.get_model("scoring", "Game")
    TableLink = apps.get_model("scoring", "TableLink")
    missing = Game.objects.filter(table_link__isnull=True).values_list("pk", flat=True)
    TableLink.objects.bulk_create(
        TableLink(
            game_id=pk,
            token=secrets.token_urlsafe(18),
            pin=f"{secrets.randbelow(10_000):04d}",
        )
        for pk in missing.iterator()
    )


class Migration(migrations.Migration):
    dependencies = [("scoring", "0012_audit_action_undo_hand")]

    operations = [migrations.RunPython(give_links, migrations.RunPython.noop)]
