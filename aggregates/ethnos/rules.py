"""The stages of Ethnos: the decision the game waits on, with its prompt.

Each stage is a ``Decision.kind`` and a key of the kernel ``Flow`` (``flow.py``),
whose moves say which commands each stage accepts; a command sent in another
stage is refused with ``WRONG_PHASE`` and the prompt of the stage awaited.
"""

from __future__ import annotations

from aggregates.kernel import GameReason

# ``Decision.kind``, in rulebook order.
TURN = "turn"            # Playing Through an Age: Recruit an Ally or Play a Band
WINGFOLK = "wingfolk"    # Wingfolk leader: the Kingdom of the Control marker
MERFOLK = "merfolk"      # Merfolk track space 3/7/12/18: a free Control marker anywhere
TROLL = "troll"          # Trolls leader: the Troll token to take
CENTAUR = "centaur"      # Centaurs leader placed a marker: another band, or stop
ELVES = "elves"          # Elves leader: the cards to keep
WIZARDS = "wizards"      # Wizards leader, after the discard: draw X cards, or not
ORC_HORDE = "orc_horde"  # End of an Age (not the last): score the Orc Horde board or keep it
OVER = "over"


PROMPTS = {
    TURN: "Recruit an Ally (recruit_face_up / recruit_from_deck) or Play a Band (play_band)",
    WINGFOLK: "Wingfolk: place the Control marker in any Kingdom the band is large enough "
              "for (choose_kingdom)",
    MERFOLK: "Merfolk: place a free Control marker in any Kingdom (choose_kingdom)",
    TROLL: "Trolls: take an unclaimed Troll token of value at most X (take_troll_token)",
    CENTAUR: "Centaurs: play another band from your hand (play_band) or stop (end_band)",
    ELVES: "Elves: choose up to X cards to keep; the rest is discarded (keep_cards)",
    WIZARDS: "Wizards: draw X cards from the Allies Deck, or not (wizards_draw)",
    ORC_HORDE: "End of the Age: score and clear your Orc Horde board, or keep it "
               "(score_orc_horde)",
}


class EthnosReason(GameReason):
    """Ethnos' own reason code (the kernel's enum keeps only what every game shares).

    Its value is the code Ethnos always sent, so clients see no change.
    """

    NOT_HELD = "NOT_HELD"  # a band's or a kept card is not in the player's hand


REASONS = tuple(r.value for r in EthnosReason)
