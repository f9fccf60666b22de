"""A review of the reads answered on the server's loop and of the looks ahead
that keep their games caught up (``ArbiterApp.hold_cached``,
``ArbiterApp.look_ahead``, ``Lookout``), on what they may not do:

- a look may vouch for the cached game only as the catch-up it stands in for
  would have left it: never for a game that a read's catch-up, failing part
  of the way, left half-changed between the look's query and its note;
- a look that found another server's write is not asked again and again for
  the same look at the store: the store is asked about as often as the
  reads' own catch-ups would (docs/performance.md), not once a read.

Two server processes on one store are two applications on one SQLite file."""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from service.application import ArbiterApp
from tests.unit.test_read_freshness import make_app

#: The reads' freshness in the look-ahead test: long enough that the other
#: server's first move (its game loaded, its command decided, committed) ends
#: well before half of it on a loaded machine.
FRESHNESS_MS = 2000


def read_at_hand(app: ArbiterApp, gid: uuid.UUID) -> bool:
    """One read as the loop makes it (``service.aio.at_hand``): the game held,
    its facts read (which asks a look when one is due), let go. Whether it
    was at hand."""
    held = app.hold_cached(gid)
    if held is None:
        return False
    try:
        held.facts(str(gid))
    finally:
        held.release()
    return True


def test_a_look_vouches_for_no_game_a_failed_catch_up_left_half_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The look's query finds nothing new (it began before another server's
    write); then, before its note, a read's catch-up of that write fails part
    of the way, leaving the cached game half-changed at its old version (the
    library applies an event before it moves the version on). The pool's
    next read would ask the store again and fail again; the look must not
    note that game caught up, or its reads answer from the half-applied
    event, on the loop and on the pool, for a whole freshness period."""
    one, other = (make_app(tmp_path / "s.sqlite", "60000"),
                  make_app(tmp_path / "s.sqlite", "60000"))
    try:
        game_id = str(one.create_game("enin", ["solo"]).id)
        gid = uuid.UUID(game_id)
        one.access(gid)
        one.facts(game_id)
        cached = one._cached(gid)
        version, head = cached.version, cached.head
        move = other.legal_actions(game_id, 0).actions[0].command
        looked: list[int] = []
        real_get = one.events.get

        def caught_up_failing(meta: Any, at: int) -> None:
            type(cached)._follow_chain(cached, meta, at)  # the head moved on...
            raise RuntimeError("this event cannot be applied here")  # ...the version not

        def get(*args: Any, **kwargs: Any) -> Any:
            found = list(real_get(*args, **kwargs))
            if kwargs.get("limit") == 1 and not looked:  # the look's query
                looked.append(1)
                other.act(game_id, 0, move)  # committed after the look's query began
                monkeypatch.setattr(cached, "_follow_chain", caught_up_failing, raising=False)
                with pytest.raises(RuntimeError):
                    one.game(game_id)  # a read's catch-up (``_current_version``'s)
                monkeypatch.delattr(cached, "_follow_chain")
            return iter(found)

        monkeypatch.setattr(one.events, "get", get)
        one.look_ahead(gid)
        assert looked, "the look asked the store"
        assert one._cached(gid) is cached and cached.version == version
        assert cached.head != head, "the failed catch-up left the game half-changed"
        assert one.hold_cached(gid) is None, "a game half-changed is never read as caught up"
        assert gid not in one._checked
    finally:
        one.close()
        other.close()


def test_a_look_that_found_another_server_write_is_not_asked_again_for_it(
        tmp_path: Path) -> None:
    """Another server wrote: the look finds it and notes nothing, and the
    reads on the loop go on answering from the cached game until its look at
    the store lapses (as the pool's reads would). They must not ask the
    store again on every read meanwhile: the same look, finding the same
    write, made once a read (hundreds here, where one is enough).

    The times are the look's own (``first``): reads from just past half its
    freshness to near its lapse. Counted from the test's steps instead, a
    loaded machine's slow first move by the other server once left a single
    read before the lapse."""
    one, other = (make_app(tmp_path / "s.sqlite", str(FRESHNESS_MS)),
                  make_app(tmp_path / "s.sqlite", str(FRESHNESS_MS)))
    try:
        looks: list[uuid.UUID] = []
        look = one.lookout._look

        def counted(gid: uuid.UUID) -> None:
            looks.append(gid)
            look(gid)

        one.lookout._look = counted
        one.lookout.start()
        game_id = str(one.create_game("enin", ["solo"]).id)
        gid = uuid.UUID(game_id)
        one.access(gid)
        one.facts(game_id)
        first = one._checked[gid]
        move = other.legal_actions(game_id, 0).actions[0].command
        version = other.act(game_id, 0, move).version
        fresh = FRESHNESS_MS / 1000
        time.sleep(max(0.0, first[1] + 0.55 * fresh - time.monotonic()))  # a look is due
        reads = 0
        until = first[1] + 0.9 * fresh  # the look's lapse is at first + fresh
        assert time.monotonic() < until, "the other server's move took the whole window"
        while time.monotonic() < until:
            assert read_at_hand(one, gid), "at hand until its look lapses"
            reads += 1
            time.sleep(0.002)
        deadline = time.monotonic() + 5
        while one.lookout._asked and time.monotonic() < deadline:
            time.sleep(0.005)
        assert one._checked[gid] is first, "nothing noted: the store holds a newer write"
        assert reads > 50
        assert len(looks) <= 2, f"{len(looks)} looks for {reads} reads"
        time.sleep(max(0.0, first[1] + fresh - time.monotonic()))
        assert one.hold_cached(gid) is None, "lapsed: the next read looks at the store"
        assert one.facts(game_id).version == version
        assert read_at_hand(one, gid), "caught up again: at hand again"
    finally:
        one.close()
        other.close()
