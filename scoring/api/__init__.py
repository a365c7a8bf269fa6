"""The API under ``/api/v1/``: the scoring views (``games``), the strict input serializers both
apps' views declare their bodies with (``inputs``) and the pieces they share (``common``).

Every view translates: a nested ``InputSerializer`` reads the body, one service or selector is
called, the answer is shaped. Refusals are exceptions mapped once in ``scoring.api.errors``.
"""
