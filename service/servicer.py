"""The gRPC GameService: requests in, rules and store behind, envelopes out.

Shaped like gRPC's route_guide servicer: one method per RPC, each a thin
translation between protobuf and the application. Every refusal leaves with a
gRPC status, a stable reason code in the ``arbiter-reason`` trailer, the
game's version in ``arbiter-version``, and a sentence.
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import grpc
from arbiter.v1 import game_pb2, game_pb2_grpc
from arbiter.wire import WireError, command_to_json, json_to_command
from eventsourcing.persistence import IntegrityError

from aggregates.catalog import GAMES
from aggregates.kernel import Decision, Game, Reason, RuleError
from aggregates.kernel.schemas import schemas_text
from service import auditing, auth, timetravel
from service.application import SAVE_ATTEMPTS, ArbiterApp, parse_game_id
from service.envelope import SPECTATOR, Reader, dumps, to_proto
from service.errors import ServiceError, bad_request
from service.feeds import FeedHub
from service.status import refusal

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 10.0
#: The last message of a game's feed: nothing can follow the Ended event.
ENDED = "ended: the game is over"
MAX_SEATS_IN_REQUEST = 16
INVALID_REASONS = {
    Reason.BAD_ARGUMENT, Reason.UNKNOWN_COMMAND, Reason.BAD_OPTIONS,
    Reason.BAD_SEATS, Reason.UNKNOWN_SEAT,
}

F = TypeVar("F", bound=Callable[..., Any])


def refusals(method: F) -> F:
    """Turn rule and service errors into statuses with reason trailers.

    Anything else is a bug: it is logged and leaves as ``INTERNAL`` with a
    generic sentence, never with the exception's text (which could name a
    private card or the seed) -- unless the game named has a stored event
    whose bytes no longer parse: that is a damaged store, not a bug, and
    leaves as ``DATA_LOSS``/``DAMAGED_EVENT`` naming the version, without a
    traceback (``auditing.damage_refusal``).
    """

    @functools.wraps(method)
    def wrapper(self: Any, request: Any, context: grpc.ServicerContext) -> Any:
        known = functools.partial(_current_version, self, request)
        damage = functools.partial(_damage, self, request)
        try:
            result = method(self, request, context)
            if isinstance(result, Iterator):
                return _guard_stream(result, context, known, damage)
            return result
        except (ServiceError, RuleError, WireError) as exc:
            _abort(context, exc, known)
        except Exception:
            _abort_unexpected(context, damage, method.__name__)

    return wrapper  # type: ignore[return-value]


def _damage(servicer: Any, request: Any) -> ServiceError | None:
    """``auditing.damage_refusal`` for the servicer's store, asked only once a
    call has failed unexpectedly (a servicer without a store: none)."""
    app = getattr(servicer, "app", None)
    return None if app is None else auditing.damage_refusal(app, request)


def _guard_stream(
    stream: Iterator[Any], context: grpc.ServicerContext, known: Callable[[], int],
    damage: Callable[[], ServiceError | None],
) -> Iterator[Any]:
    try:
        yield from stream
    except (ServiceError, RuleError, WireError) as exc:
        _abort(context, exc, known)
    except Exception:
        _abort_unexpected(context, damage, "a stream")


def _abort_unexpected(
    context: grpc.ServicerContext, damage: Callable[[], ServiceError | None], name: str
) -> None:
    """``DAMAGED_EVENT`` when the game's store is damaged, else a logged ``INTERNAL``."""
    refused = damage()
    if refused is not None:
        _abort(context, refused)
    log.exception("%s failed", name)
    _abort(context, INTERNAL)


class StreamCap(grpc.ServerInterceptor):  # type: ignore[misc]
    """A cap on open response streams, of every service the server hosts.

    The sync gRPC server runs every call on a thread of one fixed pool, and a
    response stream holds its thread for as long as it is open (a feed or a
    health watch, for ever; a History, for as long as its reader is slow).
    Without a cap, anyone able to create a game (no token needed) could open
    enough feeds with its spectator token, or anyone at all enough health
    watches, to take every thread and wedge every other call. Beyond the cap a
    stream is refused with ``RESOURCE_EXHAUSTED``/``TOO_MANY_STREAMS``; unary
    calls always keep threads of their own.
    """

    def __init__(self, limit: int) -> None:
        self.slots = StreamSlots(limit)

    def intercept_service(self, continuation: Any, details: Any) -> Any:
        handler = continuation(details)
        if handler is None or not handler.response_streaming:
            return handler
        if handler.request_streaming:
            behaviour, factory = handler.stream_stream, grpc.stream_stream_rpc_method_handler
        else:
            behaviour, factory = handler.unary_stream, grpc.unary_stream_rpc_method_handler
        slots = self.slots

        def capped(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
            try:
                slots.take()
            except ServiceError as exc:
                _abort(context, exc)
            try:
                yield from behaviour(request, context)
            finally:
                slots.give_back()

        return factory(
            capped,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )


class StreamSlots:
    """So many open streams at most; taking one more is refused."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._free = threading.BoundedSemaphore(limit)

    def take(self) -> None:
        if not self._free.acquire(blocking=False):
            raise ServiceError(
                "RESOURCE_EXHAUSTED", "TOO_MANY_STREAMS",
                f"this server has {self.limit} open streams; retry later",
            )

    def give_back(self) -> None:
        self._free.release()


INTERNAL = ServiceError("INTERNAL", "INTERNAL", "the server failed; the error is logged")


def _current_version(servicer: Any, request: Any) -> int:
    """The current version of the game a request names, 0 when there is none."""
    game_id = getattr(request, "game_id", "")
    if not game_id or not isinstance(game_id, str):
        return 0
    try:
        return int(servicer.app.game(game_id).version)
    except Exception:
        return 0


def _abort(
    context: grpc.ServicerContext, exc: Exception, known: Callable[[], int] | None = None
) -> None:
    """Leave with the refusal's status (see ``service.status``): the game's version
    is the current one wherever a game is known, authentication refusals included."""
    if isinstance(exc, ServiceError):
        status, reason, message, version = exc.status, exc.reason, exc.message, exc.version
    elif isinstance(exc, RuleError):
        status = "INVALID_ARGUMENT" if exc.reason in INVALID_REASONS else "FAILED_PRECONDITION"
        if exc.reason == Reason.STALE_DECISION:
            status = "ABORTED"  # as VERSION_MISMATCH: read again, then decide
        reason, message = exc.reason.value, exc.message
        version = getattr(exc, "version", 0)
    else:
        status, reason, message, version = "INVALID_ARGUMENT", "BAD_COMMAND", str(exc), 0
    if not version and known is not None and status != "INTERNAL":
        version = known()
    leaving = refusal(getattr(grpc.StatusCode, status), reason, message, version)
    context.set_trailing_metadata(leaving.trailing_metadata)  # as abort_with_status does
    context.abort(leaving.code, leaving.details)


class GameServicer(game_pb2_grpc.GameServiceServicer):
    def __init__(self, app: ArbiterApp, hub: FeedHub) -> None:
        self.app = app
        self.hub = hub
        self.credentials = app.credentials

    def _caller(self, context: Any, game: Game | None) -> tuple[auth.Principal, str]:
        """Who the bearer token makes the caller, for this game (or as admin)."""
        token = auth.token_from(context.invocation_metadata())
        if not token:
            return auth.NOBODY, ""
        access = self.app.access(game.id) if game is not None else None
        return self.credentials.identify(token, access), token

    def _fill_seat(self, request: Any, context: Any, game_id: Any) -> None:
        """An absent ``seat`` is the caller's own: the seat its token names.

        Before ``seat`` was ``optional``, a forgotten seat read as seat 0 and a
        seat-2 token was refused ``WRONG_SEAT``; a client never needs to repeat
        what its token already says. A spectator token with no seat reads as a
        spectator (where the request can read as one). A token that names no
        seat (admin, none) keeps the old meaning, seat 0: proto3 never put a
        seat 0 on the wire, so that is what existing clients sent for it.
        The request is filled in place, so every reader of ``request.seat``
        (``timetravel`` too) sees the resolved seat.
        """
        if request.HasField("seat"):
            return
        token = auth.token_from(context.invocation_metadata())
        if not token:
            return
        principal = self.credentials.identify(token, self.app.access(game_id))
        if principal.seat is not None:
            request.seat = principal.seat
        elif principal.spectator and "spectator" in request.DESCRIPTOR.fields_by_name:
            request.spectator = True

    def _authorize_read(
        self, context: Any, game: Game, seat: int, spectator: bool
    ) -> tuple[Reader, auth.Principal]:
        """Spectators need any credential of the game; a seat needs its own.
        A finished game's record is public (DESIGN principle 4): read with no
        token at all, as anyone may (``auth.public_read``)."""
        principal, token = self._caller(context, game)
        if auth.public_read(game.ended, token):
            if not spectator:
                game._check_seat(seat)
            return (SPECTATOR if spectator else Reader(seat)), principal
        if spectator:
            auth.require(principal, token)
            reader = SPECTATOR
        else:
            game._check_seat(seat)
            auth.require_seat(principal, token, seat)
            reader = Reader(seat)
        return reader, principal

    # --------------------------------------------------------------- unary

    @refusals
    def ListRules(self, request: Any, context: Any) -> game_pb2.ListRulesResponse:
        return game_pb2.ListRulesResponse(
            rules=[
                game_pb2.RulesInfo(
                    id=cls.RULES_ID, title=cls.TITLE, version=cls.RULES_VERSION,
                    min_seats=cls.MIN_SEATS, max_seats=cls.MAX_SEATS,
                    commands=cls.COMMANDS.names(),
                    options_schema_json=dumps(cls.OPTIONS_SCHEMA),
                    dynamics=cls.DYNAMICS, summary=cls.SUMMARY, reasons=list(cls.REASONS),
                    schemas_json=schemas_text(cls),
                )
                for cls in GAMES.values()
            ]
        )

    @refusals
    def CreateGame(self, request: Any, context: Any) -> game_pb2.CreateGameResponse:
        # Who creates: refused here when a creator credential is required; else
        # the scope of the request id (see Credentials.creator).
        caller = self.credentials.creator(
            auth.token_from(context.invocation_metadata()), auth.peer_of(context)
        )
        if len(request.seats) > MAX_SEATS_IN_REQUEST:
            raise bad_request("BAD_SEATS", f"at most {MAX_SEATS_IN_REQUEST} seats")
        seats = list(request.seats)
        cls = GAMES.get(request.rules)
        if not seats and cls is not None:
            seats = [f"player {n + 1}" for n in range(cls.MIN_SEATS)]
        game = self.app.create_game(
            request.rules, seats, request.options_json, request.request_id, caller,
            entropy=[bytes(e).hex() for e in request.entropy],
        )
        tokens = [
            game_pb2.SeatToken(seat=n, name=name, token=self.credentials.seat_token(game.id, n))
            for n, name in enumerate(game.seats)
        ]
        access = self.app.access(game.id)
        if access is None or any(
            auth.digest(t.token) != h for t, h in zip(tokens, access.seat_hashes, strict=True)
        ):
            raise ServiceError(
                "FAILED_PRECONDITION", "TOKENS_NOT_REISSUABLE",
                "this game's tokens were issued with another server secret",
            )
        return game_pb2.CreateGameResponse(
            game_id=str(game.id), version=game.version, seed_commitment=game.commitment,
            rules_version=game.rules_version, state=self._state(game, SPECTATOR),
            seat_tokens=tokens, spectator_token=self.credentials.spectator_token(game.id),
        )

    @refusals
    def Act(self, request: Any, context: Any) -> game_pb2.ActResponse:
        # One read of the game (in ``app.act``): the caller is identified by
        # the game's access record alone (cached, immutable), and the rules
        # are checked on the game ``act`` reads. Only an id with no access
        # record reads the game here, to be refused as an unknown game.
        game_id = parse_game_id(request.game_id)
        access = self.app.access(game_id)
        if access is None:
            self.app.game(request.game_id)  # NOT_FOUND for a game that is not there
        self._fill_seat(request, context, game_id)
        principal, token = self._caller(context, _Named(game_id))  # type: ignore[arg-type]
        auth.require_seat(principal, token, request.seat)
        rules, action = command_to_json(request.command)
        # The reply is made from the cached game the command changed, under
        # the game's lock (``ArbiterApp.act``): no other command changes it
        # before the reply is rendered.
        with self.app.game_lock(request.game_id):
            result = self.app.act(
                request.game_id, request.seat, action,
                request.expected_version, request.command_id, request.decision_id,
                rules=rules, defer_snapshots=True,
            )
            reader = Reader(request.seat).for_game(result.game.ended)
            cls = type(result.game)
            return game_pb2.ActResponse(
                version=result.game.version,
                events=[
                    to_proto(cls, ev, reader, result.positions.get(ev.originator_version, 0),
                             result.game.seats)
                    for ev in result.events
                ],
                state=self._state(result.game, reader),
                replayed=result.replayed,
            )

    @refusals
    def GetState(self, request: Any, context: Any) -> game_pb2.GameState:
        if request.HasField("version"):
            if not request.HasField("seat"):
                self._fill_seat(request, context, parse_game_id(request.game_id))
            return timetravel.state_at(self, request, context)
        # The cached game itself, read under its lock (no copy): a command
        # on it waits until this state is rendered, and never shows half-done.
        with self.app.game_lock(request.game_id):
            game = self.app.game(request.game_id, borrow=True)
            self._fill_seat(request, context, game.id)
            reader, _ = self._authorize_read(context, game, request.seat, request.spectator)
            return self._state(game, reader.for_game(game.ended))

    @refusals
    def LegalActions(self, request: Any, context: Any) -> game_pb2.LegalActionsResponse:
        # The cached game itself, under its lock, as GetState reads it: listing
        # moves never changes a game (tests/property/test_reads_are_pure.py),
        # so it needs no copy.
        with self.app.game_lock(request.game_id):
            game = self.app.game(request.game_id, borrow=True)
            return self._legal_actions(request, context, game)

    def _legal_actions(self, request: Any, context: Any,
                       game: Game) -> game_pb2.LegalActionsResponse:
        self._fill_seat(request, context, game.id)
        self._authorize_read(context, game, request.seat, spectator=False)
        actions = [] if game.ended else game.legal_actions(request.seat)
        complete = game.ended or game.legal_list_complete(request.seat)
        if not complete:
            # Too many to send: the commands a choice structure builds are
            # described by it alone; the rest are listed.
            built = {getattr(c, "command", None) for c in game.choices(request.seat)}
            actions = [a for a in actions if a.NAME not in built]
        return game_pb2.LegalActionsResponse(
            version=game.version,
            actions=[
                game_pb2.LegalAction(
                    command=json_to_command(game.RULES_ID, a.to_json()),
                    json=dumps(a.to_json()),
                    label=game.action_label(a),
                )
                for a in actions
            ],
            decisions=[
                decision_proto(d) for d in game.pending_decisions()
                if d.seat == request.seat
            ],
            complete=complete,
        )

    @refusals
    def Audit(self, request: Any, context: Any) -> game_pb2.AuditResponse:
        # From the newest row's columns: known even when its bytes are damaged.
        gid, _, over = auditing.last_stored(self.app, request.game_id)
        if not over:
            principal, token = self._caller(context, _Named(gid))  # type: ignore[arg-type]
            auth.require(principal, token)
        stored, report = self.app.audit(request.game_id)
        return game_pb2.AuditResponse(
            chain_ok=report.chain_ok, dice_ok=report.dice_ok, replay_ok=report.replay_ok,
            events=report.events, dice=report.dice, commands=report.commands,
            seed=stored.seed if stored.over else "", seed_commitment=stored.commitment,
            head_digest=stored.head, problems=report.problems, over=stored.over,
            first_failure=report.first_failure, bad_snapshots=stored.bad_snapshots,
        )

    @refusals
    def Contribute(self, request: Any, context: Any) -> game_pb2.ContributeResponse:
        """A seat's entropy, recorded once (issue 9 item 6, "dice nobody chose").

        Saved in an event of its own, before any die drawn with it: the
        contribution is on the record (and on every feed) before the server
        rolls anything that depends on it.
        """
        game = self.app.game(request.game_id)
        self._fill_seat(request, context, game.id)
        principal, token = self._caller(context, game)
        auth.require_seat(principal, token, request.seat)
        if principal.admin:
            # Bytes chosen by whoever can read the store (and so the seed)
            # would steer the dice: a seat's contribution is its own token's.
            raise ServiceError("PERMISSION_DENIED", "SEAT_TOKEN_ONLY",
                               "a seat's entropy is sent with that seat's own token, not "
                               "the admin's", game.version)
        entropy = bytes(request.entropy).hex()
        for _ in range(SAVE_ATTEMPTS):
            try:
                recorded = game.contribute(request.seat, entropy)
            except RuleError as exc:
                exc.version = game.version  # type: ignore[attr-defined]
                raise
            if not recorded:
                return game_pb2.ContributeResponse(version=game.version, recorded=False)
            try:
                self.app.save(game)
            except IntegrityError:
                game = self.app.game(request.game_id)  # another writer won: decide again
                continue
            self.app.saved.set()
            return game_pb2.ContributeResponse(version=game.version, recorded=True)
        raise ServiceError("ABORTED", "CONTENDED", "the game is too contended; retry", 0)

    @refusals
    def ListGames(self, request: Any, context: Any) -> game_pb2.ListGamesResponse:
        limit = page_size(request)
        cursor = read_page_token(request.page_token, request.rules)
        if cursor is None:  # the first page, or a client of the older cursors
            changed = request.HasField("changed_after")
            cursor = (CHANGED, request.changed_after) if changed else (AFTER, request.after)
        kind, after = cursor
        if kind == CHANGED:
            return self._changed_games(request, context, limit, after)
        logged = self.app.list_games(request.rules, after, limit)
        games = []
        for entry in logged:
            # The newest row's columns (one indexed read, no parse): not the
            # whole game loaded, and known even when that event's bytes are damaged.
            _, version, over = auditing.last_stored(self.app, str(entry.game_id))
            summary = game_pb2.GameSummary(
                game_id=str(entry.game_id), rules=entry.rules, version=version,
                over=over, seats=entry.seats,
            )
            summary.created.FromDatetime(entry.timestamp)
            games.append(summary)
        next_after = logged[-1].originator_version if logged else after
        return game_pb2.ListGamesResponse(
            games=games, next_after=next_after,
            next_page_token=(
                make_page_token(AFTER, next_after, request.rules) if len(logged) == limit else ""
            ),
        )

    def _changed_games(
        self, request: Any, context: Any, limit: int, after: int
    ) -> game_pb2.ListGamesResponse:
        """The games with events after a global position (admin only)."""
        auth.require_admin(*self._caller(context, None))
        ids, covered = auditing.changed_games(self.app, after, limit)
        games = []
        for gid in ids:
            _, version, over = auditing.last_stored(self.app, str(gid))
            created: Any = next(iter(self.app.events.get(gid, limit=1)))
            games.append(game_pb2.GameSummary(
                game_id=str(gid), rules=getattr(created, "rules", ""),
                version=version, over=over,
                seats=getattr(created, "seats", []),
            ))
            games[-1].created.FromDatetime(created.timestamp)
        return game_pb2.ListGamesResponse(
            games=games, next_after=covered,
            next_page_token=(
                make_page_token(CHANGED, covered, request.rules) if len(ids) == limit else ""
            ),
        )

    # ------------------------------------------------------------- streams

    @refusals
    def History(self, request: Any, context: Any) -> Iterator[game_pb2.Event]:
        # A stored event damaged (its bytes do not parse): the events before
        # it, then DAMAGED_EVENT naming its version (``service.auditing``).
        game = auditing.readable_game(self.app, request.game_id)
        self._fill_seat(request, context, game.id)
        reader = self._reader(context, game, request.seat, request.spectator)
        positions = timetravel.positions(self.app, request.game_id, request.after_version)
        for ev in auditing.events_until_damaged(self.app, request.game_id,
                                                request.after_version):
            yield to_proto(type(game), ev, reader, positions.get(ev.originator_version, 0),
                           seats=game.seats)

    @refusals
    def Subscribe(self, request: Any, context: Any) -> Iterator[game_pb2.FeedMessage]:
        if request.game_id:
            game = self.app.game(request.game_id)
            self._fill_seat(request, context, game.id)
            reader = self._reader(context, game, request.seat, request.spectator)
            return self._subscribe_game(request, context, game, reader)
        auth.require_admin(*self._caller(context, None))
        return self._subscribe_all(request, context)

    def _subscribe_game(
        self, request: Any, context: Any, game: Game, reader: Reader
    ) -> Iterator[game_pb2.FeedMessage]:
        """Catch up from the store, then follow: each wake-up re-reads by version."""
        cls = type(game)
        gone = self._watch_cancel(context)
        last = request.after
        status = ""
        heartbeat = time.monotonic()
        while context.is_active() and not self._closing(context):
            if status != self.hub.status:
                status = self.hub.status
                yield game_pb2.FeedMessage(status=status)
            # A wake-up before this read is answered by it (the relay publishes
            # after commit); only one after the ticket is a reason to read again.
            ticket = self.hub.ticket(request.game_id)
            new_events = self.app.game_events(request.game_id, after=last)
            if new_events:
                over = game.ended or any(type(e).__name__ == "Ended" for e in new_events)
                positions = timetravel.positions(self.app, request.game_id, last)
                for ev in new_events:
                    yield game_pb2.FeedMessage(
                        event=to_proto(cls, ev, reader.for_game(over),
                                       positions.get(ev.originator_version, 0),
                                       seats=game.seats))
                    last = ev.originator_version
                if over:
                    yield game_pb2.FeedMessage(status=ENDED)
                    return
                heartbeat = time.monotonic()
                continue
            if game.ended:
                yield game_pb2.FeedMessage(status=ENDED)
                return
            if time.monotonic() - heartbeat > HEARTBEAT_SECONDS:
                yield game_pb2.FeedMessage(status=status)
                heartbeat = time.monotonic()
            self.hub.wait_game(request.game_id, ticket, gone)

    def _subscribe_all(self, request: Any, context: Any) -> Iterator[game_pb2.FeedMessage]:
        """Every game's events by global position: public forms only."""
        gone = self._watch_cancel(context)
        last = request.after
        status = ""
        classes: dict[Any, type[Game]] = {}
        heartbeat = time.monotonic()
        while context.is_active() and not self._closing(context):
            if status != self.hub.status:
                status = self.hub.status
                yield game_pb2.FeedMessage(status=status)
            ticket = self.hub.ticket_all()
            notifications = self.app.notifications(last)
            for notification in notifications:
                last = notification.id
                ev = self.app.to_event(notification)
                if not hasattr(ev, "meta"):
                    continue  # the catalogue's own entries
                cls = classes.get(ev.originator_id)
                if cls is None:
                    cls = classes[ev.originator_id] = type(self.app.game(str(ev.originator_id)))
                yield game_pb2.FeedMessage(event=to_proto(cls, ev, SPECTATOR, notification.id))
            if notifications:
                heartbeat = time.monotonic()
                continue
            if time.monotonic() - heartbeat > HEARTBEAT_SECONDS:
                yield game_pb2.FeedMessage(status=status)
                heartbeat = time.monotonic()
            self.hub.wait_all(ticket, gone)

    # ------------------------------------------------------------- helpers

    def _closing(self, context: Any) -> bool:
        """When the server drains, end open feeds with UNAVAILABLE so clients reconnect."""
        if self.hub.stopping.is_set():
            raise ServiceError("UNAVAILABLE", "SHUTTING_DOWN", "the server is stopping")
        return False

    def _watch_cancel(self, context: Any) -> Callable[[], bool]:
        """A test for "the client went away" that also wakes the waiting stream."""
        gone = threading.Event()

        def on_done() -> None:
            gone.set()
            self.hub.wake()

        context.add_callback(on_done)
        return gone.is_set

    def _reader(self, context: Any, game: Game, seat: int, spectator: bool) -> Reader:
        """The reader of a game's events; the admin reads the full record."""
        reader, principal = self._authorize_read(context, game, seat, spectator)
        if principal.admin:
            reader = Reader(reader.seat, full=True)
        return reader.for_game(game.ended)

    def _state(self, game: Game, reader: Reader) -> game_pb2.GameState:
        return game_pb2.GameState(
            game_id=str(game.id), rules=game.RULES_ID, version=game.version,
            over=game.ended, outcome_json=json.dumps(game.outcome or {}),
            pending=[
                decision_proto(d, with_choices=reader.full or reader.seat == d.seat)
                for d in game.pending_decisions()
            ],
            view_json=dumps(game.view(reader.seat)),
            screen_json=dumps(game.present(reader.seat).to_json()),
            seed_commitment=game.commitment, seed=game.seed if game.ended else "",
            head_digest=game.head, seats=game.seats, rules_version=game.rules_version,
        )


#: ListGames pages (AIP-158): the default and the most games a page holds.
PAGE_SIZE = 50
MAX_PAGE_SIZE = 500
#: The two cursors a page token carries: the catalogue position (``after``)
#: and the global position of the changed-games listing (``changed_after``).
AFTER, CHANGED = "after", "changed"


def page_size(request: Any) -> int:
    """``page_size``, else the older ``limit``, else 50; at most 500 (AIP-158
    lets a server coerce a larger size rather than refuse it)."""
    if request.page_size < 0:
        raise bad_request("BAD_PAGE_SIZE", "page_size is never negative")
    return min(request.page_size or request.limit or PAGE_SIZE, MAX_PAGE_SIZE)


def make_page_token(kind: str, position: int, rules: str) -> str:
    """An opaque token for the page after ``position``. Not secret nor signed:
    it only holds a cursor the older ``after``/``changed_after`` fields let any
    caller send, and the filter it was issued for, to refuse it under another."""
    text = json.dumps({"k": kind, "p": position, "r": rules}, separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")


def read_page_token(token: str, rules: str) -> tuple[str, int] | None:
    """``(kind, position)`` of a ``page_token``, ``None`` for the first page."""
    if not token:
        return None
    try:
        if len(token) > 200:
            raise ValueError("too long")
        data = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
        kind, position, issued_for = data["k"], data["p"], data["r"]
        # bool is an int to Python, not to protobuf: ``"p": true`` is no cursor.
        if (kind not in (AFTER, CHANGED) or not isinstance(position, int)
                or isinstance(position, bool) or position < 0):
            raise ValueError("not a cursor")
    except (ValueError, TypeError, KeyError, binascii.Error):
        raise bad_request("BAD_PAGE_TOKEN", "page_token is not one this server issued") from None
    if issued_for != rules:
        raise bad_request(
            "BAD_PAGE_TOKEN", "page_token was issued for another `rules` filter; send the same"
        )
    return kind, position


class _Named:
    """Just a game's id: enough to identify a caller's token for that game."""

    def __init__(self, game_id: Any) -> None:
        self.id = game_id


def decision_proto(d: Decision, with_choices: bool = True) -> game_pb2.Decision:
    """A pending decision on the wire (from ``Game.pending_decisions``, which
    has filled in its choices); its choice structures only for its seat (they
    may name the seat's hidden cards)."""
    return game_pb2.Decision(
        seat=d.seat, kind=d.kind, prompt=d.prompt, hidden=d.hidden, id=d.id,
        choices_json=dumps([c.to_json() for c in d.choices] if with_choices else []),
        deadline_seconds=d.deadline or 0.0, default=d.default or "",
    )
