from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0025_stage_lengths")]

    operations = [
        migrations.AddField(
            model_name="competition",
            name="results_requeued_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="round",
            name="results_requeued_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
