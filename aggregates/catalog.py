"""The games this build of Arbiter serves, by rules id, and every rules
version it can still load, by (rules id, rules version).

Adding a game to the build is one line: its class in ``SERVED`` (and its
import). A game that must not be served in production — the template game
under ``tests/`` — is named at start-up instead, in the environment:

    ARBITER_EXTRA_GAMES="tests.template_game:Template"   # module:Class[,module:Class...]

read once, when this module is first imported; an entry that cannot be
imported, is not a ``Game`` or reuses a served (rules id, version) stops the
server with the reason (docs/adding-a-game.md).

Rules versions (docs/rules-versions.md). A game is re-verified by the rules
version that played it, never by a newer one: a rules change that alters
what a command decides would otherwise make every older game "fail" its
re-execution. So each released version stays loadable: when a game's rules
change, the release before is kept as a class of its own (its
``RULES_VERSION`` unchanged) and listed in ``RELEASED`` by its key and its
``module:Class``; ``RULES`` holds them all, keyed by (rules id, rules version),
and ``rules_class`` finds the one a record names. A released class is imported
the first time a record of its version is read, not at start-up: each game
class defines its whole set of event classes when it is made, and the three
released classes cost every server and CLI process some 0.4 s to start.
Among several classes of one rules id the newest version is the one
``GAMES`` serves (new games are made with it). A record whose version this
release cannot load is reported with ``not_loadable`` — never as a failure:
its chain and dice are still checked, only the re-execution is not.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterable, Iterator, Mapping

from aggregates.enin import Enin
from aggregates.ethnos import Ethnos
from aggregates.ettin import Ettin
from aggregates.kernel import Game
from aggregates.kernel.record.verify import known_versions, not_loadable_sentence, version_order
from aggregates.nine_empires import NineEmpires
from aggregates.titans import Titans

EXTRA_GAMES_ENV = "ARBITER_EXTRA_GAMES"
SERVED: tuple[type[Game], ...] = (Enin, Ethnos, Ettin, Titans, NineEmpires)
#: Earlier released rules versions, kept loadable to re-verify and replay the
#: games they recorded: Ettin 1 (its 9+ player tables dealt each box apart),
#: 2 (both recorded the engine's progress in battles and short drafts) and 3
#: (it, as they, recorded the War's steps being entered and its turns moving on),
#: Nine Empires 1.0.0 (it placed the heroes' Winter food itself, asked every
#: player to ally, and let the attacker declare the allies' immunity) and 1.1.0
#: (both recorded the result naming the winner's seat counted from 0), and 1.2.0
#: (it, as they, bowed a hero returning home without its unit, and read "your"
#: card text as every card on your side of a battle), 1.3.0 (it, as they,
#: recorded an engagement's steps: ``ImmunityStep``, ``AbsorbStep``), 1.4.0
#: (it, as they, recorded the phases' beginnings and Winter's steps:
#: ``PhaseBegan``, ``WinterBegan``, ``RedistributionBegan``, ``HandSizeChecked``),
#: 1.5.0 (it, as they, recorded the closing of React windows:
#: ``AbilityResolved``, ``EngagementResolved``), and 1.6.0 (it, as they, asked
#: each seat of a React window once, not again after a React on it).
#: Titans 1.0.0 recorded no ``TurnBegan`` for a Round's first turn, and 1.1.0,
#: as it, recorded the Objective draft's pace (``DraftPassed``, ``DraftEnded``),
#: and 1.2.0, as they, a Support step with nothing to draw (``SupportUnavailable``).
RELEASED: dict[tuple[str, str], str] = {
    ("enin", "1.0.0"): "aggregates.enin.v1:EninV1",
    ("enin", "1.1.0"): "aggregates.enin.v1:EninV1_1",
    ("ethnos", "1.0.0"): "aggregates.ethnos.v1:EthnosV1",
    ("ettin", "1"): "aggregates.ettin.v1:EttinV1",
    ("ettin", "2"): "aggregates.ettin.v1:EttinV2",
    ("ettin", "3"): "aggregates.ettin.v1:EttinV3",
    ("titans", "1.0.0"): "aggregates.titans.v1:TitansV1",
    ("titans", "1.1.0"): "aggregates.titans.v1:TitansV1_1",
    ("titans", "1.2.0"): "aggregates.titans.v1:TitansV1_2",
    ("nine_empires", "1.0.0"): "aggregates.nine_empires.v1:NineEmpiresV1",
    ("nine_empires", "1.1.0"): "aggregates.nine_empires.v1:NineEmpiresV1_1",
    ("nine_empires", "1.2.0"): "aggregates.nine_empires.v1:NineEmpiresV1_2",
    ("nine_empires", "1.3.0"): "aggregates.nine_empires.v1:NineEmpiresV1_3",
    ("nine_empires", "1.4.0"): "aggregates.nine_empires.v1:NineEmpiresV1_4",
    ("nine_empires", "1.5.0"): "aggregates.nine_empires.v1:NineEmpiresV1_5",
    ("nine_empires", "1.6.0"): "aggregates.nine_empires.v1:NineEmpiresV1_6",
}

#: A registry of rules: the class of each (rules id, rules version).
Registry = Mapping[tuple[str, str], type[Game]]


class Rules(Mapping[tuple[str, str], type[Game]]):
    """A registry whose released classes are imported when first asked for.

    Its keys are known without importing anything (``RELEASED`` names each
    class's key); a class, once imported, must be of the key it was listed
    under."""

    def __init__(self, loaded: Mapping[tuple[str, str], type[Game]],
                 later: Mapping[tuple[str, str], str]) -> None:
        clash = set(loaded) & set(later)
        if clash:
            raise shared_version(*sorted(clash)[0])
        self._loaded = dict(loaded)
        self._later = dict(later)

    def __getitem__(self, key: tuple[str, str]) -> type[Game]:
        found = self._loaded.get(key)
        if found is None:
            if key not in self._later:
                raise KeyError(key)
            found = game_class_at(self._later[key])
            if key != (found.RULES_ID, found.RULES_VERSION):
                raise ValueError(f"{self._later[key]} is rules {found.RULES_ID!r} "
                                 f"{found.RULES_VERSION!r}, listed as {key!r}")
            self._loaded[key] = found
        return found

    def __iter__(self) -> Iterator[tuple[str, str]]:
        yield from self._loaded
        yield from (key for key in self._later if key not in self._loaded)

    def __len__(self) -> int:
        return len(self._loaded) + sum(1 for key in self._later if key not in self._loaded)


def shared_version(rules: str, version: str) -> ValueError:
    """Two classes claiming one version of one game: which would re-verify its games?"""
    return ValueError(f"two games share the rules id {rules!r} and version {version!r}")


def released_classes() -> tuple[type[Game], ...]:
    """Every released class, imported (the catalogue-wide checks and tests)."""
    return tuple(RULES[key] for key in RELEASED)


def game_class_at(entry: str) -> type[Game]:
    """The game class a ``module:Class`` entry names, imported."""
    module_name, _, class_name = entry.partition(":")
    if not module_name or not class_name:
        raise ValueError(f"{entry!r} is not module:Class")
    cls = getattr(importlib.import_module(module_name), class_name, None)
    if not isinstance(cls, type) or not issubclass(cls, Game) or not cls.RULES_ID:
        raise ValueError(f"{entry!r} is not a game class")
    return cls


def extra_games(spec: str) -> tuple[type[Game], ...]:
    """The game classes named by ``module:Class`` entries, comma-separated."""
    found: list[type[Game]] = []
    for entry in filter(None, (part.strip() for part in spec.split(","))):
        try:
            found.append(game_class_at(entry))
        except ValueError as exc:
            raise ValueError(f"{EXTRA_GAMES_ENV}: {exc}") from None
    return tuple(found)


def registry(games: Iterable[type[Game]]) -> dict[tuple[str, str], type[Game]]:
    """Every class by (rules id, rules version); two classes claiming one
    version of one game is a mistake (which would re-verify its games?), refused."""
    by_key: dict[tuple[str, str], type[Game]] = {}
    for cls in games:
        key = (cls.RULES_ID, cls.RULES_VERSION)
        if by_key.setdefault(key, cls) is not cls:
            raise shared_version(*key)
    return by_key


def catalogue(games: tuple[type[Game], ...]) -> dict[str, type[Game]]:
    """The served class of each rules id: the newest version among those given
    (the others stay loadable through ``registry``, not served)."""
    by_id: dict[str, type[Game]] = {}
    for (rules, version), cls in registry(games).items():
        served = by_id.get(rules)
        if served is None or version_order(version) > version_order(served.RULES_VERSION):
            by_id[rules] = cls
    return by_id


def rules_class(rules: str, version: str, known: Registry | None = None) -> type[Game] | None:
    """The class that recorded games of ``rules`` at ``version`` (None: not in
    this release). ``known`` defaults to this release's ``RULES``."""
    return (RULES if known is None else known).get((rules, version))


def not_loadable(rules: str, version: str, known: Registry | None = None) -> str:
    """The sentence for a record this release cannot re-execute: which rules
    recorded it, and which versions of them this release does load."""
    registry_ = RULES if known is None else known
    return not_loadable_sentence(rules, version, known_versions(registry_, rules))


_EXTRA = extra_games(os.environ.get(EXTRA_GAMES_ENV, ""))
GAMES: dict[str, type[Game]] = catalogue(SERVED + _EXTRA)
RULES: Rules = Rules(registry(SERVED + _EXTRA), RELEASED)
