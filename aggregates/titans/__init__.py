"""Titans: a map game of Nations, Order Cards, battles and Victory Points."""

from aggregates.titans.game import Titans

__all__ = ["Titans"]
