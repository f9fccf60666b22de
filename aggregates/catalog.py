"""The games this build of Arbiter serves, by rules id.

Adding a game to the build is one line: its class in ``SERVED`` (and its
import). A game that must not be served in production — the template game
under ``tests/`` — is named at start-up instead, in the environment:

    ARBITER_EXTRA_GAMES="tests.template_game:Template"   # module:Class[,module:Class...]

read once, when this module is first imported; an entry that cannot be
imported, is not a ``Game`` or reuses a served rules id stops the server with
the reason (docs/adding-a-game.md).
"""

from __future__ import annotations

import importlib
import os

from aggregates.enin import Enin
from aggregates.ethnos import Ethnos
from aggregates.ettin import Ettin
from aggregates.kernel import Game

EXTRA_GAMES_ENV = "ARBITER_EXTRA_GAMES"
SERVED: tuple[type[Game], ...] = (Enin, Ethnos, Ettin)


def extra_games(spec: str) -> tuple[type[Game], ...]:
    """The game classes named by ``module:Class`` entries, comma-separated."""
    found: list[type[Game]] = []
    for entry in filter(None, (part.strip() for part in spec.split(","))):
        module_name, _, class_name = entry.partition(":")
        if not module_name or not class_name:
            raise ValueError(f"{EXTRA_GAMES_ENV}: {entry!r} is not module:Class")
        cls = getattr(importlib.import_module(module_name), class_name, None)
        if not isinstance(cls, type) or not issubclass(cls, Game) or not cls.RULES_ID:
            raise ValueError(f"{EXTRA_GAMES_ENV}: {entry!r} is not a game class")
        found.append(cls)
    return tuple(found)


def catalogue(games: tuple[type[Game], ...]) -> dict[str, type[Game]]:
    """Games by rules id; two games with one id is a mistake, refused."""
    by_id: dict[str, type[Game]] = {}
    for cls in games:
        if by_id.setdefault(cls.RULES_ID, cls) is not cls:
            raise ValueError(f"two games share the rules id {cls.RULES_ID!r}")
    return by_id


GAMES: dict[str, type[Game]] = catalogue(SERVED + extra_games(os.environ.get(EXTRA_GAMES_ENV, "")))
