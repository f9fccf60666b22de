"""Romance of the Nine Empires (rulebook and rulings in docs/games/nine-empires.md)."""

from aggregates.nine_empires.game import NineEmpires

__all__ = ["NineEmpires"]
