"""The feed hub's wake-ups (the Subscribe p99 of issue 13): each waiting stream
has a condition of its own, and a message wakes only its game's streams (and
those following every game). Behaviour only, no timings: every wait here has
a poll interval far longer than the test, so a lost wake-up hangs the thread
instead of passing by the poll.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable

from service.feeds import FeedHub

NEVER = 600.0  # a poll interval no test waits out
JOIN = 30.0


def _hub() -> FeedHub:
    hub = FeedHub("redis://127.0.0.1:1/0")  # never started: messages are fed by hand
    hub.healthy = True
    return hub


def _publish(hub: FeedHub, game_id: str) -> None:
    hub._on_message(json.dumps({"game_id": game_id, "version": 1, "position": 1}).encode())


def _waiting(hub: FeedHub, key: str | None, count: int = 1) -> None:
    """Block until ``count`` streams wait on ``key`` (registration is the hand-off)."""
    done = threading.Event()

    def check() -> bool:
        with hub.lock:
            return len(hub.waiting.get(key, ())) >= count

    while not check():
        done.wait(0.001)


def _in_thread(target: Callable[[], None]) -> threading.Thread:
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread


def test_a_wake_up_between_the_ticket_and_the_wait_is_not_lost() -> None:
    """The stream's store read runs between its ticket and its wait: a message
    that arrives then must end the wait at once, not at the next poll."""
    hub = _hub()
    ticket = hub.ticket("g")
    _publish(hub, "g")  # during the store read
    waiter = _in_thread(lambda: hub.wait_game("g", ticket, lambda: False, NEVER))
    waiter.join(JOIN)
    assert not waiter.is_alive()
    assert hub.waiting == {}


def test_a_wake_up_reaches_the_waiting_stream_of_its_game_only() -> None:
    hub = _hub()
    tickets = {g: hub.ticket(g) for g in ("a", "b")}
    returned: list[str] = []

    def follow(game_id: str) -> None:
        hub.wait_game(game_id, tickets[game_id], lambda: False, NEVER)
        returned.append(game_id)

    threads = {g: _in_thread(functools.partial(follow, g)) for g in ("a", "b")}
    _waiting(hub, "a")
    _waiting(hub, "b")
    _publish(hub, "a")
    threads["a"].join(JOIN)
    assert returned == ["a"]
    # b's stream still waits, still registered, and its own message ends it.
    assert threads["b"].is_alive()
    with hub.lock:
        assert len(hub.waiting["b"]) == 1
        assert "a" not in hub.waiting
    _publish(hub, "b")
    threads["b"].join(JOIN)
    assert returned == ["a", "b"]
    assert hub.waiting == {}


def test_a_stream_of_every_game_wakes_on_any_game() -> None:
    hub = _hub()
    ticket = hub.ticket_all()
    waiter = _in_thread(lambda: hub.wait_all(ticket, lambda: False, NEVER))
    _waiting(hub, None)
    _publish(hub, "any-game")
    waiter.join(JOIN)
    assert not waiter.is_alive()
    assert hub.waiting == {}


def test_a_status_change_a_client_gone_and_a_stop_still_wake_every_stream() -> None:
    hub = _hub()
    gone = threading.Event()
    # A change of status ("degraded: nothing is publishing") ends the waits.

    def follow(game_id: str) -> None:
        hub.wait_game(game_id, hub.ticket(game_id), gone.is_set, NEVER)

    waiters = [_in_thread(functools.partial(follow, g)) for g in ("a", "b")]
    waiters.append(_in_thread(lambda: hub.wait_all(hub.ticket_all(), gone.is_set, NEVER)))
    _waiting(hub, "a")
    _waiting(hub, "b")
    _waiting(hub, None)
    hub.set_publishing(False)
    for thread in waiters:
        thread.join(JOIN)
        assert not thread.is_alive()
    # A client gone (the servicer's callback sets its flag, then ``wake``).
    waiter = _in_thread(lambda: hub.wait_game("a", hub.ticket("a"), gone.is_set, NEVER))
    _waiting(hub, "a")
    gone.set()
    hub.wake()
    waiter.join(JOIN)
    assert not waiter.is_alive()
    # The server stopping.
    waiter = _in_thread(lambda: hub.wait_game("a", hub.ticket("a"), lambda: False, NEVER))
    _waiting(hub, "a")
    hub.stop()
    waiter.join(JOIN)
    assert not waiter.is_alive()
    assert hub.waiting == {}


def test_a_message_naming_no_valid_game_wakes_nobody_and_steers_nothing() -> None:
    """A forged message is at most a wake-up of the game it names; one that
    names no valid game (or a game nobody follows) changes no stream's ticket."""
    hub = _hub()
    ticket = hub.ticket("a")
    for data in (b"{", b'{"game_id": 7}', json.dumps({"game_id": "x" * 65}).encode(),
                 json.dumps({"game_id": "b", "version": 2**62}).encode()):
        hub._on_message(data)
    assert hub.ticket("a") == ticket
    assert hub.waiting == {}
