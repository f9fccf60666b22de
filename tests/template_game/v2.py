"""Tidewatch rules version 2: a test-only rules change, to show that a game
recorded under version 1 is still re-verified by version 1 after it.

The change: the rising tide pays every position one coin more each round.
It alters what a command decides (the ``TideRose`` payload), not how an event
evolves the state, which is exactly the change that would make every older
game "fail" re-execution if it were re-run through the newest rules. Version 1
(``Template``) stays loadable beside it: register both, e.g.

    ARBITER_EXTRA_GAMES="tests.template_game:Template,tests.template_game.v2:TemplateV2"

and the newer one serves new games (docs/rules-versions.md).
"""

from __future__ import annotations

from tests.template_game.game import Template


class TemplateV2(Template):
    RULES_VERSION = "2"

    def tide_gain(self, number: int) -> int:
        """Version 2: one coin more than version 1, every round."""
        return super().tide_gain(number) + 1
