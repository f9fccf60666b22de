"""A game laid out as every game is (docs/adding-a-game.md, "Package layout"):
its declarations read from its package's rooms, each fact declared once.

Every game keeps its commands in ``commands.py``, its flow in ``flow.py``, its
events and the shapes of its setup and outcome in ``events.py``, their apply
in ``apply.py``, its words in ``present.py``, its reason codes in
``reasons.py`` and its readers' views in ``views.py``. A game class naming its
package (``class Ettin(Game, package=__package__)``) is given them from there,
so no game copies the same block of settings; its summary is its docstring's
body, and its seat counts are its ``GAME_TYPE``'s players."""

from __future__ import annotations

import importlib
import inspect
from typing import Any

#: The settings read from a laid-out game's package: (class setting, module,
#: name in it; None: the module itself).
ROOMS = (("COMMANDS", "commands", "COMMANDS"), ("FLOW", "flow", "FLOW"),
         ("EVENTS", "events", "EVENTS"), ("SETUP", "events", "Setup"),
         ("OUTCOME", "events", "Outcome"), ("APPLY", "apply", "apply"),
         ("PRESENT", "present", None), ("REASONS", "reasons", "REASONS"),
         ("VIEWS", "views", None))


def summary_of(doc: str) -> str:
    """A game's summary for lobbies and ``arbiter rules``: its docstring's
    paragraphs after the first line, on one line."""
    _first, _, body = inspect.cleandoc(doc).partition("\n\n")
    return " ".join(body.split())


class LaidOut:
    """The game's side of it (a mixin of ``Game``)."""

    #: A short summary for lobbies and ``arbiter rules``.
    SUMMARY = ""
    #: The module whose ``view(game, seat)`` is each reader's view (``views.py``).
    VIEWS: Any = None

    def __init_subclass__(cls, package: str = "", **kwargs: Any) -> None:
        """Set the settings of ``ROOMS`` the class does not set itself from its
        ``package``'s modules, before the events are declared on it, and its
        ``SUMMARY`` from its docstring; and seat as many as a ``GAME_TYPE`` the
        class gives says (a seat count that differs from it is refused)."""
        for setting, module, name in ROOMS if package else ():
            if setting not in cls.__dict__:
                room = importlib.import_module(f"{package}.{module}")
                setattr(cls, setting, getattr(room, name) if name else room)
        if package and "SUMMARY" not in cls.__dict__ and cls.__doc__:
            cls.SUMMARY = summary_of(cls.__doc__)
        declared = cls.__dict__.get("GAME_TYPE")
        if declared is not None:
            for setting, players in (("MIN_SEATS", declared.min_players),
                                     ("MAX_SEATS", declared.max_players)):
                if cls.__dict__.get(setting, players) != players:
                    raise TypeError(f"{cls.__name__}.{setting} is not its GAME_TYPE's")
                setattr(cls, setting, players)
        super().__init_subclass__(**kwargs)
