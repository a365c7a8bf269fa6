"""Every write of a competition goes through one of these functions (one door per write).

They check that the actor organises the club (owner or organizer), call the pure scheduling and
standings code, write the rows in one transaction and append a ``CompetitionEvent``. Games are
created through ``scoring.services.start_game``; side effects (e-mails, standings snapshots) are
Celery tasks enqueued after commit.

The functions live in one module per idea; callers use this package's names
(``from tournaments import services; services.generate_round(...)``):

- ``competitions``: creating a competition, changing its settings, finalizing and reopening
  it;
- ``entries``: entering and withdrawing players or pairs;
- ``rounds``: a round's life (add one or a season, change, delete, check-ins, publish, the
  timer, byes and late entrants, close);
- ``changes``: changing a published round (a swap, a replacement, the tables not started
  drawn again, back to a draft);
- ``pairing``: the manual pairing editor (an entry moved to any seat of a round not started);
- ``draw``: drawing a draft round's tables, swapping two entries in a draw, keeping a
  background draw's refusal;
- ``bracket``: drawing a bracket's rounds (knockout, double elimination, a Swiss cut);
- ``reopening``: a closed round reopened (with a reason) to correct its games, then closed again;
- ``results_mail``: each player's results e-mailed after a round closes and at the end;
- ``settlement``: forfeits and adjustments;
- ``fees``: the entry fee and the desk's marks (paid, waived, undone);
- ``prizes``: the prize list and its rules;
- ``standings``: the standings snapshot and what refreshes it;
- ``registration``: players registering themselves, confirmations, the waiting list
  (``registration_mail``: its e-mails), ``waiting_list``: withdrawals and the waiting list;
  ``checkin``: self check-in at the venue;
- ``club_data``: a club's whole data, exported and imported (``export_club``, ``import_club``);
- ``_common``: the manager check, the row lock (``lock``: competition, then round; a round's
  write in ``locked_round``) and the audit event they all use; ``_tables``: storing a drawn
  round.
"""

from scoring.services import violation
from tournaments.services._common import GAME_CONTEXT
from tournaments.services._tables import metrics_dict
from tournaments.services.calls import acknowledge_call, call_director, resolve_call
from tournaments.services.changes import (
    redraw_tables,
    replace_entry,
    swap_published,
    unpublish_round,
)
from tournaments.services.clock import give_extra_time, set_last_hand
from tournaments.services.competitions import (
    COUNTED,
    NAME_MAX,
    create_competition,
    finalize_competition,
    reopen_competition,
    update_competition,
)
from tournaments.services.draw import (
    CLUB_NIGHT_METHODS,
    SEED_ORDER,
    SWISS_FIRST_METHODS,
    generate_round,
    next_slot,
    record_draw_refusal,
    swap_in_round,
    swap_preview,
)
from tournaments.services.entries import add_entry, reinstate_entry, withdraw_entry
from tournaments.services.fees import mark_paid, set_fee, undo_payment, waive_fee
from tournaments.services.pairing import move_entry
from tournaments.services.prizes import add_prize, remove_prize, set_prize_rules
from tournaments.services.reopening import reopen_round
from tournaments.services.results_mail import (
    requeue_stalled,
    send_final_results,
    send_round_results,
)
from tournaments.services.rounds import (
    KEEP,
    add_round,
    add_season,
    close_round,
    delete_round,
    give_bye,
    publish_round,
    seat_late_entrant,
    set_check_ins,
    set_round_timer,
    update_round,
)
from tournaments.services.settlement import adjust, forfeit_table
from tournaments.services.standings import store_standings

__all__ = [
    "CLUB_NIGHT_METHODS",
    "COUNTED",
    "GAME_CONTEXT",
    "KEEP",
    "NAME_MAX",
    "SEED_ORDER",
    "SWISS_FIRST_METHODS",
    "acknowledge_call",
    "add_entry",
    "add_prize",
    "add_round",
    "add_season",
    "adjust",
    "call_director",
    "close_round",
    "create_competition",
    "delete_round",
    "finalize_competition",
    "forfeit_table",
    "generate_round",
    "give_bye",
    "give_extra_time",
    "mark_paid",
    "metrics_dict",
    "move_entry",
    "next_slot",
    "publish_round",
    "record_draw_refusal",
    "redraw_tables",
    "reinstate_entry",
    "remove_prize",
    "reopen_competition",
    "reopen_round",
    "replace_entry",
    "requeue_stalled",
    "resolve_call",
    "seat_late_entrant",
    "send_final_results",
    "send_round_results",
    "set_check_ins",
    "set_fee",
    "set_last_hand",
    "set_prize_rules",
    "set_round_timer",
    "store_standings",
    "swap_in_round",
    "swap_preview",
    "swap_published",
    "undo_payment",
    "unpublish_round",
    "update_competition",
    "update_round",
    "violation",
    "waive_fee",
    "withdraw_entry",
]
