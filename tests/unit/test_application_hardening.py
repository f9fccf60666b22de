"""The application refuses hostile or unlucky input cleanly, in-process (no server,
no Redis): create races, nested options, bad seat names, malformed Redis
messages, store errors under the relay, reused request ids."""

from __future__ import annotations

import collections
import json
import threading
import uuid
from pathlib import Path
from typing import Any

import pytest

from aggregates.kernel import Reason, RuleError
from service.application import GAMES_LOG_ID, ArbiterApp
from service.errors import ServiceError
from service.feeds import FeedHub


@pytest.fixture
def app(tmp_path: Path) -> ArbiterApp:
    return ArbiterApp({
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(tmp_path / "review.sqlite"),
        "CREATE_TABLE": "y",
    })


def test_a_create_that_loses_the_catalogue_race_still_saves_the_game(app: ArbiterApp) -> None:
    """A conflict on the catalogue's version must not record a catalogue entry without its game.

    The first save collects (and so empties) the game's pending events; a retry
    that saves the same objects again used to record only the catalogue entry,
    so the caller got tokens of a game that does not exist and ListGames failed
    for everyone on the dangling entry.
    """
    app.create_game("enin", ["solo"])
    original = app.games_log.trigger_event
    calls = {"n": 0}

    def conflicting(**kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:  # another writer took this catalogue version first
            return original(next_originator_version=1, **kwargs)
        return original(**kwargs)

    app.games_log.trigger_event = conflicting  # type: ignore[method-assign]
    game = app.create_game("enin", ["solo"])
    assert calls["n"] == 2, "the first save conflicted and was retried"
    assert app.game(str(game.id)).version == game.version
    assert app.access(game.id) is not None
    for entry in app.list_games():
        app.game(str(entry.game_id))  # every catalogue entry names a stored game


def test_the_catalogue_id_is_not_a_game(app: ArbiterApp) -> None:
    app.create_game("enin", ["solo"])
    with pytest.raises(ServiceError) as info:
        app.game(str(GAMES_LOG_ID))
    assert info.value.reason == "UNKNOWN_GAME"


@pytest.mark.parametrize(
    "text",
    ["[" * 2000 + "]" * 2000, '{"a":' + "[" * 1500 + "]" * 1500 + "}"],
    ids=["list", "object"],
)
def test_deeply_nested_options_are_a_bad_argument_not_a_crash(app: ArbiterApp, text: str) -> None:
    assert len(text) <= 4096
    with pytest.raises(ServiceError) as info:
        app.create_game("enin", ["solo"], text)
    assert (info.value.status, info.value.reason) == ("INVALID_ARGUMENT", "BAD_OPTIONS")


def test_oversized_options_are_invalid_argument_as_documented(app: ArbiterApp) -> None:
    """docs/operations.md (Limits): options_json over 4 KiB is INVALID_ARGUMENT."""
    with pytest.raises(ServiceError) as info:
        app.create_game("enin", ["solo"], json.dumps({"x": "y" * 5000}))
    assert info.value.status == "INVALID_ARGUMENT"


@pytest.mark.parametrize("name", ["evil\x1b[2J", "new\nline", "\u202etxt"])
def test_seat_names_must_be_printable(app: ArbiterApp, name: str) -> None:
    """Seat names are shown to everyone (ListGames, every client's screen); the kernel
    refuses them for every game (the servicer maps BAD_SEATS to INVALID_ARGUMENT)."""
    with pytest.raises(RuleError) as info:
        app.create_game("enin", [name])
    assert info.value.reason == Reason.BAD_SEATS


@pytest.mark.parametrize(
    "message",
    [
        {"game_id": "g", "version": "9", "position": 1},
        {"game_id": "g", "version": 1, "position": "x"},
        {"game_id": ["g"], "version": 1, "position": 1},
        [1, 2, 3],
        {"game_id": "g", "version": 1e308, "position": 10**30},
    ],
)
def test_a_malformed_redis_message_does_not_kill_the_feed_hub(message: Any) -> None:
    hub = FeedHub("redis://127.0.0.1:1/0")
    hub._on_message(json.dumps(message).encode())
    hub._on_message(json.dumps({"game_id": "g", "version": 3, "position": 7}).encode())
    assert hub.ticket("g") == hub.ticket_all() > 0


def test_the_relay_survives_a_store_error_and_gives_up_the_lead() -> None:
    """Any error while publishing (not only Redis's) must not kill the relay thread.

    A dead relay keeps its leadership (the PostgreSQL advisory lock or the
    SQLite lock file) forever, so no process publishes again.
    """
    from service.relay import FeedRelay

    class Positions:
        def __init__(self) -> None:
            self.acquired = 0
            self.released = 0

        def acquire(self) -> bool:
            self.acquired += 1
            return True

        def release(self) -> None:
            self.released += 1

        def load(self) -> int:
            return 0

        def save(self, position: int) -> None:
            pass

    class App:
        saved = threading.Event()
        calls = 0
        committed: collections.deque[list[Any]] = collections.deque()
        keep_committed = False

        def notifications(self, after: int, limit: int = 200) -> list[Any]:
            App.calls += 1
            if App.calls == 1:
                raise OSError("the store went away")
            return []

    positions = Positions()
    relay = FeedRelay(App(), "redis://127.0.0.1:1/0", positions)  # type: ignore[arg-type]
    relay.start()
    try:
        deadline = threading.Event()
        for _ in range(100):
            if App.calls >= 2:
                break
            deadline.wait(0.05)
        assert relay.is_alive(), "the relay thread died on a store error"
        assert App.calls >= 2, "the relay tried again"
        assert positions.released >= 1 and positions.acquired >= 2, "it re-took the lead"
    finally:
        relay.stop()
        relay.join(timeout=5)


def test_unexpected_errors_reach_the_client_as_internal_without_details() -> None:
    """An unforeseen exception becomes INTERNAL with a generic sentence, not its text."""
    import grpc

    from service.servicer import refusals

    class Aborted(Exception):
        pass

    class Context:
        trailers: Any = None
        aborted: Any = None

        def set_trailing_metadata(self, trailers: Any) -> None:
            self.trailers = trailers

        def abort(self, code: Any, details: str) -> None:
            self.aborted = (code, details)
            raise Aborted

    class Servicer:
        @refusals
        def Unary(self, request: Any, context: Any) -> Any:
            raise KeyError("seat 1 holds card 42")

        @refusals
        def Stream(self, request: Any, context: Any) -> Any:
            yield 1
            raise ValueError("seat 1 holds card 42")

    for call in (
        lambda s, c: s.Unary(None, c),
        lambda s, c: list(s.Stream(None, c)),
    ):
        context = Context()
        with pytest.raises(Aborted):
            call(Servicer(), context)
        code, details = context.aborted
        assert code == grpc.StatusCode.INTERNAL
        assert "42" not in details
        assert dict(context.trailers)["arbiter-reason"] == "INTERNAL"


def test_game_ids_are_uuids_even_for_unknown_games(app: ArbiterApp) -> None:
    with pytest.raises(ServiceError) as info:
        app.game(str(uuid.uuid4()))
    assert info.value.reason == "UNKNOWN_GAME"


class FakeContext:
    """Just enough of grpc.ServicerContext for a stream driven in-process."""

    def __init__(self, token: str) -> None:
        self.token = token
        self.active = True
        self.callbacks: list[Any] = []

    def invocation_metadata(self) -> Any:
        return (("authorization", f"Bearer {self.token}"),)

    def is_active(self) -> bool:
        return self.active

    def add_callback(self, callback: Any) -> bool:
        self.callbacks.append(callback)
        return True

    def cancel(self) -> None:
        self.active = False
        for callback in self.callbacks:
            callback()

    def set_trailing_metadata(self, trailers: Any) -> None:
        pass

    def abort(self, code: Any, details: str) -> None:
        raise AssertionError(f"aborted: {code} {details}")


def test_a_bogus_wake_up_does_not_make_a_feed_spin_on_the_store(app: ArbiterApp) -> None:
    """A version on Redis the store does not have (forged, or another deployment's)
    must not turn every waiting Subscribe stream into a busy loop over the store."""
    from arbiter.v1 import game_pb2

    from service.servicer import GameServicer

    hub = FeedHub("redis://127.0.0.1:1/0")
    hub.healthy = True
    servicer = GameServicer(app, hub)
    game = app.create_game("enin", ["solo"])
    token = app.credentials.spectator_token(game.id)
    hub._on_message(json.dumps(
        {"game_id": str(game.id), "version": 10**9, "position": 10**9}).encode())
    reads = {"n": 0}
    original = app.game_events

    def counting(*args: Any, **kwargs: Any) -> Any:
        reads["n"] += 1
        return original(*args, **kwargs)

    app.game_events = counting  # type: ignore[method-assign]
    context = FakeContext(token)
    stream = servicer.Subscribe(
        game_pb2.SubscribeRequest(game_id=str(game.id), spectator=True), context)
    reader = threading.Thread(target=lambda: list(stream), daemon=True)
    reader.start()
    threading.Event().wait(1.0)
    context.cancel()
    reader.join(timeout=10)
    assert not reader.is_alive()
    assert reads["n"] < 10, f"{reads['n']} store reads in one second"


def test_a_request_id_does_not_hand_out_tokens_once_play_has_begun(app: ArbiterApp) -> None:
    """A retried CreateGame returns the game (and so its tokens): anyone who
    learns or guesses a request id must not get the seats of a game under way."""
    game = app.create_game("enin", ["solo"], "", "match-42")
    assert app.create_game("enin", ["solo"], "", "match-42").id == game.id  # a real retry
    app.act(str(game.id), 0, {"name": "roll_start", "args": {}})
    with pytest.raises(ServiceError) as info:
        app.create_game("enin", ["solo"], "", "match-42")
    assert (info.value.status, info.value.reason) == ("ALREADY_EXISTS", "REQUEST_ID_USED")


def test_a_request_id_reused_for_another_request_is_refused(app: ArbiterApp) -> None:
    app.create_game("ethnos", ["ann", "bob"], "", "table-7")
    with pytest.raises(ServiceError) as info:
        app.create_game("ethnos", ["ann", "bob", "cy"], "", "table-7")
    assert (info.value.status, info.value.reason) == ("ALREADY_EXISTS", "REQUEST_ID_USED")
