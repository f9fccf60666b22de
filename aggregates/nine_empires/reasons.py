"""The game's own reason codes: why a command is refused, for a bot to act on."""

from __future__ import annotations

from aggregates.kernel import GameReason


class NineReason(GameReason):
    """Romance of the Nine Empires' reason codes (never renamed; add new ones)."""

    NOT_HELD = "NOT_HELD"                  # the card is not in your hand
    NOT_IN_PLAY = "NOT_IN_PLAY"            # the card is not yours in play
    BAD_PAYMENT = "BAD_PAYMENT"            # the gold or food named does not pay the cost
    NOT_ENOUGH_FOOD = "NOT_ENOUGH_FOOD"    # Paying Food Costs: not enough on your castles
    WRONG_KEYWORD = "WRONG_KEYWORD"        # faction keywords do not match the stronghold
    UNIQUE = "UNIQUE"                      # a copy of this Unique card is in play
    NO_HOST = "NO_HOST"                    # no hero this cohort, item or spell may attach to
    BOWED = "BOWED"                        # a bowed card cannot use abilities, attack, defend, raid
    ONCE_PER_TURN = "ONCE_PER_TURN"        # the ability (or attack, raid) is spent this turn
    NO_TARGET = "NO_TARGET"                # Targeting and Legality: a target cannot be defined
    NOT_PRESENT = "NOT_PRESENT"            # presence and relevance in a battle or raid
    NOT_NOW = "NOT_NOW"                    # the ability's descriptor does not fit this moment
    GLORY = "GLORY"                        # the heroes named do not pay the quest's Glory cost
    QUEST_RULE = "QUEST_RULE"              # one incomplete quest; no copy in play or buried
    BAD_ASSIGNMENT = "BAD_ASSIGNMENT"      # units or stealth cards assigned against the rules
    BAD_ABSORB = "BAD_ABSORB"              # a card that cannot absorb this damage
    HAND_SIZE = "HAND_SIZE"                # Winter: discard exactly down to your hand size


REASONS = tuple(r.value for r in NineReason)
