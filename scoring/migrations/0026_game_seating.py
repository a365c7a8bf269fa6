from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0025_push_subscriptions'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='seating',
            field=models.PositiveIntegerField(default=1),
        ),
    ]
