"""Nine Empires events recorded before an event stated its whole fact, read in
the shape the rules record now (``aggregates.kernel.record.upcast``).

``ReturnedHome`` names the cards it bowed (``bowed``) since rules 1.3.0, which
bow the whole unit ("Bow your target unit to return it home"). Rules 1.0.0 to
1.2.0 bowed the hero alone and recorded only the hero, so an event they stored
bowed exactly its hero: that is its ``bowed``, derived from the event alone
(nothing is left unrecorded), and it is what those versions' re-execution
records (``state.EARLIER_RETURN_HERO``).
"""

from __future__ import annotations

from typing import Any

from aggregates.kernel.record.upcast import Step, versioned


def _returned_home(p: dict[str, Any]) -> None:
    """v2 names the cards bowed; a v1 event bowed its hero alone."""
    p["bowed"] = [p["hero"]]


def install(game_class: Any) -> None:
    """Declare the versions and upcasts on ``game_class``'s event classes."""
    from aggregates.kernel.game import _event_class

    versioned(_event_class(game_class, "ReturnedHome"),
              Step(_returned_home, added=("bowed",)))
