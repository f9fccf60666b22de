"""The Land of Enin's earlier rules version, kept so the games recorded under it
are re-verified by the rules that played them (docs/rules-versions.md).

- 1.1.0 (served) enters the Imp's choice and the quest attempt by the
  rulebook's facts before them (the ``TrapSprung`` naming what the Imp may
  take; the action's last fact); 1.0.0 also recorded them as events of their
  own, ``ImpStruck`` and ``QuestAttemptOffered`` (``state.PROGRESS_RECORDED``).

No event changed shape, so nothing is upcast. A game is played by the rules of
the version its creation event records (``Enin.earlier``), so this class only
names its version: it creates games of it and is the class ``catalog.RULES``
finds for their records; a stored 1.0.0 game loaded by the served class goes
on by 1.0.0 too.
"""

from __future__ import annotations

from aggregates.enin.game import Enin


class EninV1(Enin):
    RULES_VERSION = "1.0.0"
