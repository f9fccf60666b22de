"""Titans' earlier rules versions, kept so the games recorded under them are
re-verified by the rules that played them (docs/rules-versions.md).

- 1.3.0 (served) passes a turn's Support step with nothing to draw (the
  deck, its discards and the row empty) in the apply of the fact that enters
  it; 1.2.0 and before also recorded it, ``SupportUnavailable``
  (``state.EARLIER_SUPPORT_UNAVAILABLE``).
- 1.2.0 records the Secret Objective draft by the players' facts
  alone (``ObjectivesPassed``, ``ObjectiveKept``); 1.1.0 and 1.0.0 also
  recorded its pace, ``DraftPassed`` and ``DraftEnded``
  (``state.EARLIER_DRAFT_PACE``).
- 1.1.0 records a ``TurnBegan`` for a Round's first turn, as for every other
  turn; 1.0.0 began the Starting Player's turn with the Order Pool drawn
  (``OrderPoolDrawn``) and recorded no ``TurnBegan`` for it
  (``state.EARLIER_FIRST_TURN``).

No event changed shape, so nothing is upcast. A game is played by the earlier
rules of the version its creation event records (``Titans.earlier``), so these
classes only name their version: each creates games of it and is the class
``catalog.RULES`` finds for their records; a stored game of an earlier version
loaded by the served class goes on by its own version too.
"""

from __future__ import annotations

from aggregates.kernel import released_versions
from aggregates.titans.game import Titans

TitansV1, TitansV1_1, TitansV1_2 = released_versions(Titans, __name__, "1.0.0", "1.1.0", "1.2.0")
