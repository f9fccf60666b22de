"""The steps of Ethnos: each decision the game can wait on, with its prompt.

Each step is a ``Decision.kind`` and a ``Step`` of the kernel ``Flow``
(``flow.py``), whose moves say which commands answer it; a command its step
does not list is refused with ``WRONG_PHASE`` and the prompt of the step awaited.
"""

from __future__ import annotations

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
    TURN: "Recruit an Ally (face up, or the top of the deck) or Play a Band",
    WINGFOLK: "Wingfolk: place the Control marker in any Kingdom the band is large enough "
              "for",
    MERFOLK: "Merfolk: place a free Control marker in any Kingdom",
    TROLL: "Trolls: take an unclaimed Troll token worth at most the band's size",
    CENTAUR: "Centaurs: play another band from your hand, or stop",
    ELVES: "Elves: keep up to as many cards as the band has; the rest is discarded",
    WIZARDS: "Wizards: draw as many cards as the band has from the Allies Deck, or not",
    ORC_HORDE: "End of the Age: score and clear your Orc Horde board, or keep it",
}
