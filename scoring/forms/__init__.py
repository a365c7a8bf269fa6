"""The scoring pages' forms, one module per feature (the same names as ``views/`` and
``services/``): ``games`` (a new game, a reason), ``hands`` (one hand-entry form per game),
``confirmations``, ``table_links``, ``clubs``, ``members``, ``accounts`` and ``ratings``.
``options`` is the house-rules part both apps' forms share, ``errors`` how a service's refusal
goes next to the field it names.

Forms only translate: fields in, the keyword arguments of a service out, the rule problems that
come back placed next to their field. No game rule is decided here.
"""
