"""The Land of Enin's earlier rules versions, kept so the games recorded under
them are re-verified by the rules that played them (docs/rules-versions.md).

- 1.2.0 (served) enters the choice of a magic item by the treasure roll that
  finds it (``TreasureRolled``'s ``choices``); 1.1.0 and 1.0.0 also recorded
  it as an event of its own, ``MagicItemFound`` (``state.FIND_RECORDED``).
- 1.1.0 enters the Imp's choice and the quest attempt by the rulebook's facts
  before them (the ``TrapSprung`` naming what the Imp may take; the action's
  last fact); 1.0.0 also recorded them as events of their own, ``ImpStruck``
  and ``QuestAttemptOffered`` (``state.PROGRESS_RECORDED``).

No event changed shape, so nothing is upcast, and a game plays by the rules
its creation records (``Enin.EARLIER_RULES``, read by the kernel's
``Game.earlier``): these classes only name their version, for the catalogue.
"""

from __future__ import annotations

from aggregates.enin.game import Enin
from aggregates.kernel import released_versions

EninV1, EninV1_1 = released_versions(Enin, __name__, "1.0.0", "1.1.0")
