"""What the scoring pages show, put together from selectors' rows: a hand in words
(``hands``), the game page's whole context (``games``). Display only: nothing here writes, and
no game rule is decided here.
"""

from scoring.presenters.hands import PHRASES, hand_summary, phrase, signed, verification

__all__ = ["PHRASES", "hand_summary", "phrase", "signed", "verification"]
