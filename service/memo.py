"""A pure function's answers kept for the arguments in use.

Several per-call steps work out the same answer from the same string call
after call (a token's hash, a game id's UUID, a peer's caller); each keeps its
answers in a dict of its own, emptied whole when it reaches its bound, so a
stream of new strings costs memory up to the bound and nothing kept can be
wrong, only dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def kept(answers: dict[K, V], key: K, make: Callable[[K], V], most: int) -> V:
    """``answers[key]``, made by ``make(key)`` the first time (a ``make`` that
    raises keeps nothing); ``answers`` emptied when it holds ``most``."""
    found = answers.get(key)
    if found is None:
        found = make(key)
        if len(answers) >= most:
            answers.clear()
        answers[key] = found
    return found
