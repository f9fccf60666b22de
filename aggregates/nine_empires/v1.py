"""Nine Empires rules versions "1.0.0" and "1.1.0": kept so the games recorded
under them are re-verified by the rules that played them (docs/rules-versions.md).

Version 1.2.0 records the result as every reader is told it, "Player 1 wins by
a Dominance Victory.", where 1.1.0 and 1.0.0 recorded "seat 0 wins by a
Dominance Victory", counting seats from 0 (``state.EARLIER_SEAT_RESULT``).

Version 1.1.0 changed three rules toward the rulebook, each a choice that 1.0.0
made itself or gave to another player:

- Winter Phase: 1.0.0 placed the food from heroes onto the castle with the most
  room; 1.1.0 lets the player place it (with the redistribution, one choice).
- Declare Attack (multiplayer): 1.0.0 asked every other player to ally; in
  1.1.0 the attacker and the defender call for allies, and only the called
  side can be joined.
- Engaging and Damage (multiplayer): 1.0.0 had the attacker declare immunity
  for the allies' cards too; in 1.1.0 each attacking ally declares its own.

``NineEmpiresV1`` keeps those three (``state.EARLIER_*``, read where each
rule is) and 1.1.0's result; ``NineEmpiresV1_1`` keeps the result alone.
"""

from __future__ import annotations

from aggregates.nine_empires.game import NineEmpires
from aggregates.nine_empires.state import (
    EARLIER_ALLIES,
    EARLIER_IMMUNITY,
    EARLIER_SEAT_RESULT,
    EARLIER_WINTER_FOOD,
)


class NineEmpiresV1_1(NineEmpires):  # noqa: N801 - the version's own number
    RULES_VERSION = "1.1.0"
    EARLIER = frozenset({EARLIER_SEAT_RESULT})


class NineEmpiresV1(NineEmpires):
    RULES_VERSION = "1.0.0"
    EARLIER = frozenset({EARLIER_WINTER_FOOD, EARLIER_ALLIES, EARLIER_IMMUNITY,
                         EARLIER_SEAT_RESULT})
