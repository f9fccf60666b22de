"""Helpers every game's ``testing.py`` shares (its tests' stacked tables);
the rules never import them."""

from __future__ import annotations

from typing import Any, TypeVar

G = TypeVar("G")


def arrange(game: G, **state: Any) -> G:
    """Set the named state fields of ``game`` for a test's table; a name the
    game's state does not have is refused, so a typo cannot arrange nothing."""
    for name, value in state.items():
        if not hasattr(game, name):
            raise AttributeError(f"{type(game).__name__} has no state field {name!r}")
        setattr(game, name, value)
    return game
