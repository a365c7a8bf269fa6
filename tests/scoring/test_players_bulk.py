"""Several players at once on the club's Players page (a pasted list or a CSV file) and through
the API: all or nothing, refusals naming their line, names the club has reported and not
created twice; a player's e-mail settings, private to the club's organizers."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from scoring import players_list
from scoring import services as scoring
from scoring.models import AuditEvent, Player
from scoring.services import Actor

pytestmark = pytest.mark.django_db

BULK = "/c/uno/players/bulk/"


@pytest.fixture
def organizer(client, olga):
    client.force_login(olga)
    return client


def names(club) -> list[str]:
    return sorted(club.players.values_list("display_name", flat=True))


def csv_file(text: str, *, bom: bool = False, name: str = "players.csv") -> SimpleUploadedFile:
    data = ("\ufeff" if bom else "").encode() + text.encode()
    return SimpleUploadedFile(name, data, content_type="text/csv")


def error_of(answer, field: str) -> str:
    """The error shown next to ``field`` on the page."""
    form = answer.context["bulk"]
    return " ".join(form.errors.get(field, []))


def test_a_pasted_list_adds_its_players_with_their_addresses_and_skips_blank_lines(organizer, club):
    text = "Anna, anna@example.org\n\n  Bruno   Bianchi \nRossi, Mario\nCarla; carla@example.org\n"
    answer = organizer.post(BULK, {"lines": text}, follow=True)
    assert answer.status_code == 200
    assert names(club) == ["Anna", "Bruno Bianchi", "Carla", "Rossi, Mario"]
    assert club.players.get(display_name="Anna").email == "anna@example.org"
    assert club.players.get(display_name="Carla").email == "carla@example.org"
    assert "4 players joined the club." in answer.content.decode()
    event = AuditEvent.objects.filter(club=club, action="add_players").get()
    assert len(event.after["players"]) == 4


def test_names_already_in_the_club_are_reported_and_not_created_twice(organizer, club, olga):
    scoring.add_player(club=club, display_name="Anna", by=Actor.for_user(olga))
    answer = organizer.post(BULK, {"lines": "ANNA\nBruno"}, follow=True)
    assert names(club) == ["Anna", "Bruno"]
    page = answer.content.decode()
    assert "1 player joined the club." in page
    assert "Already in the club, not added again: ANNA." in page


def test_a_name_the_club_has_with_another_case_of_an_accented_letter_is_not_created_twice(
    organizer, club, olga
):
    scoring.add_player(club=club, display_name="Élena", by=Actor.for_user(olga))
    answer = organizer.post(BULK, {"lines": "ÉLENA\nNicolò"}, follow=True)
    assert names(club) == ["Nicolò", "Élena"]
    assert "not added again: ÉLENA." in answer.content.decode()


def test_a_csv_file_with_a_header_semicolons_and_a_bom_adds_addresses_and_languages(
    organizer, club
):
    upload = csv_file("Nome;Lingua;E-mail\nAnna;it;anna@example.org\nBruno;fr;\n\n", bom=True)
    answer = organizer.post(BULK, {"file": upload})
    assert answer.status_code == 302
    anna, bruno = club.players.order_by("display_name")
    assert (anna.display_name, anna.email, anna.language) == ("Anna", "anna@example.org", "it")
    assert (bruno.display_name, bruno.email, bruno.language) == ("Bruno", "", "fr")


def test_a_csv_file_without_a_header_reads_name_email_language_in_order(organizer, club):
    upload = csv_file('Anna,anna@example.org,it\n"Rossi, Mario",,fr\n')
    assert organizer.post(BULK, {"file": upload}).status_code == 302
    assert names(club) == ["Anna", "Rossi, Mario"]
    assert club.players.get(display_name="Rossi, Mario").language == "fr"


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"lines": "Anna\nBruno\nCarla, carla@example\n"}, "lines", "Line 3: carla@example"),
        ({"lines": "Anna\n" + "B" * 81}, "lines", "Line 2: a name has at most 80"),
        ({"lines": "Anna\nBruno\nanna"}, "lines", "Line 3: anna is already on line 1"),
        ({"lines": "Anna\n" + "x" * 201}, "lines", "Line 2 is longer than 200"),
        ({"lines": "\n".join(f"P{i}" for i in range(501))}, "lines", "501 players"),
        ({"lines": " \n\n"}, "lines", "names nobody"),
        ({"file": "name,language\nAnna,it\nBruno,de\n"}, "file", "Line 3: the language"),
        ({"file": "email,language\nanna@example.org,it\n"}, "file", 'none is "name"'),
        ({"file": "name,email\nAnna,not-an-address\n"}, "file", "Line 2: not-an-address"),
        ({"file": "name\n" + "x" * 100_001}, "file", "larger than 100 kB"),
        ({"file": b"name\nNicol\xf2\n"}, "file", "not UTF-8"),
    ],
    ids=[
        "invalid-email",
        "name-too-long",
        "listed-twice",
        "line-too-long",
        "too-many",
        "empty",
        "unknown-language",
        "no-name-column",
        "csv-invalid-email",
        "file-too-big",
        "not-utf8",
    ],
)
def test_a_bad_list_is_refused_next_to_its_field_naming_the_line_and_adds_nobody(
    organizer, club, data, field, words
):
    if "file" in data:
        raw = data["file"]
        data = {
            "file": SimpleUploadedFile("p.csv", raw if isinstance(raw, bytes) else raw.encode())
        }
    answer = organizer.post(BULK, data)
    assert answer.status_code == 400
    assert words in error_of(answer, field)
    assert words in answer.content.decode().replace("&quot;", '"')
    assert names(club) == []
    assert not AuditEvent.objects.filter(club=club, action="add_players").exists()


def test_a_list_and_a_file_at_once_are_refused(organizer, club):
    answer = organizer.post(BULK, {"lines": "Anna", "file": csv_file("Bruno\n")})
    assert answer.status_code == 400 and names(club) == []


def test_a_scorer_may_not_add_players_from_a_list(client, sara, club):
    client.force_login(sara)
    assert client.post(BULK, {"lines": "Anna"}).status_code == 403
    assert names(club) == []


def test_the_entries_page_reads_its_new_names_with_the_same_parser():
    assert players_list.names("Anna, anna@example.org\n\n Bruno  Bianchi\nRossi, Mario") == [
        "Anna",
        "Bruno Bianchi",
        "Rossi, Mario",
    ]


# The API: the same parser and service.


def test_the_api_adds_a_pasted_list_and_reports_the_names_the_club_had(organizer, club, olga):
    bruno = scoring.add_player(club=club, display_name="Bruno", by=Actor.for_user(olga))
    answer = organizer.post(
        "/api/v1/clubs/uno/players/bulk/",
        {"text": "Anna, anna@example.org\nbruno\n"},
        content_type="application/json",
    )
    assert answer.status_code == 201
    body = answer.json()
    assert [p["name"] for p in body["created"]] == ["Anna"]
    # The club's player, with its id and the club's spelling of its name.
    assert body["existing"] == [{"id": bruno.pk, "name": "Bruno"}]
    assert club.players.get(display_name="Anna").email == "anna@example.org"


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"text": "Anna\nBruno, bruno@"}, "text", "Line 2"),
        ({"csv": "email\nanna@example.org\n"}, "csv", "name"),
        ({"csv": "name,language\nAnna,xx\n"}, "csv", "Line 2"),
        ({}, "text", "nobody"),
        ({"text": "Anna", "csv": "name\nBruno"}, "text", "nobody"),
    ],
    ids=["invalid-email", "no-name-column", "unknown-language", "neither", "both"],
)
def test_the_api_refuses_a_bad_list_naming_the_field_and_the_line(
    organizer, club, body, field, words
):
    answer = organizer.post(
        "/api/v1/clubs/uno/players/bulk/", body, content_type="application/json"
    )
    assert answer.status_code == 400
    (error,) = answer.json()["errors"]
    assert error["field"] == field and words in error["message"]
    assert names(club) == []


def test_the_api_refuses_a_scorer_a_bulk_add(client, sara, club):
    client.force_login(sara)
    answer = client.post(
        "/api/v1/clubs/uno/players/bulk/", {"text": "Anna"}, content_type="application/json"
    )
    assert answer.status_code == 403 and names(club) == []


# A player's e-mail settings: the organizers', private.


@pytest.fixture
def anna(club, olga):
    return scoring.add_player(club=club, display_name="Anna", by=Actor.for_user(olga))


def test_an_organizer_sets_a_players_address_language_and_opt_out_on_the_page(
    organizer, club, anna
):
    url = f"/c/uno/players/{anna.pk}/email/"
    assert organizer.get(url).status_code == 200
    answer = organizer.post(url, {"email": "anna@example.org", "language": "fr"})
    assert answer.status_code == 302
    anna.refresh_from_db()
    assert (anna.email, anna.language, anna.results_by_email) == ("anna@example.org", "fr", False)
    assert AuditEvent.objects.filter(club=club, action="update_player").exists()


@pytest.mark.parametrize(
    ("data", "field"),
    [({"email": "anna@", "language": ""}, "email"), ({"email": "", "language": "de"}, "language")],
)
def test_a_bad_address_or_language_is_refused_next_to_its_field(organizer, anna, data, field):
    answer = organizer.post(f"/c/uno/players/{anna.pk}/email/", data | {"results_by_email": "on"})
    assert answer.status_code == 400
    assert answer.context["form"].errors[field]
    anna.refresh_from_db()
    assert (anna.email, anna.language) == ("", "")


def test_the_api_reads_and_changes_a_players_email_settings(organizer, anna):
    url = f"/api/v1/clubs/uno/players/{anna.pk}/email/"
    answer = organizer.patch(
        url, {"email": "anna@example.org", "language": "it"}, content_type="application/json"
    )
    assert answer.status_code == 200
    assert answer.json() | {"id": 0} == {
        "id": 0,
        "name": "Anna",
        "email": "anna@example.org",
        "language": "it",
        "results_by_email": True,
        "address": "anna@example.org",
    }
    bad = organizer.patch(url, {"email": "nope"}, content_type="application/json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "email"
    bad = organizer.patch(url, {"language": "de"}, content_type="application/json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "language"
    bad = organizer.patch(url, {"results_by_email": "yes"}, content_type="application/json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "results_by_email"
    anna.refresh_from_db()
    assert (anna.email, anna.language, anna.results_by_email) == ("anna@example.org", "it", True)


def test_a_players_address_is_private_to_the_clubs_organizers(client, sara, club, olga, anna):
    scoring.update_player(player=anna, by=Actor.for_user(olga), email="anna@example.org")
    club.results_public = True
    club.save(update_fields=["results_public"])
    client.force_login(sara)  # a scorer of the club
    assert client.get(f"/api/v1/clubs/uno/players/{anna.pk}/email/").status_code == 403
    assert client.get(f"/c/uno/players/{anna.pk}/email/").status_code == 403
    for url in ("/c/uno/players/", f"/c/uno/players/{anna.pk}/",
                f"/api/v1/clubs/uno/players/{anna.pk}/"):  # fmt: skip
        assert "anna@example.org" not in client.get(url).content.decode()
    client.logout()
    for url in (f"/c/uno/players/{anna.pk}/", f"/api/v1/clubs/uno/players/{anna.pk}/"):
        assert "anna@example.org" not in client.get(url).content.decode()
    assert client.get(f"/api/v1/clubs/uno/players/{anna.pk}/email/").status_code in (401, 403, 404)
    assert Player.objects.get(pk=anna.pk).email == "anna@example.org"
