"""Tidewatch, the template game: a small, complete game built only on the
kernel, showing every Kernel 2 feature. Read ``docs/adding-a-game.md`` beside it.

Sections, as in a rulebook: ``components`` (the data), ``table`` (positions,
teams, zones), ``rounds`` (the round), ``bidding`` (1. The Tide Bid),
``shore`` (2. Working the Shore), ``snatching`` (3. Snatching), ``scoring``
(End of the game), ``presentation`` (what readers see); ``game`` wires them
to the kernel; ``commands`` mirror ``protos/arbiter/v1/template.proto``.

Served only when named in ``ARBITER_EXTRA_GAMES=tests.template_game:Template``.
"""

from tests.template_game.game import Template

__all__ = ["Template"]
