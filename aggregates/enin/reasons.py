"""The Land of Enin's own reason codes (the kernel's ``Reason`` holds the shared ones).

Stable strings on the wire: never rename one; add new ones instead.
"""

from __future__ import annotations

from aggregates.kernel import GameReason


class EninReason(GameReason):
    NOT_ENOUGH_GOLD = "NOT_ENOUGH_GOLD"        # a market item costs more than you have
    NOT_ENOUGH_LUCK = "NOT_ENOUGH_LUCK"        # more luck spent than held
    NOT_ADJACENT = "NOT_ADJACENT"              # travel beyond the next card without the Map
    REPEAT_PURCHASE = "REPEAT_PURCHASE"        # the same market item twice in a row
    ALREADY_HELD = "ALREADY_HELD"              # the Map, the Key, a magic or quest item held
    NOT_HELD = "NOT_HELD"                      # the Imp's target, a re-roll without the Shield
    MISSING_QUEST_ITEM = "MISSING_QUEST_ITEM"  # a quest attempt without what it needs
    SHIELD_USED = "SHIELD_USED"                # the Shield of Nines already used this encounter
    NO_SUCH_DIE = "NO_SUCH_DIE"                # a die index not on the table


REASONS = tuple(r.value for r in EninReason)
