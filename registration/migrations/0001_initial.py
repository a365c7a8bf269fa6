import django.db.models.deletion
import django.db.models.functions.text
import django.utils.timezone
import scoring.validators
from django.conf import settings
from django.db import migrations, models


MODELS = ("checkinwindow", "registration", "registrationlink", "registrationsettings")


def take_content_types(apps, schema_editor):
    """The content types (and so the permissions and admin history) of the models that moved
    here from ``tournaments`` follow them."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="tournaments", model__in=MODELS).update(
        app_label="registration"
    )


def give_content_types_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="registration", model__in=MODELS).update(
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
                    name="CheckInWindow",
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
                        ("opened_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("closes_at", models.DateTimeField()),
                        (
                            "round",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="check_in_window",
                                to="tournaments.round",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_checkinwindow",
                    },
                ),
                migrations.CreateModel(
                    name="Registration",
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
                            "status",
                            models.CharField(
                                choices=[
                                    ("unconfirmed", "waiting for the e-mail confirmation"),
                                    ("partner", "waiting for the partner"),
                                    ("entered", "entered"),
                                    ("waiting", "on the waiting list"),
                                    ("withdrawn", "withdrawn"),
                                ],
                                default="unconfirmed",
                                max_length=12,
                            ),
                        ),
                        (
                            "name",
                            models.CharField(
                                max_length=80,
                                validators=[scoring.validators.PlainText()],
                                verbose_name="your name",
                            ),
                        ),
                        (
                            "email",
                            models.EmailField(max_length=254, verbose_name="your e-mail address"),
                        ),
                        (
                            "partner_name",
                            models.CharField(
                                blank=True,
                                max_length=80,
                                validators=[scoring.validators.PlainText()],
                                verbose_name="your partner's name",
                            ),
                        ),
                        (
                            "partner_email",
                            models.EmailField(
                                blank=True,
                                max_length=254,
                                verbose_name="your partner's e-mail address",
                            ),
                        ),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("confirmed_at", models.DateTimeField(blank=True, null=True)),
                        ("partner_confirmed_at", models.DateTimeField(blank=True, null=True)),
                        ("position", models.PositiveIntegerField(blank=True, null=True)),
                        ("withdrawn_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "language",
                            models.CharField(
                                blank=True,
                                choices=[("en", "English"), ("fr", "French"), ("it", "Italian")],
                                default="",
                                max_length=8,
                                verbose_name="language",
                            ),
                        ),
                        (
                            "competition",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="registrations",
                                to="tournaments.competition",
                            ),
                        ),
                        (
                            "entry",
                            models.OneToOneField(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="registration",
                                to="tournaments.entry",
                            ),
                        ),
                        (
                            "partner",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="scoring.player",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="scoring.player",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="registrations",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_registration",
                        "ordering": ["competition", "created_at", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="RegistrationLink",
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
                            "purpose",
                            models.CharField(
                                choices=[
                                    ("confirm", "confirm the registration"),
                                    ("partner", "confirm as the partner"),
                                    ("manage", "withdraw or check in"),
                                ],
                                max_length=8,
                            ),
                        ),
                        ("token_hash", models.CharField(max_length=64, unique=True)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("expires_at", models.DateTimeField()),
                        ("used_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "registration",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="links",
                                to="registration.registration",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_registrationlink",
                    },
                ),
                migrations.CreateModel(
                    name="RegistrationSettings",
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
                        ("opens_at", models.DateTimeField(verbose_name="opens")),
                        ("closes_at", models.DateTimeField(verbose_name="closes")),
                        ("capacity", models.PositiveIntegerField(verbose_name="capacity")),
                        (
                            "unit",
                            models.CharField(
                                choices=[("entries", "entries"), ("tables", "tables")],
                                default="entries",
                                max_length=8,
                                verbose_name="counted in",
                            ),
                        ),
                        (
                            "waiting_list",
                            models.BooleanField(
                                default=True, verbose_name="waiting list beyond capacity"
                            ),
                        ),
                        (
                            "eligibility",
                            models.CharField(
                                choices=[
                                    ("members", "members of the club"),
                                    ("accounts", "anyone with an account"),
                                    ("anyone", "anyone with a name and an e-mail address"),
                                ],
                                default="anyone",
                                max_length=10,
                                verbose_name="who may register",
                            ),
                        ),
                        (
                            "note",
                            models.TextField(
                                blank=True,
                                validators=[scoring.validators.PlainText(multiline=True)],
                                verbose_name="note shown on the form",
                            ),
                        ),
                        ("closed_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "competition",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="registration_settings",
                                to="tournaments.competition",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_registrationsettings",
                    },
                ),
                migrations.AddConstraint(
                    model_name="registration",
                    constraint=models.UniqueConstraint(
                        models.F("competition"),
                        django.db.models.functions.text.Lower("email"),
                        condition=models.Q(
                            ("status__in", ["unconfirmed", "partner", "entered", "waiting"])
                        ),
                        name="registration_email_once",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="registration",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(
                            ("status__in", ["unconfirmed", "partner", "entered", "waiting"]),
                            ("user__isnull", False),
                        ),
                        fields=("competition", "user"),
                        name="registration_user_once",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="registration",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            (
                                "status__in",
                                ["unconfirmed", "partner", "entered", "waiting", "withdrawn"],
                            )
                        ),
                        name="registration_status_valid",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="registrationsettings",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("capacity__gte", 1)), name="registration_capacity"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="registrationsettings",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("closes_at__gt", models.F("opens_at"))),
                        name="registration_window",
                    ),
                ),
            ],
        ),
        migrations.RunPython(take_content_types, give_content_types_back),
    ]
