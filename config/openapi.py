"""The OpenAPI schema's settings (drf-spectacular), read by config/settings.py."""

from config.version import app_version

SPECTACULAR_SETTINGS = {
    "TITLE": "Segnapunti API",
    "DESCRIPTION": "Scores, games, leagues and tournaments of card clubs.",
    "VERSION": app_version(),
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # The docs page is served from the sidecar package: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The schemes a client authenticates with (TableLinkCsrf only adds a CSRF check).
    "AUTHENTICATION_WHITELIST": [
        "scoring.api.authentication.CachedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # One enum of the games in the schema, whichever field offers them; the names an enum had
    # before a second component offered it stay (a generated client keeps its types).
    "ENUM_NAME_OVERRIDES": {
        "RulesetEnum": "scoring.rules.RULESETS",
        "RegistrationStatusEnum": "registration.models.RegistrationStatus.choices",
        "GameStatusEnum": "scoring.models.GameStatus",
        "CompetitionSummaryFormatEnum": "tournaments.models.Format.choices",
        "RoundStatusEnum": "tournaments.models.RoundStatus.choices",
        "EntryStatusEnum": "tournaments.models.EntryStatus.choices",
        "StateEnum": "registration.api.registration.REGISTRATION_STATES",
        "CircuitPlaceStateEnum": "circuits.api.circuit_outputs.PLACE_STATES",
        "SideEnum": "teams.models.Side.values",
        "TeamKindEnum": "teams.models.TeamKind.values",
        "KindEnum": "tournaments.models.Kind.values",
    },
    # Hand documents from the rules registry, headers, 401s, strict nullable references
    # (scoring/api/schema.py, docs/api.md).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "scoring.api.schema.postprocess",
    ],
}
