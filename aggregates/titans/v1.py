"""Titans rules version "1.0.0": kept so the games recorded under it are
re-verified by the rules that played them (docs/rules-versions.md).

Version 1.1.0 records a ``TurnBegan`` for a Round's first turn, as for every
other turn; 1.0.0 began the Starting Player's turn with the Order Pool drawn
(``OrderPoolDrawn``) and recorded no ``TurnBegan`` for it
(``state.EARLIER_FIRST_TURN``). No event changed shape, so nothing is upcast.

A game is played by the earlier rules of the version its creation event
records (``Titans.earlier``), so this class only names the version: it
creates 1.0.0 games and is the class ``catalog.RULES`` finds for their
records; a stored 1.0.0 game loaded by the served class goes on by 1.0.0 too.
"""

from __future__ import annotations

from aggregates.titans.game import Titans


class TitansV1(Titans):
    RULES_VERSION = "1.0.0"
