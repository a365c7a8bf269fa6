"""The API's HTML view (DRF's browsable API) within the site's Content-Security-Policy."""

from __future__ import annotations

from rest_framework import renderers


class BrowsableAPIRenderer(renderers.BrowsableAPIRenderer):
    """DRF's browsable API without its one inline ``<style>`` (Pygments' colours for highlighted
    docstrings, which our views do not have): ``SECURE_CSP`` allows only our style sheets.
    (Its other inline styles belong to viewsets' extra actions and filter forms: none here.)"""

    def get_context(self, data, accepted_media_type, renderer_context):
        context = super().get_context(data, accepted_media_type, renderer_context)
        context["code_style"] = None
        return context
