"""Fixtures of the scoring tests that several files share: Nina, who has an account and no club
yet (invited in the members' tests), and the site's address the mailed links are made from."""

import pytest


@pytest.fixture
def site_url(settings):
    settings.SITE_URL = "http://testserver"


@pytest.fixture
def nina(django_user_model):
    return django_user_model.objects.create_user("nina", email="nina@club.example", password="x")
