"""A Terziglio game played to its end through the generated Python client (openapi-python-client),
as docs/api.md shows it: a token, a new game followed live on its event stream, hands entered with
an Idempotency-Key (one of them sent twice), a correction with If-Match, a removal with a reason,
then the audit trail read page by page.
``mypy --strict`` checks it (.ci/clients); run against a server (under ASGI, for the stream) it
prints the live event of the first hand and the final ranking.

    python play_terziglio.py http://127.0.0.1:8000 demo-user password club-slug
"""

from __future__ import annotations

import json
import sys
import uuid
from collections.abc import Iterator
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs, urlsplit

from segnapunti_client import AuthenticatedClient, Client
from segnapunti_client.api.v1 import (
    v1_auth_token_create,
    v1_clubs_games_create,
    v1_games_audit_list,
    v1_games_events_retrieve,
    v1_games_hands_create,
    v1_games_hands_destroy,
    v1_games_hands_update,
    v1_games_retrieve,
)
from segnapunti_client.models import (
    CredentialsRequest,
    ErrorResponse,
    Game,
    GameAudit,
    GameImportRequest,
    Hand,
    HandCorrectionRequest,
    RulesetEnum,
    TerziglioPointsHandEntry,
    TerziglioPointsHandEntryContract,
    TerziglioPointsHandEntryOutcome,
    TerziglioPointsHandEntryRuleset,
    TerziglioPointsHandRequest,
    TerziglioPointsHandRequestContract,
    TerziglioPointsHandRequestOutcome,
    TerziglioPointsHandRequestRuleset,
)
from segnapunti_client.types import UNSET, Response


def checked[T](response: Response[T | ErrorResponse], expected: HTTPStatus) -> T:
    """The parsed answer, or the errors the server gave, each naming its field."""
    parsed = response.parsed
    if response.status_code != expected or parsed is None or isinstance(parsed, ErrorResponse):
        raise SystemExit(f"{response.status_code}: {response.content.decode()}")
    return parsed


def events(lines: Iterator[str]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Server-Sent Events as (id, name, data): fields up to a blank line, comments skipped."""
    event_id, name, data = "", "message", list[str]()
    for line in lines:
        if not line:
            if data:
                yield event_id, name, json.loads("\n".join(data))
            name, data = "message", []
        elif not line.startswith(":"):
            field, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if field == "id":
                event_id = value
            elif field == "event":
                name = value
            elif field == "data":
                data.append(value)


def audit_trail(api: AuthenticatedClient, game_id: int, size: int) -> tuple[list[str], int]:
    """Every action of the game's audit trail, read page by page (``next`` until null), and
    how many pages it took: every list of the API is paged the same way (docs/api.md)."""
    actions, pages, cursor = list[str](), 0, None
    while True:
        answer = v1_games_audit_list.sync_detailed(
            game_id, client=api, page_size=size, cursor=cursor if cursor else UNSET
        )
        page = checked(answer, HTTPStatus.OK)
        rows: list[GameAudit] = page.results
        actions += [row.action for row in rows]
        pages += 1
        if page.next_ is None:
            return actions, pages
        cursor = parse_qs(urlsplit(page.next_).query)["cursor"][0]


def hand(dealer: int, points: int) -> TerziglioPointsHandRequest:
    """Seat 0 plays a solo every hand and makes ``points`` of the 11."""
    return TerziglioPointsHandRequest(
        ruleset=TerziglioPointsHandRequestRuleset.TERZIGLIO,
        dealer=dealer,
        outcome=TerziglioPointsHandRequestOutcome.PLAYED,
        soloist=0,
        contract=TerziglioPointsHandRequestContract.SOLO,
        soloist_points=points,
    )


def entry(dealer: int, points: int, seating: int) -> TerziglioPointsHandEntry:
    """The same hand as entered: with the seating it was typed for (the game's ``seating``
    when it was read), so that a hand typed before a replacement is refused, not miscredited."""
    return TerziglioPointsHandEntry(
        ruleset=TerziglioPointsHandEntryRuleset.TERZIGLIO,
        dealer=dealer,
        outcome=TerziglioPointsHandEntryOutcome.PLAYED,
        soloist=0,
        contract=TerziglioPointsHandEntryContract.SOLO,
        soloist_points=points,
        seating=seating,
    )


def main(base_url: str, username: str, password: str, club: str) -> None:
    anonymous = Client(base_url=base_url)
    credentials = CredentialsRequest(username=username, password=password)
    token = checked(
        v1_auth_token_create.sync_detailed(client=anonymous, body=credentials), HTTPStatus.OK
    ).token
    api = AuthenticatedClient(base_url=base_url, token=token, prefix="Token")

    new_game = GameImportRequest(
        ruleset=RulesetEnum.TERZIGLIO, players=["Anna", "Bruno", "Carla"], title="Client test"
    )
    started = v1_clubs_games_create.sync_detailed(club, client=api, body=new_game)
    game: Game = checked(started, HTTPStatus.CREATED)
    print("game", game.id, "at", started.headers["Location"], "ETag", started.headers["ETag"])

    # The game followed live: its event stream, opened with the token, says `hello` with the
    # version now, then `game` with each new version once stored. The generated module builds
    # the request; httpx streams it (the module's own functions would wait for the whole answer,
    # which never ends).
    request = v1_games_events_retrieve._get_kwargs(game.id)
    with api.get_httpx_client().stream(**request) as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        live = events(stream.iter_lines())
        _, name, now = next(live)
        assert name == "hello" and now["version"] == game.version

        # Hand 1, sent twice with one key: the second answer is the first one, replayed.
        key = str(uuid.uuid4())
        first = v1_games_hands_create.sync_detailed(
            game.id, client=api, body=entry(0, 7, game.seating), idempotency_key=key
        )
        again = v1_games_hands_create.sync_detailed(
            game.id, client=api, body=entry(0, 7, game.seating), idempotency_key=key
        )
        entered: Hand = checked(first, HTTPStatus.CREATED)
        assert checked(again, HTTPStatus.CREATED).number == entered.number == 1
        assert again.headers["Idempotent-Replayed"] == "true"

        event_id, name, change = next(live)  # the hand, once: its replay stored nothing
        print("live", name, event_id, change)
        assert name == "game" and change["change"] == "hand"
        assert change["version"] == entered.game.version

    # Hand 1 corrected, conditioned on the validator read: 8 points, not 7.
    correction = HandCorrectionRequest(document=hand(0, 8), reason="miscounted")
    corrected = v1_games_hands_update.sync_detailed(
        game.id, 1, client=api, body=correction, if_match=first.headers["ETag"]
    )
    assert checked(corrected, HTTPStatus.OK).version == 2

    # Hand 2 entered by mistake, then removed with a reason.
    mistake = v1_games_hands_create.sync_detailed(
        game.id, client=api, body=entry(1, 3, game.seating), idempotency_key=str(uuid.uuid4())
    )
    checked(mistake, HTTPStatus.CREATED)
    removed = v1_games_hands_destroy.sync_detailed(
        game.id, 2, client=api, reason="entered twice", if_match=mistake.headers["ETag"]
    )
    figures = checked(removed, HTTPStatus.OK)
    assert figures.hand_count == 1

    # The rest of the game: seat 0 wins every hand until it reaches the target.
    while figures.status == "in_progress":
        dealer = figures.next_dealer
        assert isinstance(dealer, int)
        answer = v1_games_hands_create.sync_detailed(
            game.id,
            client=api,
            body=entry(dealer, 7, game.seating),
            idempotency_key=str(uuid.uuid4()),
        )
        figures = checked(answer, HTTPStatus.CREATED).game

    final = checked(v1_games_retrieve.sync_detailed(game.id, client=api), HTTPStatus.OK)
    assert final.ranking and final.ranking[0].seat == 0
    print("finished after", len(final.hands), "hands; totals", final.totals)

    actions, pages = audit_trail(api, game.id, size=2)
    assert actions[0] == "start_game" and actions.count("record_hand") == len(final.hands) + 1
    assert pages == -(-len(actions) // 2)
    print("audit trail:", len(actions), "events in", pages, "pages of 2")


if __name__ == "__main__":
    main(*sys.argv[1:5])
