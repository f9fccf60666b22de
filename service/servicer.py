"""The gRPC GameService: requests in, rules and store behind, envelopes out.

Shaped like gRPC's route_guide servicer: one method per RPC, each a thin
translation between protobuf and the application. Every refusal leaves with a
gRPC status, a stable reason code in the ``arbiter-reason`` trailer, the
game's version in ``arbiter-version``, and a sentence.
"""

from __future__ import annotations

import base64
import binascii
import collections
import functools
import inspect
import json
import logging
import sys
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable, Hashable, Iterator
from typing import Any, TypeAlias, TypeVar

import grpc
from arbiter.v1 import game_pb2, game_pb2_grpc
from arbiter.wire import WireError, command_to_json, json_to_command
from eventsourcing.persistence import InterfaceError, OperationalError

from aggregates.catalog import GAMES
from aggregates.kernel import Game, RuleError
from aggregates.kernel.nature import game_type_of
from aggregates.kernel.record.schemas import schemas_text
from service import auditing, auth, feeds, signing, timetravel
from service.aio import LoopServer, held_by
from service.application import ArbiterApp, GameReads, HeldGame, SeatReading
from service.catalogue import served_rules
from service.envelope import SPECTATOR, EventForms, Reader, dumps, timestamp_of, to_proto
from service.errors import ServiceError, bad_request
from service.feeds import ENDED, FeedHub
from service.handlers import Wrapping
from service.ids import check_position, parse_game_id
from service.memo import kept
from service.play import PlayStream, play_wire
from service.readmodel import (
    LegalList,
    PendingDecision,
    SeatState,
    facts_of,
    seat_state,
)
from service.shards import Shards
from service.status import abort, abort_async
from service.storehealth import unreachable

log = logging.getLogger(__name__)

#: The most seats one request names (as CreateGame's most seats).
MAX_SEATS_IN_REQUEST = 16
#: Readings kept encoded as GameState messages (the newest readings of the
#: busiest games: ``service.readmodel`` keeps the plain ones).
WIRE_STATES_KEPT = 2048
#: Typed commands kept by their JSON text (``GameServicer.typed``).
COMMANDS_KEPT = 8192

F = TypeVar("F", bound=Callable[..., Any])
#: The requests that name a seat (absent: the seat the caller's token names).
SeatRequest: TypeAlias = (
    game_pb2.ActRequest | game_pb2.GetStateRequest | game_pb2.LegalActionsRequest
    | game_pb2.HistoryRequest | game_pb2.SubscribeRequest | game_pb2.ContributeRequest)
Context: TypeAlias = grpc.ServicerContext


def refusals(method: F) -> F:
    """Turn rule and service errors into statuses with reason trailers.

    Anything else is a bug: it is logged and leaves as ``INTERNAL`` with a
    generic sentence, never with the exception's text (which could name a
    private card or the seed) -- unless the game named has a stored event
    whose bytes no longer parse: that is a damaged store, not a bug, and
    leaves as ``DATA_LOSS``/``DAMAGED_EVENT`` naming the version, without a
    traceback (``auditing.damage_refusal``).

    A read answered on the server's loop from a game held for it
    (``service.aio.at_hand``) is refused alike, from what it holds: its
    version is the held game's, and its failure no store's (it read none).
    """

    @functools.wraps(method)
    def wrapper(self: Any, request: Any, context: grpc.ServicerContext) -> Any:
        known = functools.partial(_current_version, self, request, context)
        damage = functools.partial(_damage, self, request, context)
        try:
            result = method(self, request, context)
            if isinstance(result, Iterator):
                return _guard_stream(result, context, known, damage)
            return result
        except (ServiceError, RuleError, WireError) as exc:
            abort(context, exc, known)
        except Exception:
            _abort_unexpected(context, damage, method.__name__)

    return wrapper  # type: ignore[return-value]


def _damage(servicer: Any, request: Any, context: Any = None) -> ServiceError | None:
    """Why a call failed unexpectedly, where it is the store's doing: its
    database unreachable (``STORE_UNAVAILABLE``: on a sharded store, only the
    games of that shard), or a damaged event (``auditing.damage_refusal``);
    None otherwise (a bug). A servicer without stores, or a call that read a
    game held at hand (no store read, and none to be made on the loop): none."""
    failure = sys.exc_info()[1]
    if failure is not None and unreachable(failure):
        return STORE_UNREACHABLE
    if held_by(context) is not None:
        return None
    shards = getattr(servicer, "shards", None)
    game_id = getattr(request, "game_id", "")
    if shards is None:
        return None
    try:
        store = shards.of(game_id) if game_id and isinstance(game_id, str) else shards.first
        return auditing.damage_refusal(store, request)
    except Exception:  # noqa: BLE001 - no better answer than INTERNAL
        return None


def _guard_stream(
    stream: Iterator[Any], context: grpc.ServicerContext, known: Callable[[], int],
    damage: Callable[[], ServiceError | None],
) -> Iterator[Any]:
    try:
        yield from stream
    except (ServiceError, RuleError, WireError) as exc:
        abort(context, exc, known)
    except Exception:
        _abort_unexpected(context, damage, "a stream")


def _abort_unexpected(
    context: grpc.ServicerContext, damage: Callable[[], ServiceError | None], name: str
) -> None:
    """``STORE_UNAVAILABLE`` when the game's store does not answer,
    ``DAMAGED_EVENT`` when it is damaged, else a logged ``INTERNAL``."""
    refused = damage()
    if refused is not None:
        if refused is STORE_UNREACHABLE:
            log.warning("%s: the store cannot be reached (%s)", name,
                        str(sys.exc_info()[1]).splitlines()[0][:200] if sys.exc_info()[1] else "")
        abort(context, refused)
    log.exception("%s failed", name)
    abort(context, INTERNAL)


class StreamCap(Wrapping):
    """A cap on open response streams, of every service the server hosts.

    The server runs every call but ``Play`` on a thread of one fixed pool
    (``service.aio``), and a response stream holds its thread for as long as
    it is open (a feed or a health watch, for ever; a History, for as long as
    its reader is slow); a ``Play`` stream holds none (it runs on the loop),
    and counts all the same.
    Without a cap, anyone able to create a game (no token needed) could open
    enough feeds with its spectator token, or anyone at all enough health
    watches, to take every thread and wedge every other call. Beyond the cap a
    stream is refused with ``RESOURCE_EXHAUSTED``/``TOO_MANY_STREAMS``; unary
    calls always keep threads of their own.
    """

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.slots = StreamSlots(limit)

    def wrap(self, method: str, handler: Any) -> Any:
        if not handler.response_streaming:
            return handler
        if handler.request_streaming:
            behaviour, factory = handler.stream_stream, grpc.stream_stream_rpc_method_handler
        else:
            behaviour, factory = handler.unary_stream, grpc.unary_stream_rpc_method_handler
        slots = self.slots
        if inspect.isasyncgenfunction(behaviour):
            return factory(
                _capped_async(behaviour, slots),
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )

        def capped(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
            try:
                slots.take()
            except ServiceError as exc:
                abort(context, exc)
            try:
                yield from behaviour(request, context)
            finally:
                slots.give_back()

        return factory(
            capped,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )


def _capped_async(behaviour: Any, slots: StreamSlots) -> Any:
    """``StreamCap``'s cap around a stream on the server's loop."""

    async def capped(request: Any, context: Any) -> AsyncIterator[Any]:
        try:
            slots.take()
        except ServiceError as exc:
            await abort_async(context, exc)
            return
        try:
            async for reply in behaviour(request, context):
                yield reply
        finally:
            slots.give_back()

    return capped


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
#: What a caller gets when the database of its game does not answer (down,
#: restarting, unreachable: ``storehealth.unreachable``), to retry.
STORE_UNREACHABLE = ServiceError(
    "UNAVAILABLE", "STORE_UNAVAILABLE",
    "the store holding this game cannot be reached now; retry")


#: Game ids whose parse is kept (``game_uuid``): beyond it, the memo starts over.
GAME_IDS_KEPT = 4096
_game_ids: dict[str, uuid.UUID] = {}


def game_uuid(game_id: str) -> uuid.UUID:
    """``parse_game_id``, kept for the ids in use: a read's probe and its
    handler each parsed the same id (``uuid.UUID`` is pure Python, a few
    microseconds). Only an id that parses is kept; one that does not is
    refused as ever, each time."""
    if not isinstance(game_id, str):
        return parse_game_id(game_id)
    return kept(_game_ids, game_id, parse_game_id, GAME_IDS_KEPT)


def _current_version(servicer: Any, request: Any, context: Any = None) -> int:
    """The current version of the game a request names, 0 when there is none:
    the held game's, for a call answered from it (``GameServicer.reads_of``)."""
    held = held_by(context)
    if isinstance(held, HeldGame):
        return int(held.game.version)
    game_id = getattr(request, "game_id", "")
    if not game_id or not isinstance(game_id, str):
        return 0
    try:
        return int(servicer.shards.of(game_id).game(game_id).version)
    except Exception:
        return 0


def rules_catalogue() -> list[game_pb2.RulesInfo]:
    """What ``ListRules`` says of every served game (fixed for a process)."""
    return [
        game_pb2.RulesInfo(
            id=cls.RULES_ID, title=cls.TITLE, version=cls.RULES_VERSION,
            min_seats=cls.MIN_SEATS, max_seats=cls.MAX_SEATS,
            commands=cls.COMMANDS.names(),
            options_schema_json=dumps(cls.OPTIONS_SCHEMA),
            dynamics=str(game_type_of(cls).dynamics), summary=cls.SUMMARY,
            reasons=list(cls.REASONS), schemas_json=schemas_text(cls),
            game_type=game_pb2.GameType(**game_type_of(cls).to_json()),
        )
        for cls in GAMES.values()
    ]


class GameServicer(game_pb2_grpc.GameServiceServicer):
    def __init__(self, app: ArbiterApp | Shards, hub: FeedHub) -> None:
        #: The stores: one, or several on a store sharded by game (``service.shards``).
        self.shards = app if isinstance(app, Shards) else Shards([app])
        self.hub = hub
        self.credentials = self.shards.first.credentials
        #: Built here, once: the schemas take tens of milliseconds of CPU, which
        #: the first caller of ``ListRules`` would otherwise be charged for (its
        #: work share, ``service.limits``) and which never change in a process.
        self.catalogue = rules_catalogue()
        self.audits = {id(store): auditing.Audits(store) for store in self.shards}
        for store in self.shards:
            # The reads answered on the loop ask its looks (``held_for_read``).
            store.lookout.start()
        #: Readings on the wire (``state_message``, ``legal_messages``,
        #: ``turn_message``), the newest ``WIRE_STATES_KEPT``.
        self._wire: collections.OrderedDict[Hashable, Any] = collections.OrderedDict()
        self._wire_guard = threading.Lock()
        #: Typed commands by their JSON text (``typed``).
        self._commands: collections.OrderedDict[tuple[str, str], game_pb2.Command] = (
            collections.OrderedDict())
        #: Events on the wire, one message per form (``EventForms``).
        self.forms = EventForms()
        #: What this server's lobby does when one of its tables' games is
        #: called (``TableBots.seat_called``, set by ``service.lobby.install``):
        #: a seat coming back to a game whose bots a restart did not resume
        #: sets them playing, whatever it calls (``Play``, ``Act``,
        #: ``GetState``, ``LegalActions``, the seat's page). None: no lobby.
        self.lobby_games: Callable[[str], None] | None = None

    def store(self, game_id: str | uuid.UUID) -> ArbiterApp:
        """The store a game lives in (on a sharded store, the one its id names)."""
        return self.shards.of(game_id)

    def caller(self, context: Context, game_id: uuid.UUID | None,
               reads: GameReads | None = None) -> auth.Caller:
        """Who the bearer token makes the caller, for this game (or as admin):
        once per call, then handed to every check of that call. ``reads``:
        where the game's access record is read (``reads_of``; else its store)."""
        token = auth.token_from(context.invocation_metadata())
        if not token:
            return auth.ANONYMOUS
        access = None
        if game_id is not None:
            access = (reads if reads is not None else self.store(game_id)).access(game_id)
        return self._identified(token, game_id, access)

    def reads_of(self, context: Context, game_id: uuid.UUID) -> GameReads:
        """Where a read of a game's current version reads it: the game held
        for the call when it is answered on the server's loop
        (``held_for_read``), else its store, which may look at the store and
        wait for the game's lock (on a thread of the pool)."""
        held = held_by(context)
        return held if isinstance(held, HeldGame) else self.store(game_id)

    def held_for_read(self, request: Any) -> HeldGame | None:
        """The probe of ``GetState`` and ``LegalActions`` (``add_to_server``):
        the game a read of the current version names, held at hand
        (``ArbiterApp.hold_cached``) for its answer on the loop; None for a
        call that may wait or read the store (its game's lock held, the game
        not cached or not caught up lately, a lobby table's, a past version,
        a request that does not parse or names no game of this store), which
        runs on the pool, where it is answered or refused as ever."""
        game_id = getattr(request, "game_id", None)
        if not isinstance(game_id, str) or (
                isinstance(request, game_pb2.GetStateRequest) and request.HasField("version")):
            return None
        try:
            gid = game_uuid(game_id)
            return self.store(gid).hold_cached(gid)
        except ServiceError:
            return None

    def seat_holder(self, context: Context, game_id: uuid.UUID,
                    request: SeatRequest) -> tuple[ArbiterApp, auth.Caller]:
        """The store and the caller of a seat's write (``Act``, ``SubmitEntropy``),
        resolved once: the game's access record read once (``NOT_FOUND`` for an
        id with none: the game is read to be refused), the token identified by
        it, the request's seat filled from the token when absent and required
        to be the caller's. The rules then see a caller already checked."""
        store = self.store(game_id)
        access = store.access(game_id)
        if access is None:
            store.game(str(game_id))  # NOT_FOUND for a game that is not there
        token = auth.token_from(context.invocation_metadata())
        caller = self._identified(token, game_id, access) if token else auth.ANONYMOUS
        self.fill_seat(request, caller)
        auth.require_seat(*caller, request.seat)
        return store, caller

    def _identified(self, token: str, game_id: uuid.UUID | None,
                    access: auth.GameAccess | None) -> auth.Caller:
        if access is not None and access.revocable:
            # A lobby table's game (its seats' tokens are the table's: the
            # one kind of game whose record is revocable); every other game
            # pays this attribute's read alone, the access record cached.
            self.lobby_game_called(str(game_id))
        return auth.Caller(self.credentials.identify(token, access), token)

    def lobby_game_called(self, game_id: str) -> None:
        """This server's lobby told of a call of its table's game
        (``lobby_games``): its bots set playing if a restart left them idle.
        The lobby's own check is a set's lookup after the first call of a
        game in this process."""
        if self.lobby_games is not None:
            self.lobby_games(game_id)

    @staticmethod
    def fill_seat(request: SeatRequest, caller: auth.Caller) -> None:
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
        principal = caller.principal
        if principal.seat is not None:
            request.seat = principal.seat
        elif principal.spectator and "spectator" in request.DESCRIPTOR.fields_by_name:
            setattr(request, "spectator", True)  # noqa: B010 - not every SeatRequest has it

    # --------------------------------------------------------------- unary

    @refusals
    def ListRules(self, request: game_pb2.ListRulesRequest,
                  context: Context) -> game_pb2.ListRulesResponse:
        return game_pb2.ListRulesResponse(
            rules=self.catalogue,
            signing_keys=[
                game_pb2.SigningKey(key_id=k.key_id, algorithm=k.algorithm,
                                    public_key=k.public_key, current=k.current)
                for k in self.credentials.signer.public_keys()
            ],
        )

    @refusals
    def CreateGame(self, request: game_pb2.CreateGameRequest,
                   context: Context) -> game_pb2.CreateGameResponse:
        # Who creates: refused here when a creator credential is required; else
        # the scope of the request id (see Credentials.creator).
        caller = self.credentials.creator(
            auth.token_from(context.invocation_metadata()), auth.peer_of(context)
        )
        if len(request.seats) > MAX_SEATS_IN_REQUEST:
            raise bad_request("BAD_SEATS", f"at most {MAX_SEATS_IN_REQUEST} seats")
        seats = list(request.seats)
        request.rules = served_rules(request.rules)  # "nine-empires": nine_empires
        cls = GAMES.get(request.rules)
        if not seats and cls is not None:
            seats = [f"player {n + 1}" for n in range(cls.MIN_SEATS)]
        # A retried request id goes to the store its keyed id chooses, from any server.
        store = self.shards.for_new_game(
            self.credentials.game_id(request.rules, caller, request.request_id)
            if request.request_id else None)
        game = store.create_game(
            request.rules, seats, request.options_json, request.request_id, caller,
            entropy=[bytes(e).hex() for e in request.entropy],
        )
        tokens = [
            game_pb2.SeatToken(seat=n, name=name, token=self.credentials.seat_token(game.id, n))
            for n, name in enumerate(game.seats)
        ]
        access = store.access(game.id)
        if access is None or any(
            auth.digest(t.token) != h for t, h in zip(tokens, access.seat_hashes, strict=True)
        ):
            raise ServiceError(
                "FAILED_PRECONDITION", "TOKENS_NOT_REISSUABLE",
                "this game's tokens were issued with another server secret",
            )
        return game_pb2.CreateGameResponse(
            game_id=str(game.id), version=game.version, seed_commitment=game.commitment,
            rules_version=game.rules_version,
            state=self.state(game, SPECTATOR),
            seat_tokens=tokens, spectator_token=self.credentials.spectator_token(game.id),
        )

    @refusals
    def Act(self, request: game_pb2.ActRequest, context: Context) -> game_pb2.ActResponse:
        # One read of the game (in ``app.act``): the caller is identified by
        # the game's access record alone (cached, immutable), and the rules
        # are checked on the game ``act`` reads. Only an id with no access
        # record reads the game here, to be refused as an unknown game.
        game_id = parse_game_id(request.game_id)
        store, _ = self.seat_holder(context, game_id, request)
        rules, action = command_to_json(request.command)
        # Absent (an older client): the state, as always; false: none rendered.
        with_state = not request.HasField("with_state") or request.with_state
        result = store.act(
            request.game_id, request.seat, action,
            request.expected_version, request.command_id, request.decision_id,
            rules=rules, defer_snapshots=True,
            reader=Reader(request.seat) if with_state else None,
        )
        if result.recorded and not result.replayed:
            self.hub.committed(str(game_id), result.version)  # this server's followers at once
        reader = Reader(request.seat).for_game(result.over)
        cls = type(result.game)
        reply = game_pb2.ActResponse(
            version=result.version,
            events=[
                self.forms.of(cls, ev, reader, result.positions.get(ev.originator_version, 0),
                         result.game.seats)
                for ev in result.events
            ],
            replayed=result.replayed,
        )
        if result.state is not None:
            # The move that ends the game gets the server's signature over
            # the finished record's head: signed when the game ends.
            reply.state.CopyFrom(self.state_message(result.state, signed=result.state.over))
        return reply

    @refusals
    def GetState(self, request: game_pb2.GetStateRequest,
                 context: Context) -> game_pb2.GameState:
        game_id = game_uuid(request.game_id)
        reads = self.reads_of(context, game_id)
        caller = self.caller(context, game_id, reads)  # once: the seat and the read go by it
        self.fill_seat(request, caller)
        if request.HasField("version"):
            past = timetravel.past_for(self.store(game_id), request, caller)
            then = self.state(past.game, past.reader, signed=request.sign_head)
            if past.seed:
                then.seed = past.seed  # revealed: the past of a finished game hides nothing
            return then
        seat, spectator = request.seat, request.spectator
        facts = reads.facts(request.game_id, None if spectator else seat)
        reader = auth.reader_for(caller, facts.ended, seat, spectator)
        state = reads.seat_state(request.game_id, reader)
        return self.state_message(state, signed=state.over or request.sign_head)

    @refusals
    def LegalActions(self, request: game_pb2.LegalActionsRequest,
                     context: Context) -> game_pb2.LegalActionsResponse:
        game_id = game_uuid(request.game_id)
        reads = self.reads_of(context, game_id)
        caller = self.caller(context, game_id, reads)
        self.fill_seat(request, caller)
        facts = reads.facts(request.game_id, request.seat)
        auth.reader_for(caller, facts.ended, request.seat, spectator=False)
        legal = reads.legal_actions(request.game_id, request.seat)
        return game_pb2.LegalActionsResponse(
            version=legal.version, actions=self.legal_messages(legal),
            decisions=[decision_proto(d) for d in legal.decisions],
            complete=legal.complete,
        )

    @refusals
    def Audit(self, request: game_pb2.AuditRequest,
              context: Context) -> game_pb2.AuditResponse:
        # From the newest row's columns: known even when its bytes are damaged.
        store = self.store(request.game_id)
        gid, _, over = auditing.last_stored(store, request.game_id)
        if not over:
            auth.require(*self.caller(context, gid))
        stored = self.audits[id(store)].audit(request.game_id)
        report = stored.report
        response = game_pb2.AuditResponse(
            chain_ok=report.chain_ok, dice_ok=report.dice_ok, replay_ok=report.replay_ok,
            events=report.events, dice=report.dice, commands=report.commands,
            seed=stored.seed if stored.over else "", seed_commitment=stored.commitment,
            head_digest=stored.head, problems=report.problems, over=stored.over,
            first_failure=report.first_failure, bad_snapshots=stored.bad_snapshots,
        )
        if report.ok and stored.head and not stored.bad_snapshots:
            # Only a record that passes its own audit is vouched for.
            response.head_signature.CopyFrom(self.signed_head(
                stored.game_id, stored.rules, stored.rules_version, stored.version,
                stored.head, stored.commitment, stored.over))
        return response

    @refusals
    def Contribute(self, request: game_pb2.ContributeRequest,
                   context: Context) -> game_pb2.ContributeResponse:
        """A seat's entropy, recorded once (issue 9 item 6, "dice nobody chose").

        Saved in an event of its own, before any die drawn with it: the
        contribution is on the record (and on every feed) before the server
        rolls anything that depends on it. Through the application's one
        write path, as a command is (``ArbiterApp.contribute``).
        """
        game_id = parse_game_id(request.game_id)
        store, caller = self.seat_holder(context, game_id, request)
        facts = store.facts(request.game_id)
        if caller.principal.admin:
            # Bytes chosen by whoever can read the store (and so the seed)
            # would steer the dice: a seat's contribution is its own token's.
            raise ServiceError("PERMISSION_DENIED", "SEAT_TOKEN_ONLY",
                               "a seat's entropy is sent with that seat's own token, not "
                               "the admin's", facts.version)
        result = store.contribute(request.game_id, request.seat, bytes(request.entropy).hex())
        return game_pb2.ContributeResponse(version=result.version, recorded=result.recorded)

    @refusals
    def ListGames(self, request: game_pb2.ListGamesRequest,
                  context: Context) -> game_pb2.ListGamesResponse:
        limit = page_size(request)
        request.rules = served_rules(request.rules)  # "nine-empires": nine_empires
        over = request.over if request.HasField("over") else None
        if len(self.shards) > 1:
            return self._sharded_games(request, context, limit, over)
        cursor = read_page_token(request.page_token, request.rules, over)
        if cursor is None:  # the first page, or a client of the older cursors
            if request.HasField("changed_after"):
                cursor = (CHANGED, request.changed_after)
            else:
                cursor = (BEFORE, 0) if request.newest_first else (AFTER, request.after)
        if request.game_ids:
            if request.page_token:
                raise bad_request("BAD_PAGE_TOKEN", "the games named by game_ids are one page")
            return self._named_games(request, over)
        kind, position = cursor
        if not isinstance(position, int):
            raise bad_request("BAD_PAGE_TOKEN", "page_token was issued by a sharded store")
        if kind == CHANGED:
            return self._changed_games(request, context, limit, position)
        if (kind == BEFORE) != request.newest_first:
            raise bad_request("BAD_PAGE_TOKEN",
                              "page_token was issued for the other order (newest_first); "
                              "send the same")
        return self._catalogue_page(request, kind, position, limit, over)

    def _catalogue_page(self, request: Any, kind: str, position: int, limit: int,
                        over: bool | None) -> game_pb2.ListGamesResponse:
        """One page of the catalogue, oldest or newest first. With the ``over``
        filter, the games of the other kind are passed over, at most
        ``MAX_SCANNED`` of them a page: a page of few matches among many games
        ends early with a next page, rather than reading the whole catalogue."""
        games: list[game_pb2.GameSummary] = []
        batch_size = limit if over is None else max(limit, PAGE_SIZE)
        scanned, exhausted = 0, False
        while len(games) < limit and scanned < MAX_SCANNED and not exhausted:
            batch = self.shards.first.list_games(
                request.rules, position if kind == AFTER else 0, batch_size,
                before=position if kind == BEFORE else None)
            exhausted = len(batch) < batch_size
            for entry in batch:
                position = entry.originator_version
                scanned += 1
                summary = self._summary(entry)
                if over is None or summary.over == over:
                    games.append(summary)
                if len(games) == limit:
                    exhausted = exhausted and entry is batch[-1]
                    break
        return game_pb2.ListGamesResponse(
            games=games, next_after=position if kind == AFTER else 0,
            next_page_token="" if exhausted or (kind == BEFORE and position == 1) else
            make_page_token(kind, position, request.rules, over),
        )

    def _named_games(self, request: Any, over: bool | None) -> game_pb2.ListGamesResponse:
        """``ListGames(game_ids=...)``: those of the games that are stored and pass
        the other filters, in the order asked (oldest or newest first)."""
        if len(request.game_ids) > MAX_PAGE_SIZE:
            raise bad_request("TOO_MANY_IDS", f"at most {MAX_PAGE_SIZE} game_ids a call")
        games = []
        for game_id in dict.fromkeys(request.game_ids):
            try:
                summary = self._summary_of(game_id)
            except ServiceError as exc:
                if exc.reason != "UNKNOWN_GAME":
                    raise
                continue
            if (not request.rules or summary.rules == request.rules) and \
                    (over is None or summary.over == over):
                games.append(summary)
        games.sort(key=lambda g: g.created.ToNanoseconds(), reverse=request.newest_first)
        return game_pb2.ListGamesResponse(games=games)

    def _summary_of(self, game_id: str) -> game_pb2.GameSummary:
        """A game's summary from its first and newest stored rows (no replay)."""
        store = self.store(game_id)
        gid, version, over = auditing.last_stored(store, game_id)
        created: Any = next(iter(store.events.get(gid, limit=1)))
        summary = game_pb2.GameSummary(game_id=str(gid), rules=getattr(created, "rules", ""),
                                       version=version, over=over,
                                       seats=getattr(created, "seats", []))
        summary.created.CopyFrom(timestamp_of(created.timestamp))
        return summary

    def _summary(self, entry: Any) -> game_pb2.GameSummary:
        """A catalogue entry with its game's version and whether it is over: the
        newest row's columns (one indexed read, no parse), not the whole game
        loaded, and known even when that event's bytes are damaged."""
        _, version, over = auditing.last_stored(self.store(entry.game_id), str(entry.game_id))
        summary = game_pb2.GameSummary(game_id=str(entry.game_id), rules=entry.rules,
                                       version=version, over=over, seats=entry.seats)
        summary.created.CopyFrom(timestamp_of(entry.timestamp))
        return summary

    def _sharded_games(self, request: game_pb2.ListGamesRequest, context: Context, limit: int,
                       over: bool | None) -> game_pb2.ListGamesResponse:
        """``ListGames`` on a store sharded by game: the shards' catalogues
        merged, the page token holding one cursor per shard."""
        if request.game_ids:
            if request.page_token:
                raise bad_request("BAD_PAGE_TOKEN", "the games named by game_ids are one page")
            return self._named_games(request, over)
        if request.after:
            raise bad_request("SHARDED_STORE", "on a store sharded by game a catalogue "
                              "position is one shard's: page with page_token")
        if request.HasField("changed_after"):
            # Its high-water mark is one number, and a store of several logs has
            # none: not offered here (docs/operations.md); audit them all instead.
            raise bad_request("SHARDED_STORE", "changed_after (arbiter audit --since) names "
                              "one log's position; a store sharded by game has one a shard: "
                              "list every game (audit --all)")
        cursor = read_page_token(request.page_token, request.rules, over)
        if cursor is None:
            cursor = (BEFORE if request.newest_first else AFTER, [0] * len(self.shards))
        kind, positions = cursor
        if isinstance(positions, int) or kind == CHANGED:
            raise bad_request("BAD_PAGE_TOKEN", "page_token was issued by an unsharded store")
        cursors = (positions + [0] * len(self.shards))[:len(self.shards)]
        if (kind == BEFORE) != request.newest_first:
            raise bad_request("BAD_PAGE_TOKEN",
                              "page_token was issued for the other order (newest_first); "
                              "send the same")
        return self._sharded_catalogue(request, kind, cursors, limit, over)

    def _sharded_catalogue(self, request: Any, kind: str, cursors: list[int], limit: int,
                           over: bool | None) -> game_pb2.ListGamesResponse:
        """One page of every shard's catalogue merged by creation time (oldest or
        newest first): each shard read in batches from its cursor, the next
        entry always the oldest (newest) of the shards' heads, so a page is
        the one a single catalogue of every game would give. A shard's
        cursor moves over what the page took of it, no further."""
        newest = kind == BEFORE
        batch_size = limit if over is None else max(limit, PAGE_SIZE)
        heads: list[collections.deque[Any]] = [collections.deque() for _ in self.shards]
        read_to = list(cursors)  # where each shard's next batch starts
        done = [newest and c == 1 for c in cursors]  # nothing before the first entry
        games: list[game_pb2.GameSummary] = []
        scanned = 0
        while len(games) < limit and scanned < MAX_SCANNED:
            for n, store in enumerate(self.shards):
                if not heads[n] and not done[n]:
                    self.shards.reachable(n)  # a shard down: refused at once, not waited for
                    batch = store.list_games(request.rules, 0 if newest else read_to[n],
                                             batch_size, before=read_to[n] if newest else None)
                    heads[n].extend(batch)
                    done[n] = len(batch) < batch_size
                    if batch:
                        read_to[n] = batch[-1].originator_version
            ready = [n for n in range(len(heads)) if heads[n]]
            if not ready:
                break
            # Newest first is oldest first reversed: the same key, the other end.
            pick = (max if newest else min)(ready, key=lambda n: (heads[n][0].timestamp, n))
            entry = heads[pick].popleft()
            cursors[pick] = entry.originator_version
            scanned += 1
            summary = self._summary(entry)
            if over is None or summary.over == over:
                games.append(summary)
        finished = all(done[n] and not heads[n] for n in range(len(heads)))
        if newest:
            # A shard the page took nothing of: its next page starts at the
            # entries read, not again from its newest (a game made meanwhile
            # would come after older ones), or it is known to hold no more.
            for n in range(len(cursors)):
                if cursors[n] == 0:
                    cursors[n] = heads[n][0].originator_version + 1 if heads[n] else 1
        return game_pb2.ListGamesResponse(
            games=games,
            next_page_token="" if finished else make_page_token(
                kind, cursors, request.rules, over))

    def _changed_games(
        self, request: game_pb2.ListGamesRequest, context: Context, limit: int, after: int
    ) -> game_pb2.ListGamesResponse:
        """The games with events after a global position (admin only)."""
        auth.require_admin(*self.caller(context, None))
        ids, covered = auditing.changed_games(self.shards.first, after, limit)
        games = []
        for gid in ids:
            games.append(self._summary_of(str(gid)))
        return game_pb2.ListGamesResponse(
            games=games, next_after=covered,
            next_page_token=(
                make_page_token(CHANGED, covered, request.rules) if len(ids) == limit else ""
            ),
        )

    # ------------------------------------------------------------- streams

    @refusals
    def History(self, request: game_pb2.HistoryRequest,
                context: Context) -> Iterator[game_pb2.Event]:
        # A stored event damaged (its bytes do not parse): the events before
        # it, then DAMAGED_EVENT naming its version (``service.auditing``).
        store = self.store(request.game_id)
        game = auditing.readable_game(store, request.game_id)
        caller = self.caller(context, game.id)
        self.fill_seat(request, caller)
        reader = self._reader(caller, game, request.seat, request.spectator)
        positions = timetravel.positions(store, request.game_id, request.after_version)
        for ev in auditing.events_until_damaged(store, request.game_id,
                                                request.after_version):
            yield to_proto(type(game), ev, reader, positions.get(ev.originator_version, 0),
                           seats=game.seats)

    @refusals
    def Subscribe(self, request: game_pb2.SubscribeRequest,
                  context: Context) -> Iterator[game_pb2.FeedMessage]:
        if request.game_id:
            game = self.store(request.game_id).game(request.game_id)
            caller = self.caller(context, game.id)
            self.fill_seat(request, caller)
            reader = self._reader(caller, game, request.seat, request.spectator)
            return self._subscribe_game(request, context, game, reader)
        auth.require_admin(*self.caller(context, None))
        return self._subscribe_all(request, context)

    async def Play(self, request_iterator: AsyncIterator[game_pb2.PlayRequest],  # type: ignore[override]
                   context: Any) -> AsyncIterator[bytes]:
        """A seat's game on one stream (``service.play``), on the server's
        event loop (``service.aio``): its pushes' wire bytes (``add_to_server``
        makes ``play_wire`` the method's serializer); refusals leave as every
        call's do (``refusals``)."""
        try:
            async for wire in PlayStream(self, request_iterator, context).messages():
                yield wire
        except (ServiceError, RuleError, WireError) as exc:
            await abort_async(context, exc)
        except Exception as exc:
            if unreachable(exc):
                log.warning("Play: the store cannot be reached (%s)",
                            str(exc).splitlines()[0][:200] if str(exc) else "")
                await abort_async(context, STORE_UNREACHABLE)
            log.exception("Play failed")
            await abort_async(context, INTERNAL)

    def _subscribe_game(
        self, request: game_pb2.SubscribeRequest, context: Context, game: Game, reader: Reader
    ) -> Iterator[game_pb2.FeedMessage]:
        """Catch up from the store, then follow: each wake-up re-reads by version."""
        cls = type(game)
        gone = self.watch_cancel(context)
        last = request.after
        status = ""
        heartbeat = time.monotonic()
        polled = False  # the last wait ended with no message of this game
        # The game's id as the relay publishes it: a client may spell it in any
        # form a UUID takes (upper case, braces), and the hub's wake-ups go by
        # the canonical one (a feed asked for as "{ID}" was woken only by its poll).
        key = str(game.id)
        # Heard before kept: a commit this process keeps for the stream is then
        # one whose message the hub hears (its channel confirmed first).
        with self.hub.following(key), self.store(game.id).recent.following(game.id):
            while context.is_active() and not self.closing():
                # A wake-up before this read is answered by it (the relay publishes
                # after commit); only one after the ticket is a reason to read again.
                ticket = self.hub.ticket(key)
                new_events = self.feed_events(key, game.id, last, polled)
                if new_events:
                    over = game.ended or any(type(e).__name__ == "Ended"
                                             for _, e in new_events)
                    for position, ev in new_events:
                        yield game_pb2.FeedMessage(
                            event=self.forms.of(cls, ev, reader.for_game(over), position,
                                           seats=game.seats))
                        last = ev.originator_version
                    if over:
                        yield feeds.status_message(ENDED)
                        return
                    heartbeat, polled = time.monotonic(), False
                    continue
                if game.ended:
                    yield feeds.status_message(ENDED)
                    return
                # Caught up: the status (so "live" follows the backlog), or a heartbeat.
                if status != self.hub.status or time.monotonic() - heartbeat > self.hub.heartbeat:
                    yield feeds.status_message(self.hub.status,
                                               heartbeat=status == self.hub.status)
                    status, heartbeat = self.hub.status, time.monotonic()
                self.hub.wait_game(key, ticket, gone)
                polled = self.hub.ticket(key) == ticket

    def kept_events(self, game_id: str, gid: uuid.UUID, last: int,
                    polled: bool) -> list[tuple[int, Any]] | None:
        """``feed_events`` from this process's newest commits alone; None
        where the store is to be read (``stored_events``)."""
        if self.hub.live and not polled:
            kept = self.store(gid).recent.after(gid, last)
            if kept is not None:
                newest = kept[-1][1].originator_version if kept else last
                if newest >= self.hub.newest_published(game_id):
                    return kept
        return None

    def stored_events(self, game_id: str, gid: uuid.UUID, last: int) -> list[tuple[int, Any]]:
        """``feed_events`` from the store."""
        store = self.store(gid)
        events = store.game_events(game_id, after=last)
        if not events:
            return []
        positions = timetravel.positions(store, game_id, last)
        return [(positions.get(ev.originator_version, 0), ev) for ev in events]

    def feed_events(self, game_id: str, gid: uuid.UUID, last: int,
                    polled: bool) -> list[tuple[int, Any]]:
        """A game's events after ``last``, as (global position, event).

        From this process's newest commits (``service.recent``: no read of the
        store) when they are known to be all there is: the feeds are live, no
        message has named a newer version, and the follower was woken by a
        message, not by its poll (which stands for what no message announced:
        another server's writes while nothing publishes). Else from the store."""
        kept = self.kept_events(game_id, gid, last, polled)
        return kept if kept is not None else self.stored_events(game_id, gid, last)

    def _subscribe_all(self, request: game_pb2.SubscribeRequest,
                       context: Context) -> Iterator[game_pb2.FeedMessage]:
        """Every game's events, public forms only, by position: on a store
        sharded by game each shard's in its log's order with a position of
        its own (``Event.shard``), the shards read in turn."""
        cursors = self._feed_cursors(request)
        gone = self.watch_cancel(context)
        status = ""
        classes: dict[Any, type[Game]] = {}
        heartbeat = time.monotonic()
        with self.hub.following(None):
            while context.is_active() and not self.closing():
                ticket = self.hub.ticket_all()
                moved = False
                for n, store in enumerate(self.shards):
                    notifications = self._shard_notifications(n, store, cursors[n])
                    for notification in notifications:
                        cursors[n] = notification.id
                        message = self._public_event(store, notification, classes)
                        if message is not None:
                            yield message
                    moved = moved or bool(notifications)
                if moved:
                    heartbeat = time.monotonic()
                    continue
                if status != self.hub.status or time.monotonic() - heartbeat > self.hub.heartbeat:
                    yield feeds.status_message(self.hub.status, heartbeat=status == self.hub.status)
                    status, heartbeat = self.hub.status, time.monotonic()
                self.hub.wait_all(ticket, gone)

    def _feed_cursors(self, request: game_pb2.SubscribeRequest) -> list[int]:
        """Where every game's feed starts, a position per store: ``after`` is
        the first store's (shard 0's log is the store's from before it was
        sharded, and a client that has seen only shard 0's events resumes by
        it), ``after_shards`` one per shard, a shard not named from its start."""
        if request.after and request.after_shards:
            raise bad_request("BAD_ARGUMENT", "send after_shards alone (after is shard 0's)")
        after = list(request.after_shards) or [request.after]
        if len(after) > len(self.shards):
            raise bad_request("BAD_ARGUMENT", f"this store has {len(self.shards)} shards")
        for position in after:
            check_position(position)
        return after + [0] * (len(self.shards) - len(after))

    def _shard_notifications(self, shard: int, store: ArbiterApp, after: int) -> list[Any]:
        """A store's events after ``after`` for every game's feed. On a sharded
        store, one that cannot be reached or read is passed over until it can
        (its events then follow): one database down stops none of the others'.
        One store's failure ends the feed, as ever."""
        if len(self.shards) == 1:
            return store.notifications(after)
        if not store.reachable:
            return []
        try:
            return store.notifications(after)
        except (OperationalError, InterfaceError) as exc:
            log.warning("all-games feed: shard %d cannot be read (%s)", shard,
                        str(exc).splitlines()[0][:200] if str(exc) else "")
            return []

    def _public_event(self, store: ArbiterApp, notification: Any,
                      classes: dict[Any, type[Game]]) -> game_pb2.FeedMessage | None:
        """A stored event as the all-games feed sends it (public form), None for
        the catalogue's own entries."""
        ev = store.to_event(notification)
        if not hasattr(ev, "meta"):
            return None
        cls = classes.get(ev.originator_id)
        if cls is None:
            cls = classes[ev.originator_id] = type(store.game(str(ev.originator_id)))
        return game_pb2.FeedMessage(event=to_proto(cls, ev, SPECTATOR, notification.id))

    # ------------------------------------------------------------- helpers

    def closing(self) -> bool:
        """When the server drains, end open feeds with UNAVAILABLE so clients reconnect."""
        if self.hub.stopping.is_set():
            raise ServiceError("UNAVAILABLE", "SHUTTING_DOWN", "the server is stopping")
        return False

    def watch_cancel(self, context: Context) -> Callable[[], bool]:
        """A test for "the client went away" that also wakes the waiting stream."""
        gone = threading.Event()

        def on_done() -> None:
            gone.set()
            self.hub.wake()

        context.add_callback(on_done)
        return gone.is_set

    def _reader(self, caller: auth.Caller, game: Game, seat: int, spectator: bool) -> Reader:
        """The reader of a game's events; the admin reads the full record."""
        facts = facts_of(game, None if spectator else seat)
        reader = auth.reader_for(caller, facts.ended, seat, spectator)
        if caller.principal.admin:
            reader = Reader(reader.seat, full=True)
        return reader.for_game(game.ended)

    def state(self, game: Game, reader: Reader, signed: bool = False) -> game_pb2.GameState:
        """``game`` (not the cached one: a past version, a new game) as ``reader``
        sees it, in a message of the caller's own (time travel changes it)."""
        return self._encode_state(seat_state(game, reader), signed)

    def legal_messages(self, legal: LegalList) -> list[game_pb2.LegalAction]:
        """A seat's legal moves on the wire, made once per reading (``ReadModel``
        hands every caller of a version the same ``LegalList``)."""
        key = ("legal", id(legal))
        with self._wire_guard:
            kept = self._wire.get(key)
            if kept is not None and kept[0] is legal:
                return kept[1]  # type: ignore[no-any-return]
        actions = [game_pb2.LegalAction(command=self.typed(legal.rules, a.json, a.command),
                                        json=a.json, label=a.label) for a in legal.actions]
        self._keep(key, (legal, actions))
        return actions

    def typed(self, rules: str, text: str, command: dict[str, Any]) -> game_pb2.Command:
        """A command's typed form, by its JSON text: made once (protobuf's JSON
        parsing took a tenth of a move), as the same moves are listed again
        version after version (callers copy it into their own messages)."""
        key = (rules, text)
        with self._wire_guard:
            typed = self._commands.get(key)
            if typed is not None:
                return typed
        typed = json_to_command(rules, command)
        with self._wire_guard:
            self._commands[key] = typed
            if len(self._commands) > COMMANDS_KEPT:
                self._commands.popitem(last=False)
        return typed

    def turn_message(self, reading: SeatReading) -> game_pb2.PlayTurn:
        """A seat's turn on a ``Play`` stream: made once per reading, the same
        message for every stream that pushes it (never changed by a stream)."""
        return self._turn(reading)[1]  # type: ignore[no-any-return]

    def turn_wire(self, reading: SeatReading) -> bytes:
        """``turn_message``'s wire bytes, serialized once per reading: a push
        carries them as they are (``service.play.Push``)."""
        kept = self._turn(reading)
        if kept[2] is None:
            kept[2] = kept[1].SerializeToString()
        return kept[2]  # type: ignore[no-any-return]

    def _turn(self, reading: SeatReading) -> list[Any]:
        """The reading's legal list, turn message and (once asked) its bytes."""
        key = ("turn", reading.state, id(reading.legal))
        with self._wire_guard:
            kept = self._wire.get(key)
            if kept is not None and kept[0] is reading.legal:
                return kept  # type: ignore[no-any-return]
        turn = game_pb2.PlayTurn(
            seat=reading.seat, state=self.state_message(reading.state, signed=reading.state.over),
            actions=self.legal_messages(reading.legal) if reading.legal is not None else [],
            complete=reading.legal.complete if reading.legal is not None else True)
        made = [reading.legal, turn, None]
        self._keep(key, made)
        return made

    def _keep(self, key: Any, value: Any) -> None:
        with self._wire_guard:
            self._wire[key] = value
            while len(self._wire) > WIRE_STATES_KEPT:
                self._wire.popitem(last=False)

    def state_message(self, state: SeatState, signed: bool = False) -> game_pb2.GameState:
        """A reading on the wire, made once per reading (``service.readmodel``)
        and handed as it is to every caller of that audience (callers never
        change a reply); ``signed``: with the server's signature over its
        head (``service.signing``). Found by the reading's identity, as
        ``legal_messages`` finds a list (``ReadModel`` hands every reader of
        an audience the same reading; hashing it hashed all its text)."""
        key = ("state", id(state), signed)
        kept = self._wire.get(key)  # one dict read: atomic, and kept whole
        if kept is not None and kept[0] is state:
            return kept[1]  # type: ignore[no-any-return]
        message = self._encode_state(state, signed)
        self._keep(key, (state, message))
        return message

    def _encode_state(self, state: SeatState, signed: bool) -> game_pb2.GameState:
        message = game_pb2.GameState(
            game_id=state.game_id, rules=state.rules, version=state.version,
            over=state.over, outcome_json=state.outcome_json,
            pending=[decision_proto(d) for d in state.pending],
            view_json=state.view_json, screen_json=state.screen_json,
            seed_commitment=state.commitment, seed=state.seed, head_digest=state.head,
            seats=state.seats, rules_version=state.rules_version,
        )
        if signed:
            message.head_signature.CopyFrom(self.signed_head(
                state.game_id, state.rules, state.rules_version, state.version, state.head,
                state.commitment, state.over))
        return message

    def signed_head(
        self, game_id: str, rules: str, rules_version: str, version: int, head: str,
        commitment: str, over: bool,
    ) -> game_pb2.HeadSignature:
        """The server's signature over what it recorded of a game up to ``version``."""
        signed = self.credentials.signer.sign(signing.statement(
            game_id, rules, rules_version, version, head, commitment, over))
        return game_pb2.HeadSignature(
            key_id=signed.key_id, algorithm=signed.algorithm, statement=signed.statement,
            signature=signed.signature)


#: ListGames pages (AIP-158): the default and the most games a page holds.
PAGE_SIZE = 50
MAX_PAGE_SIZE = 500
#: The longest page token read: one cursor a shard, for a few hundred shards.
MAX_TOKEN = 8192
#: The cursors a page token carries: the catalogue position (``after``; for
#: ``newest_first``, ``before``) and the global position of the changed-games
#: listing (``changed_after``).
AFTER, BEFORE, CHANGED = "after", "before", "changed"
#: The most catalogue entries one page looks at when filtered by ``over``.
MAX_SCANNED = 2000


def _cursor(value: Any) -> bool:
    """Whether a token's value is a position (bool is an int to Python, not to
    protobuf: ``"p": true`` is no cursor)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 2**63 - 2


def page_size(request: Any) -> int:
    """``page_size``, else the older ``limit``, else 50; at most 500 (AIP-158
    lets a server coerce a larger size rather than refuse it)."""
    if request.page_size < 0:
        raise bad_request("BAD_PAGE_SIZE", "page_size is never negative")
    return min(request.page_size or request.limit or PAGE_SIZE, MAX_PAGE_SIZE)


def make_page_token(kind: str, position: int | list[int], rules: str,
                    over: bool | None = None) -> str:
    """An opaque token for the page after ``position``. Not secret nor signed:
    it only holds a cursor the older ``after``/``changed_after`` fields let any
    caller send, and the filters it was issued for, to refuse it under others."""
    data: dict[str, Any] = {"k": kind, "p": position, "r": rules}
    if over is not None:
        data["o"] = over
    text = json.dumps(data, separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")


def read_page_token(token: str, rules: str, over: bool | None = None
                    ) -> tuple[str, int | list[int]] | None:
    """``(kind, position)`` of a ``page_token``, ``None`` for the first page; on
    a store sharded by game the position is a list, one per shard."""
    if not token:
        return None
    try:
        if len(token) > MAX_TOKEN:
            raise ValueError("too long")
        data = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
        kind, position, issued_for = data["k"], data["p"], data["r"]
        if kind not in (AFTER, BEFORE, CHANGED) or not (
                _cursor(position) or isinstance(position, list) and 0 < len(position) <= 4096
                and all(_cursor(p) for p in position)):
            raise ValueError("not a cursor")
    except (ValueError, TypeError, KeyError, AttributeError, binascii.Error):
        raise bad_request("BAD_PAGE_TOKEN", "page_token is not one this server issued") from None
    if issued_for != rules:
        raise bad_request(
            "BAD_PAGE_TOKEN", "page_token was issued for another `rules` filter; send the same"
        )
    if data.get("o") != over:
        raise bad_request(
            "BAD_PAGE_TOKEN", "page_token was issued for another `over` filter; send the same"
        )
    return kind, position


def decision_proto(d: PendingDecision) -> game_pb2.Decision:
    """A pending decision on the wire (its choices already left out for a
    reader who may not see them: ``service.readmodel.pending``)."""
    return game_pb2.Decision(
        seat=d.seat, kind=d.kind, prompt=d.prompt, hidden=d.hidden, id=d.id,
        choices_json=d.choices_json, deadline_seconds=d.deadline, default=d.default,
    )


class _Registration:
    """What ``add_GameServiceServicer_to_server`` registers, caught (it is
    given this instead of the server)."""

    handlers: dict[str, grpc.RpcMethodHandler]

    def add_generic_rpc_handlers(self, _handlers: Any) -> None:
        pass

    def add_registered_method_handlers(self, _service: str,
                                       handlers: dict[str, grpc.RpcMethodHandler]) -> None:
        self.handlers = handlers


def add_to_server(servicer: GameServicer, server: LoopServer) -> None:
    """Serve ``servicer`` on ``server`` (gRPC's asyncio server, which runs
    ``Play``, a coroutine: ``service.aio.LoopServer``) as the generated code
    does, except that ``Play``'s pushes are serialized by ``play_wire``: each
    is its own wire bytes (``service.play.Push``), put together from parts
    encoded once; and that a read of a game's current version
    (``GetState``, ``LegalActions``) is answered on the loop when its game
    is at hand (``GameServicer.held_for_read``), without a thread's hop."""
    caught = _Registration()
    game_pb2_grpc.add_GameServiceServicer_to_server(servicer, caught)
    handlers = dict(caught.handlers)
    play = handlers["Play"]
    handlers["Play"] = grpc.stream_stream_rpc_method_handler(
        play.stream_stream, request_deserializer=play.request_deserializer,
        response_serializer=play_wire)
    name = "arbiter.v1.GameService"
    for method in ("GetState", "LegalActions"):
        server.answer_at_hand(f"/{name}/{method}", servicer.held_for_read)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(name, handlers),))
    server.add_registered_method_handlers(name, handlers)
