"""Tidewatch events recorded before each event stated its whole fact (issue 9,
item 7), read in the shape the rules record now (``aggregates.kernel.record.upcast``).

``Banked`` names the vault the cards went to (before, a reader had to know
which team a position plays for); every coin event states each position's
coins after it (``totals``) beside the change. The vault follows from the
old event alone; the totals do not (the coins before it), so they read as
None and re-execution derives them.

A type changed (``kernel.upcast.Retype``): a Tidewatch release that never
was recorded a pass and a let-go alike, as ``Acted(what, position)``. Such a
record reads as the ``Passed`` or ``LetGo`` recorded now (its ``what`` says
which); applying one applies the current event's body, since the old event
states every fact the new one does. Only the tests write such records.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eventsourcing.domain import decorated_funcs

from aggregates.kernel.game import _event_class
from aggregates.kernel.record.upcast import Retype, Step, retype, versioned
from tests.template_game.table import team_of_position, vault

#: The events that change coins.
COIN_EVENTS = ("TideRose", "BidsSettled", "EffectUsed", "Dived")


def _banked(p: dict[str, Any]) -> None:
    """v2 adds ``vault``: the banker's team's vault (a position's team is fixed)."""
    p["vault"] = vault(team_of_position(p["position"]))


def _coins(p: dict[str, Any]) -> None:
    """v2 adds ``totals``, the coins after; v1 stated only the change."""


#: The old ``Acted`` record's ``what`` -> the event now.
ACTED = {"pass": "Passed", "let go": "LetGo"}


def _acted(old: dict[str, Any], meta: Mapping[str, Any]) -> tuple[str, dict[str, Any],
                                                                     tuple[str, ...]]:
    return ACTED[old["what"]], {"position": old["position"]}, ()


def _apply_acted(game: Any, old: dict[str, Any]) -> None:
    """As the current event: its body, with the facts the old one stated."""
    game_class: Any = type(game)
    body = decorated_funcs[_event_class(game_class, ACTED[old["what"]])]
    body(game, position=old["position"])


def install(game_class: Any) -> None:
    """Declare the versions and upcasts on ``game_class``'s event classes."""
    versioned(_event_class(game_class, "Banked"), Step(_banked, added=("vault",)))
    for name in COIN_EVENTS:
        versioned(_event_class(game_class, name),
                  Step(_coins, added=("totals",), unrecorded=("totals",)))
    retype(game_class, Retype("Acted", _acted, _apply_acted, reader_name="StoredActReader"))
