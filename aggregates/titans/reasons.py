"""Titans' own reason codes (the kernel's enum keeps only what every game shares)."""

from __future__ import annotations

from aggregates.kernel import GameReason


class TitansReason(GameReason):
    """Why the rules refused a Titans command, beyond the kernel's codes."""

    NOT_HELD = "NOT_HELD"                  # a card named is not in the player's hand/deck top
    NO_SUCH_ACTION = "NO_SUCH_ACTION"      # the Order taken does not show that action (any more)
    NOT_ADJACENT = "NOT_ADJACENT"          # no border joins the two regions
    INACTIVE_REGION = "INACTIVE_REGION"    # the region is out of play for this setup
    NO_UNITS = "NO_UNITS"                  # the player has no such units there
    SUPPLY_EXHAUSTED = "SUPPLY_EXHAUSTED"  # no unit of that type (or Stronghold) is left
    NOT_CONTROLLED = "NOT_CONTROLLED"      # the region is not the player's
    LAST_REGION = "LAST_REGION"            # Last Region: that Nation's region may not be attacked
    NO_CONTROL_TOKEN = "NO_CONTROL_TOKEN"  # leaving a region empty needs a Control Token
    CANNOT_PAY = "CANNOT_PAY"              # the Support Cards paid do not match the cost
    REQUIREMENT = "REQUIREMENT"            # a card's or an ability's requirement is not met
    ALREADY_USED = "ALREADY_USED"          # once per Battle / Round / Turn, already used
    NO_DIE = "NO_DIE"                      # that die is no longer in the player's reserve
    NOT_ACCOMPLISHED = "NOT_ACCOMPLISHED"  # the Secret Objective's condition is not met
    BAD_SET = "BAD_SET"                    # Support Cards in a set must share one effect, 1..max


REASONS = tuple(r.value for r in TitansReason)
