"""How a hand and a game read on a page: short, translated summaries. Display only."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring.forms import CONTRACT_LABELS


def hand_summary(ruleset: str, document: dict[str, Any], names: list[str]) -> str:
    """One line for the history, e.g. "Anna · Solo · 8 points"."""

    def who(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    if document.get("outcome") == "passed_out":
        return _("Passed out") if ruleset != "briscola_chiamata" else _("Passed or thrown in")
    if ruleset in ("terziglio", "calabrasella"):
        parts = [who(document.get("soloist"))]
        if ruleset == "terziglio":
            parts.append(str(CONTRACT_LABELS.get(document.get("contract"), "")))
        if "soloist_cards" in document:
            cards = document["soloist_cards"]
            parts.append(
                _("cards counted") + f" ({', '.join(f'{k} {v}' for k, v in cards.items())})"
            )
        else:
            parts.append(_("%(points)s points") % {"points": document.get("soloist_points")})
        sweep = document.get("sweep", "none")
        if sweep == "soloist":
            parts.append(_("every trick"))
        elif sweep == "opponents":
            parts.append(_("no trick"))
        return " · ".join(parts)
    if ruleset == "turkish":
        return _("%(name)s went out") % {"name": who(document.get("went_out"))}
    if ruleset == "briscola":
        return "–".join(str(p) for p in document.get("points", []))
    if ruleset == "briscola_chiamata":
        caller, partner = document.get("caller"), document.get("partner")
        side = who(caller) if caller == partner else f"{who(caller)} + {who(partner)}"
        alone = f" ({_('alone')})" if caller == partner else ""
        return f"{side}{alone} · {document.get('caller_points')}/{document.get('target', 61)}"
    return ""
