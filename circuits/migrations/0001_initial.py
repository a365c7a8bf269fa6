import django.db.models.deletion
import django.utils.timezone
import scoring.validators
from django.conf import settings
from django.db import migrations, models


MODELS = ("circuit", "circuitclub", "circuitcompetition", "circuitevent", "circuitlink")


def take_content_types(apps, schema_editor):
    """The content types (and so the permissions and admin history) of the models that moved
    here from ``tournaments`` follow them."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="tournaments", model__in=MODELS).update(
        app_label="circuits"
    )


def give_content_types_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="circuits", model__in=MODELS).update(
        app_label="tournaments"
    )


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("scoring", "0023_scale_indexes"),
        ("tournaments", "0024_registration_teams_circuits_leave"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    # The models that were ``tournaments``' (``tournaments.0024``) with their tables as they are:
    # the state only, nothing in the database.
    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="Circuit",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "name",
                            models.CharField(
                                max_length=120,
                                validators=[scoring.validators.PlainText()],
                                verbose_name="name",
                            ),
                        ),
                        (
                            "slug",
                            models.SlugField(max_length=60, verbose_name="short name in addresses"),
                        ),
                        (
                            "season",
                            models.CharField(
                                blank=True,
                                max_length=40,
                                validators=[scoring.validators.PlainText()],
                                verbose_name="season",
                            ),
                        ),
                        (
                            "points_table",
                            models.JSONField(blank=True, null=True, verbose_name="points by place"),
                        ),
                        (
                            "best_of",
                            models.PositiveSmallIntegerField(
                                blank=True, null=True, verbose_name="count the best N results"
                            ),
                        ),
                        (
                            "min_events",
                            models.PositiveSmallIntegerField(
                                default=0, verbose_name="minimum attendance to be ranked"
                            ),
                        ),
                        (
                            "public",
                            models.BooleanField(
                                default=True,
                                help_text="Anyone may follow it online.",
                                verbose_name="public",
                            ),
                        ),
                        (
                            "description",
                            models.TextField(
                                blank=True,
                                validators=[scoring.validators.PlainText(multiline=True)],
                                verbose_name="description",
                            ),
                        ),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "club",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="circuits",
                                to="scoring.club",
                            ),
                        ),
                        (
                            "created_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "circuit",
                        "verbose_name_plural": "circuits",
                        "db_table": "tournaments_circuit",
                        "ordering": ["-created_at", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="CircuitClub",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("invited_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("accepted_at", models.DateTimeField(blank=True, null=True)),
                        ("left_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "accepted_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "circuit",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="clubs",
                                to="circuits.circuit",
                            ),
                        ),
                        (
                            "club",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="circuit_places",
                                to="scoring.club",
                            ),
                        ),
                        (
                            "invited_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_circuitclub",
                        "ordering": ["circuit", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="CircuitCompetition",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("added_at", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "added_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "circuit",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="competitions",
                                to="circuits.circuit",
                            ),
                        ),
                        (
                            "competition",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="circuit_places",
                                to="tournaments.competition",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_circuitcompetition",
                        "ordering": ["circuit", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="CircuitEvent",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("action", models.CharField(max_length=32)),
                        ("at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("data", models.JSONField(blank=True, default=dict)),
                        (
                            "actor",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "circuit",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="events",
                                to="circuits.circuit",
                            ),
                        ),
                        (
                            "club",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="scoring.club",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_circuitevent",
                        "ordering": ["at", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="CircuitLink",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("linked_at", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "a",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="scoring.player",
                            ),
                        ),
                        (
                            "b",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="scoring.player",
                            ),
                        ),
                        (
                            "circuit",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="links",
                                to="circuits.circuit",
                            ),
                        ),
                        (
                            "linked_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_circuitlink",
                        "ordering": ["circuit", "id"],
                    },
                ),
                migrations.AddConstraint(
                    model_name="circuit",
                    constraint=models.UniqueConstraint(
                        fields=("club", "slug"), name="circuit_slug_unique_in_club"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="circuit",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("best_of__isnull", True), ("best_of__gte", 1), _connector="OR"
                        ),
                        name="circuit_best_of_min",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="circuitclub",
                    constraint=models.UniqueConstraint(
                        fields=("circuit", "club"), name="circuit_club_once"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="circuitcompetition",
                    constraint=models.UniqueConstraint(
                        fields=("circuit", "competition"), name="circuit_competition_once"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="circuitlink",
                    constraint=models.UniqueConstraint(
                        fields=("circuit", "a", "b"), name="circuit_link_once"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="circuitlink",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("a__lt", models.F("b"))), name="circuit_link_ordered"
                    ),
                ),
            ],
        ),
        migrations.RunPython(take_content_types, give_content_types_back),
    ]
