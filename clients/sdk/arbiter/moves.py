"""A random legal move from a ``LegalActions`` answer: what a bot plays.

One picker for every bot: ``arbiter simulate`` (``arbiter.answers.bot_move``) and
the web side's bots (``service.web.bots``) pick a listed action uniformly at
random and answer the decision it belongs to, so both play the same way. It
reads the wire message only (``actions``, ``decisions`` with their
``choices_json``), never a game: the server judges every move.
"""

from __future__ import annotations

import json
import random
from typing import Any


def listed_decision(legal: Any) -> str:
    """The id of the decision a listed action answers: the first one offering
    ``pick_one``, else the first pending one ("" when none is named)."""
    for decision in legal.decisions:
        try:
            choices = json.loads(decision.choices_json or "[]")
        except json.JSONDecodeError:
            choices = []
        if isinstance(choices, list) and any(
                isinstance(c, dict) and c.get("kind") == "pick_one" for c in choices):
            return str(decision.id)
    return str(legal.decisions[0].id) if legal.decisions else ""


def random_listed(legal: Any, rng: random.Random) -> tuple[Any, str] | None:
    """``(action, decision id)``: a uniformly random listed action, or ``None``
    when none is listed."""
    if not legal.actions:
        return None
    return rng.choice(list(legal.actions)), listed_decision(legal)
