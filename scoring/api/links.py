"""OpenAPI links (``docs/api.md``): from each create to what may be done next with what it
made, added to the schema by ``scoring.api.schema.postprocess``."""

from __future__ import annotations

import re
from typing import Any

PATH_PARAMETER = re.compile(r"{(\w+)}")

#: What a create (POST, 201) makes, and where it is read and changed next: the path it is made
#: at, the prefix of the paths of what it made, the path parameter naming it there and the
#: answer's key that gives its value. OpenAPI links from each create to those operations let a
#: client (and schemathesis' stateful phase) follow a create with what may be done with it.
LINKS = (
    (
        "/api/v1/clubs/{slug}/competitions/",
        "/api/v1/competitions/{competition_id}/",
        "competition_id",
        "id",
    ),
    ("/api/v1/clubs/{slug}/games/", "/api/v1/games/{game_id}/", "game_id", "id"),
    ("/api/v1/clubs/{slug}/circuits/", "/api/v1/circuits/{circuit_id}/", "circuit_id", "id"),
    (
        "/api/v1/competitions/{competition_id}/rounds/",
        "/api/v1/competitions/{competition_id}/rounds/{number}/",
        "number",
        "number",
    ),
    (
        "/api/v1/competitions/{competition_id}/entries/",
        "/api/v1/competitions/{competition_id}/entries/{entry_id}/",
        "entry_id",
        "id",
    ),
    (
        "/api/v1/competitions/{competition_id}/teams/",
        "/api/v1/competitions/{competition_id}/teams/{team_id}/",
        "team_id",
        "id",
    ),
    (
        "/api/v1/games/{game_id}/hands/",
        "/api/v1/games/{game_id}/hands/{number}/",
        "number",
        "number",
    ),
)


def add(paths: dict[str, Any]) -> None:
    """Each create's 201 links to the operations on what it made."""
    for source, prefix, parameter, key in LINKS:
        create = paths.get(source, {}).get("post", {}).get("responses", {}).get("201")
        if create is None:
            continue
        links = create.setdefault("links", {})
        for path, item in paths.items():
            if not path.startswith(prefix):
                continue
            for method, operation in item.items():
                values = {parameter: f"$response.body#/{key}"}
                for name in PATH_PARAMETER.findall(source):
                    if f"{{{name}}}" in path:
                        values[name] = f"$request.path.{name}"
                conditional = any(p["name"] == "If-Match" for p in operation.get("parameters", []))
                if conditional and "ETag" in create.get("headers", {}):
                    values["header.If-Match"] = "$response.header.ETag"
                links[operation["operationId"]] = {
                    "operationId": operation["operationId"],
                    "parameters": values,
                    "description": f"{method.upper()} {path} of what was made.",
                }
