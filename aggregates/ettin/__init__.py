"""Ettin: alliances of two draft, recruit and go to War over three Ages."""

from aggregates.ettin.game import Ettin

__all__ = ["Ettin"]
