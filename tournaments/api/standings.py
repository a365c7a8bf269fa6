"""Standings of a competition, read from their snapshot with an ETag (``"s<competition>.<version>"``,
``scoring.etags``)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from scoring import etags
from scoring.api.common import ERRORS, not_modified, with_etag
from tournaments import selectors, services
from tournaments.api.common import IF_NONE_MATCH, CompetitionView, readable_competition


class Standings(CompetitionView):
    @extend_schema(
        summary="Standings of a competition",
        description="Recomputed from the games whenever one changes and kept as a snapshot; the "
        'ETag names the competition and the snapshot\'s version (`"s<id>.<version>"`): send it in '
        "`If-None-Match` to poll cheaply (304 while "
        "nothing changed).",
        parameters=[IF_NONE_MATCH],
        responses={200: OpenApiTypes.OBJECT, 304: None, 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, _role = readable_competition(request, competition_id)
        snapshot = selectors.snapshot_of(competition)
        if snapshot is None:
            services.store_standings(competition=competition)
            snapshot = selectors.snapshot_of(competition)
        tag = etags.standings_tag(competition.pk, snapshot.version)
        if not_modified(request, tag):
            return with_etag(Response(status=status.HTTP_304_NOT_MODIFIED), tag)
        data = selectors.labelled(snapshot.data) | {
            "version": snapshot.version,
            "computed_at": snapshot.computed_at.isoformat() if snapshot.computed_at else None,
        }
        return with_etag(Response(data), tag)
