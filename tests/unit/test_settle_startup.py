"""A server hides the objects its start made from the cyclic collector
(``service.main.settle_startup_objects``, issue 20: a full collection walked
them all, 52-67 ms with every thread stopped), after collecting what the start
left as garbage, so that none of it is kept for ever."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from service.main import settle_startup_objects


@pytest.fixture
def unfrozen() -> Iterator[None]:
    yield
    gc.unfreeze()  # the test process goes on as it was


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def test_the_start_is_frozen_and_its_garbage_collected_first(unfrozen: None) -> None:
    garbage = Node()
    garbage.other = Node()
    garbage.other.other = garbage  # a cycle nothing refers to, once dropped
    gone = weakref.ref(garbage)
    del garbage
    settle_startup_objects()
    assert gone() is None, "the start's garbage was frozen, not collected"
    assert gc.get_freeze_count() > 0
