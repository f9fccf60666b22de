"""The games this build of Arbiter serves, by rules id."""

from __future__ import annotations

from aggregates.enin import Enin
from aggregates.ethnos import Ethnos
from aggregates.kernel import Game

GAMES: dict[str, type[Game]] = {cls.RULES_ID: cls for cls in (Enin, Ethnos)}
