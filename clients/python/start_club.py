"""A club started from nothing through the generated Python client (openapi-python-client), as
docs/api.md ("Start a club from nothing") shows it, with an account's API token and nothing
else: the club (the token's account becomes its owner), an organizer invited by a one-time link,
players added in bulk (sent twice with one Idempotency-Key: added once), the club's players
found by a search and read page by page, then a game started with four of them by id.
``mypy --strict`` checks it (.ci/clients); run against a server it prints what it did.

    python start_club.py http://127.0.0.1:8000 TOKEN
"""

from __future__ import annotations

import sys
import uuid
from http import HTTPStatus
from urllib.parse import parse_qs, urlsplit

from segnapunti_client import AuthenticatedClient
from segnapunti_client.api.v1 import (
    v1_clubs_create,
    v1_clubs_games_create,
    v1_clubs_invitations_create,
    v1_clubs_invitations_list,
    v1_clubs_players_bulk_create,
    v1_clubs_players_create,
    v1_clubs_players_list,
)
from segnapunti_client.models import (
    Club,
    ClubCreateRequest,
    ClubPlayer,
    ErrorResponse,
    Game,
    GameImportRequest,
    InvitationCreateRequest,
    PlayerCreateRequest,
    PlayersBulkRequest,
    RoleEnum,
    RulesetEnum,
)
from segnapunti_client.types import UNSET, Response

NAMES = ["Anna Rossi", "Bruno Bianchi", "Carla Neri", "Dario Russo", "Elena Gallo", "Franca Conti"]


def checked[T](response: Response[T | ErrorResponse], expected: HTTPStatus) -> T:
    """The parsed answer, or the errors the server gave, each naming its field."""
    parsed = response.parsed
    if response.status_code != expected or parsed is None or isinstance(parsed, ErrorResponse):
        raise SystemExit(f"{response.status_code}: {response.content.decode()}")
    return parsed


def players(api: AuthenticatedClient, club: str, search: str, size: int) -> list[ClubPlayer]:
    """The club's players whose name holds ``search``, read page by page (``next`` until null)."""
    found, cursor = list[ClubPlayer](), ""
    while True:
        answer = v1_clubs_players_list.sync_detailed(
            club, client=api, search=search, page_size=size, cursor=cursor or UNSET
        )
        page = checked(answer, HTTPStatus.OK)
        found += page.results
        if page.next_ is None:
            return found
        cursor = parse_qs(urlsplit(page.next_).query)["cursor"][0]


def main(base_url: str, token: str) -> None:
    api = AuthenticatedClient(base_url=base_url, token=token, prefix="Token")

    slug = f"circolo-{uuid.uuid4().hex[:8]}"
    new_club = ClubCreateRequest(name="Circolo del Ponte", slug=slug, time_zone="Europe/Rome")
    started = v1_clubs_create.sync_detailed(
        client=api, body=new_club, idempotency_key=str(uuid.uuid4())
    )
    club: Club = checked(started, HTTPStatus.CREATED)
    assert club.role == RoleEnum.OWNER
    print("club", club.slug, "at", started.headers["Location"], "role", club.role.value)

    invited = checked(
        v1_clubs_invitations_create.sync_detailed(
            slug, client=api, body=InvitationCreateRequest(role=RoleEnum.ORGANIZER)
        ),
        HTTPStatus.CREATED,
    )
    assert isinstance(invited.url, str)  # no address: the link to hand over, shown this once
    print("invited an organizer:", invited.id, "link", invited.url.split("/invitation/")[0] + "/…")
    pending = checked(v1_clubs_invitations_list.sync_detailed(slug, client=api), HTTPStatus.OK)
    assert [i.id for i in pending.results] == [invited.id]

    # The list sent twice under one key (a phone retrying after a timeout): added once.
    key, body = str(uuid.uuid4()), PlayersBulkRequest(text="\n".join(NAMES[:4]))
    first = v1_clubs_players_bulk_create.sync_detailed(
        slug, client=api, body=body, idempotency_key=key
    )
    again = v1_clubs_players_bulk_create.sync_detailed(
        slug, client=api, body=body, idempotency_key=key
    )
    added = checked(first, HTTPStatus.CREATED)
    assert again.headers["Idempotent-Replayed"] == "true"
    print("bulk: created", [p.name for p in added.created])
    # A second list naming two of them: those come back with their ids, not added again.
    more = PlayersBulkRequest(text="\n".join([NAMES[0].upper(), NAMES[1], *NAMES[4:]]))
    second = checked(
        v1_clubs_players_bulk_create.sync_detailed(slug, client=api, body=more), HTTPStatus.CREATED
    )
    print(
        "bulk: created",
        [p.name for p in second.created],
        "existing",
        [(p.id, p.name) for p in second.existing],
    )
    assert {p.id for p in second.existing} == {p.id for p in added.created[:2]}
    one = checked(
        v1_clubs_players_create.sync_detailed(
            slug, client=api, body=PlayerCreateRequest(display_name="Gino Ferri")
        ),
        HTTPStatus.CREATED,
    )
    print("player", one.id, one.name)

    everyone = players(api, slug, "", size=3)
    print("players, 3 a page:", [p.name for p in everyone])
    assert len(everyone) == len(NAMES) + 1
    found = players(api, slug, "RI", size=50)  # any case
    print("search 'RI':", [(p.id, p.name) for p in found])
    assert [p.name for p in found] == ["Carla Neri", "Dario Russo", "Gino Ferri"]

    four = [p.id for p in everyone[:4]]
    game_started = v1_clubs_games_create.sync_detailed(
        slug,
        client=api,
        body=GameImportRequest(ruleset=RulesetEnum.TURKISH, players=list[int | str](four)),
        idempotency_key=str(uuid.uuid4()),
    )
    game: Game = checked(game_started, HTTPStatus.CREATED)
    print("game", game.id, game.ruleset, "with", [seat.name for seat in game.seats])
    assert [seat.player for seat in game.seats] == four
    print("Club started.")


if __name__ == "__main__":
    main(*sys.argv[1:3])
