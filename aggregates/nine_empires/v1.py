"""Nine Empires rules version "1.0.0": kept so the games recorded under it are
re-verified by the rules that played them (docs/rules-versions.md).

Version 1.1.0 changed three rules toward the rulebook, each a choice that 1.0.0
made itself or gave to another player:

- Winter Phase: 1.0.0 placed the food from heroes onto the castle with the most
  room; 1.1.0 lets the player place it (with the redistribution, one choice).
- Declare Attack (multiplayer): 1.0.0 asked every other player to ally; in
  1.1.0 the attacker and the defender call for allies, and only the called
  side can be joined.
- Engaging and Damage (multiplayer): 1.0.0 had the attacker declare immunity
  for the allies' cards too; in 1.1.0 each attacking ally declares its own.

This class keeps those three (``state.EARLIER_*``, read where each rule is).
"""

from __future__ import annotations

from aggregates.nine_empires.game import NineEmpires
from aggregates.nine_empires.state import EARLIER_ALLIES, EARLIER_IMMUNITY, EARLIER_WINTER_FOOD


class NineEmpiresV1(NineEmpires):
    RULES_VERSION = "1.0.0"
    EARLIER = frozenset({EARLIER_WINTER_FOOD, EARLIER_ALLIES, EARLIER_IMMUNITY})
