"""A Swiss with registration run through the generated Python client (openapi-python-client), as
docs/api.md ("Run a Swiss with registration") shows it, from an organizer's API token: a Briscola
singles Swiss in the club, registration opened, eight people registered anonymously (as the
public does, each confirming by the token of the e-mail it was sent), registration closed, then
two rounds: generated, published, each table's game played to its end hand by hand, closed; and
the standings read and printed. Every write sends an Idempotency-Key.
``mypy --strict`` checks it (.ci/clients); run against a server it prints what it did. The
e-mails are read where the server writes them (its file e-mail backend's EMAIL_FILE_PATH), the
way a registrant reads theirs.

    python run_swiss.py http://127.0.0.1:8000 TOKEN club-slug MAIL_DIRECTORY
"""

from __future__ import annotations

import datetime as dt
import email
import re
import sys
import uuid
from http import HTTPStatus
from pathlib import Path

from segnapunti_client import AuthenticatedClient, Client
from segnapunti_client.api.v1 import (
    v1_clubs_competitions_create,
    v1_competitions_registration_close_create,
    v1_competitions_registration_update,
    v1_competitions_registrations_create,
    v1_competitions_rounds_close_create,
    v1_competitions_rounds_create,
    v1_competitions_rounds_generate_create,
    v1_competitions_rounds_publish_create,
    v1_competitions_standings_retrieve,
    v1_games_hands_create,
    v1_games_retrieve,
    v1_registrations_confirm_create,
)
from segnapunti_client.models import (
    BriscolaHandEntry,
    BriscolaHandEntryRuleset,
    Competition,
    CompetitionCreateFormatEnum,
    CompetitionCreateRequest,
    ErrorResponse,
    GameStatusEnum,
    KindEnum,
    RegistrationSettingsRequest,
    RegistrationsRequest,
    RegistrationStatusEnum,
    Round,
    RoundStatusEnum,
    RulesetEnum,
    StateEnum,
    TokenRequest,
)
from segnapunti_client.types import Response

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Giulia", "Marco"]
# The token in the API form of the e-mail's confirmation link.
TOKEN = re.compile(r'registrations/confirm/ with \{"token": "([^"]+)"\}')


def checked[T](response: Response[T | ErrorResponse], expected: HTTPStatus) -> T:
    """The parsed answer, or the errors the server gave, each naming its field."""
    parsed = response.parsed
    if response.status_code != expected or parsed is None or isinstance(parsed, ErrorResponse):
        raise SystemExit(f"{response.status_code}: {response.content.decode()}")
    return parsed


def key() -> str:
    return str(uuid.uuid4())


def confirm_token(mail_dir: Path, address: str) -> str:
    """The confirmation token of the last e-mail to ``address`` that has one (the file backend
    writes each message as it is sent, separated by a line of dashes)."""
    tokens = list[str]()
    for path in sorted(mail_dir.iterdir()):
        for chunk in path.read_text().split("-" * 79):
            message = email.message_from_string(chunk.strip())
            if message["To"] != address:
                continue
            for part in message.walk():
                if part.get_content_type() == "text/plain":
                    payload = part.get_payload(decode=True)
                    assert isinstance(payload, bytes)
                    tokens += TOKEN.findall(payload.decode(part.get_content_charset() or "utf-8"))
    if not tokens:
        raise SystemExit(f"no e-mail with a token to {address}")
    return tokens[-1]


def play_round(api: AuthenticatedClient, competition: int, number: int) -> None:
    """Round ``number`` generated, published, every table's game played to its end, closed."""
    checked(
        v1_competitions_rounds_generate_create.sync_detailed(
            competition, number, client=api, idempotency_key=key()
        ),
        HTTPStatus.OK,
    )
    published: Round = checked(
        v1_competitions_rounds_publish_create.sync_detailed(
            competition, number, client=api, idempotency_key=key()
        ),
        HTTPStatus.OK,
    )
    assert published.status == RoundStatusEnum.PUBLISHED
    for table in published.tables:
        assert table.game is not None
        game = checked(v1_games_retrieve.sync_detailed(table.game.id, client=api), HTTPStatus.OK)
        # The first seat wins every hand, 80 to 40, until the game ends.
        status, dealer, hands = game.status, 0, 0
        while status == GameStatusEnum.IN_PROGRESS:
            hand = BriscolaHandEntry(
                ruleset=BriscolaHandEntryRuleset.BRISCOLA,
                dealer=dealer,
                points=[80, 40],
                seating=game.seating,
            )
            answer = v1_games_hands_create.sync_detailed(
                game.id, client=api, body=hand, idempotency_key=key()
            )
            figures = checked(answer, HTTPStatus.CREATED).game
            status, hands = figures.status, hands + 1
            dealer = figures.next_dealer if isinstance(figures.next_dealer, int) else 0
        seats = " v ".join(seat.name for seat in table.seats)
        print(f"round {number} table {table.number}: {seats}, {hands} hands, {status}")
    closed = checked(
        v1_competitions_rounds_close_create.sync_detailed(
            competition, number, client=api, idempotency_key=key()
        ),
        HTTPStatus.OK,
    )
    assert closed.status == RoundStatusEnum.CLOSED
    print("round", number, "closed")


def main(base_url: str, token: str, club: str, mail_dir: str) -> None:
    api = AuthenticatedClient(base_url=base_url, token=token, prefix="Token")
    public = Client(base_url=base_url)

    tag = uuid.uuid4().hex[:6]
    new = CompetitionCreateRequest(
        name=f"Swiss {tag}",
        rulesets=[RulesetEnum.BRISCOLA],
        kind=KindEnum.TOURNAMENT,
        format_=CompetitionCreateFormatEnum.SWISS,
        table_size=2,
        planned_rounds=2,
        public=True,
    )
    created = v1_clubs_competitions_create.sync_detailed(
        club, client=api, body=new, idempotency_key=key()
    )
    competition: Competition = checked(created, HTTPStatus.CREATED)
    print("competition", competition.id, competition.name, competition.format_.value)

    now = dt.datetime.now(dt.UTC)
    settings = RegistrationSettingsRequest(
        opens_at=now - dt.timedelta(minutes=1), closes_at=now + dt.timedelta(days=1), capacity=8
    )
    opened = checked(
        v1_competitions_registration_update.sync_detailed(
            competition.id, client=api, body=settings, idempotency_key=key()
        ),
        HTTPStatus.OK,
    )
    assert opened.state == StateEnum.OPEN
    print("registration open:", opened.places, "places")

    for name in NAMES:
        address = f"{name.lower()}.{tag}@example.org"
        registered = checked(
            v1_competitions_registrations_create.sync_detailed(
                competition.id,
                client=public,
                body=RegistrationsRequest(name=f"{name} {tag}", email=address),
                idempotency_key=key(),
            ),
            HTTPStatus.CREATED,
        )
        assert registered.status == RegistrationStatusEnum.UNCONFIRMED
        confirmed = checked(
            v1_registrations_confirm_create.sync_detailed(
                client=public,
                body=TokenRequest(token=confirm_token(Path(mail_dir), address)),
                idempotency_key=key(),
            ),
            HTTPStatus.OK,
        )
        assert confirmed.status == RegistrationStatusEnum.ENTERED and confirmed.entry
        print("registered and confirmed:", confirmed.name, "entry", confirmed.entry)

    closed = checked(
        v1_competitions_registration_close_create.sync_detailed(
            competition.id, client=api, idempotency_key=key()
        ),
        HTTPStatus.OK,
    )
    assert closed.state == StateEnum.CLOSED and closed.taken == len(NAMES)
    print("registration closed:", closed.taken, "entered")

    for number in (1, 2):
        checked(
            v1_competitions_rounds_create.sync_detailed(
                competition.id, client=api, idempotency_key=key()
            ),
            HTTPStatus.CREATED,
        )
        play_round(api, competition.id, number)

    standings = checked(
        v1_competitions_standings_retrieve.sync_detailed(competition.id, client=public),
        HTTPStatus.OK,
    )
    print("standings after round 2 (" + standings.scheme_label + "):")
    rows = standings.tables[0].rows
    for row in rows:
        print(f"  {row.rank or '-':>2} {row.name:<16} {row.points:g} points, {row.wins} wins")
    assert len(rows) == len(NAMES) and all(row.rounds == 2 for row in rows)
    print("Swiss run.")


if __name__ == "__main__":
    main(*sys.argv[1:5])
