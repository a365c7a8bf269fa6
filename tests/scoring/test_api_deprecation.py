"""The deprecation convention of docs/api.md: the schema says ``deprecated: true`` and every
answer of the operation, refusals included, carries Deprecation, Sunset and Link."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import path
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.test import APIRequestFactory
from rest_framework.views import APIView

from config.version import app_version
from scoring.api.deprecation import deprecated


class OldScores(APIView):
    anyone_may = ("GET",)

    @deprecated(since=date(2027, 1, 10), sunset=date(2027, 7, 12), successor="/api/v1/scores/")
    @extend_schema(
        summary="Old scores",
        description="Removed on 2027-07-12: use `/api/v1/scores/`.",
        responses={200: serializers.DictField(child=serializers.IntegerField())},
    )
    def get(self, request):
        if request.GET.get("bad"):
            raise ValidationError({"bad": ["Not a thing."]})
        return Response({"anna": 3})


def _get(query=""):
    return OldScores.as_view()(APIRequestFactory().get("/api/v1/old-scores/" + query))


def test_every_answer_says_since_when_until_when_and_what_replaces_it():
    for response in (_get(), _get("?bad=1")):
        assert response["Deprecation"] == "@1799539200"  # 2027-01-10T00:00:00Z
        assert response["Sunset"] == "Mon, 12 Jul 2027 00:00:00 GMT"
        assert response["Link"] == '</api/v1/scores/>; rel="successor-version"'
    assert _get().status_code == 200
    assert _get("?bad=1").status_code == 400


def test_the_schema_marks_the_operation_deprecated_and_keeps_its_description():
    patterns = [path("api/v1/old-scores/", OldScores.as_view())]
    schema = SchemaGenerator(patterns=patterns).get_schema(request=None, public=True)
    operation = schema["paths"]["/api/v1/old-scores/"]["get"]
    assert operation["deprecated"] is True
    assert "2027-07-12" in operation["description"]
    assert operation["security"] == []


def test_a_sunset_sooner_than_six_months_is_refused():
    with pytest.raises(ValueError, match="six months"):
        deprecated(since=date(2027, 1, 10), sunset=date(2027, 3, 1))


def test_the_schema_version_is_the_apps():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    assert schema["info"]["version"] == app_version()
    assert app_version().count(".") == 2  # pyproject.toml's, e.g. 0.1.0
