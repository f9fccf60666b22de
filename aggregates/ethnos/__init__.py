"""Ethnos: 2-6 players recruit Allies, play Bands and control the Kingdoms."""

from aggregates.ethnos.game import Ethnos

__all__ = ["Ethnos"]
