"""The Land of Enin: a solo quest game (rules, tables, views)."""

from aggregates.enin.game import Enin

__all__ = ["Enin"]
