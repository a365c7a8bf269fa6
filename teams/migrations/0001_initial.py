import django.db.models.deletion
import django.db.models.functions.text
import django.utils.timezone
import scoring.validators
from django.db import migrations, models


MODELS = ("board", "team", "rosterplayer", "teammatch", "lineupslot", "teamrules")


def take_content_types(apps, schema_editor):
    """The content types (and so the permissions and admin history) of the models that moved
    here from ``tournaments`` follow them."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="tournaments", model__in=MODELS).update(app_label="teams")


def give_content_types_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="teams", model__in=MODELS).update(app_label="tournaments")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("scoring", "0023_scale_indexes"),
        ("tournaments", "0024_registration_teams_circuits_leave"),
    ]

    # The models that were ``tournaments``' (``tournaments.0024``) with their tables as they are:
    # the state only, nothing in the database.
    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="Board",
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
                        ("number", models.PositiveSmallIntegerField()),
                        (
                            "game",
                            models.OneToOneField(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="team_board",
                                to="scoring.game",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_board",
                        "ordering": ["match", "number"],
                    },
                ),
                migrations.CreateModel(
                    name="Team",
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
                                max_length=80,
                                validators=[scoring.validators.PlainText()],
                                verbose_name="name",
                            ),
                        ),
                        ("seed", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "captain",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="scoring.player",
                            ),
                        ),
                        (
                            "club",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="teams",
                                to="scoring.club",
                            ),
                        ),
                        (
                            "competition",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="teams",
                                to="tournaments.competition",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "team",
                        "verbose_name_plural": "teams",
                        "db_table": "tournaments_team",
                        "ordering": [
                            "competition",
                            models.OrderBy(models.F("seed"), nulls_last=True),
                            "id",
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="RosterPlayer",
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
                            "competition",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="tournaments.competition",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="rosters",
                                to="scoring.player",
                            ),
                        ),
                        (
                            "team",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="roster",
                                to="teams.team",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_rosterplayer",
                        "ordering": ["team", "player__display_name"],
                    },
                ),
                migrations.CreateModel(
                    name="TeamMatch",
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
                        ("round_number", models.PositiveSmallIntegerField()),
                        ("number", models.PositiveSmallIntegerField()),
                        ("leg", models.PositiveSmallIntegerField(default=1)),
                        ("date", models.DateField(blank=True, null=True, verbose_name="date")),
                        (
                            "start_time",
                            models.TimeField(blank=True, null=True, verbose_name="start time"),
                        ),
                        ("bracket_slot", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("home_score", models.PositiveIntegerField(blank=True, null=True)),
                        ("away_score", models.PositiveIntegerField(blank=True, null=True)),
                        ("confirmed_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "away",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="away_matches",
                                to="teams.team",
                            ),
                        ),
                        (
                            "competition",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="team_matches",
                                to="tournaments.competition",
                            ),
                        ),
                        (
                            "home",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="home_matches",
                                to="teams.team",
                            ),
                        ),
                        (
                            "venue",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="scoring.club",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "team match",
                        "verbose_name_plural": "team matches",
                        "db_table": "tournaments_teammatch",
                        "ordering": ["competition", "round_number", "number"],
                    },
                ),
                migrations.CreateModel(
                    name="LineupSlot",
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
                            "side",
                            models.CharField(
                                choices=[("home", "home"), ("away", "away")], max_length=4
                            ),
                        ),
                        ("position", models.PositiveSmallIntegerField()),
                        (
                            "board",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="lineup",
                                to="teams.board",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="lineup_slots",
                                to="scoring.player",
                            ),
                        ),
                        (
                            "match",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="teams.teammatch",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournaments_lineupslot",
                        "ordering": ["board", "side", "position"],
                    },
                ),
                migrations.AddField(
                    model_name="board",
                    name="match",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="boards",
                        to="teams.teammatch",
                    ),
                ),
                migrations.CreateModel(
                    name="TeamRules",
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
                            "boards",
                            models.PositiveSmallIntegerField(
                                default=3, verbose_name="boards per match"
                            ),
                        ),
                        (
                            "players_per_board",
                            models.PositiveSmallIntegerField(
                                default=2, verbose_name="players per side at a board"
                            ),
                        ),
                        (
                            "result_by",
                            models.CharField(
                                choices=[
                                    ("boards", "boards won"),
                                    ("games", "games won"),
                                    ("card_points", "card points"),
                                ],
                                default="boards",
                                max_length=12,
                                verbose_name="match result by",
                            ),
                        ),
                        (
                            "win_points",
                            models.PositiveSmallIntegerField(
                                default=1, verbose_name="points for a won match"
                            ),
                        ),
                        (
                            "draw_points",
                            models.PositiveSmallIntegerField(
                                default=0, verbose_name="points for a drawn match"
                            ),
                        ),
                        (
                            "loss_points",
                            models.PositiveSmallIntegerField(
                                default=0, verbose_name="points for a lost match"
                            ),
                        ),
                        (
                            "lineup_may_change",
                            models.BooleanField(
                                default=False,
                                verbose_name="the lineup may change between games of a match",
                            ),
                        ),
                        (
                            "lots_seed",
                            models.CharField(
                                blank=True,
                                max_length=40,
                                verbose_name="seed of the drawing of lots",
                            ),
                        ),
                        (
                            "competition",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="team_rules",
                                to="tournaments.competition",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "team rules",
                        "verbose_name_plural": "team rules",
                        "db_table": "tournaments_teamrules",
                    },
                ),
                migrations.AddConstraint(
                    model_name="team",
                    constraint=models.UniqueConstraint(
                        models.F("competition"),
                        django.db.models.functions.text.Lower("name"),
                        name="team_name_unique",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="rosterplayer",
                    constraint=models.UniqueConstraint(
                        fields=("competition", "player"),
                        name="roster_player_one_team_per_competition",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="teammatch",
                    constraint=models.UniqueConstraint(
                        fields=("competition", "round_number", "number"),
                        name="team_match_number_unique",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="teammatch",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("home", models.F("away")), _negated=True),
                        name="team_match_two_teams",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="teammatch",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("round_number__gte", 1)), name="team_match_round"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="lineupslot",
                    constraint=models.UniqueConstraint(
                        fields=("board", "side", "position"), name="lineup_slot_unique"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="lineupslot",
                    constraint=models.UniqueConstraint(
                        fields=("match", "player"), name="lineup_player_one_board_per_match"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="lineupslot",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("side__in", ["home", "away"])), name="lineup_side_valid"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="board",
                    constraint=models.UniqueConstraint(
                        fields=("match", "number"), name="board_number_unique"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="teamrules",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("boards__gte", 1), ("boards__lte", 8)),
                        name="team_rules_boards_range",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="teamrules",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("players_per_board__in", (1, 2))),
                        name="team_rules_players_per_board",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="teamrules",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("result_by__in", ["boards", "games", "card_points"])),
                        name="team_rules_result_by_valid",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="teamrules",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("draw_points__gte", models.F("loss_points")),
                            ("win_points__gte", models.F("draw_points")),
                        ),
                        name="team_rules_points_ordered",
                    ),
                ),
            ],
        ),
        migrations.RunPython(take_content_types, give_content_types_back),
    ]
