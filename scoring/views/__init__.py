"""The scoring app's pages, one module per feature (the same names as ``services/``,
``forms/`` and ``api/``): ``clubs`` (home, a club, its players, starting a club), ``games``,
``hands`` (entry, undo, correction, removal), ``confirmations``, ``table_links``, ``pwa`` (the
installable app and the scoreboard), ``members``, ``accounts`` and ``ratings``. ``access``
holds the lookups every page starts with and the ways a page calls a service.

Views translate a request into a selector or a service call and render the answer; they decide
no rule.
"""
