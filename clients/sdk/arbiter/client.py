"""Python client library for Arbiter's ``GameService`` (sync and asyncio).

The stubs generated from the protos are usable as they are; this layer adds
what every caller would otherwise write again: one typed ``ArbiterError``
parsed from the status and its trailers (so a bot reacts to a reason code,
not to prose), commands given as plain ``{"name", "args"}`` dicts, a fresh
command id per move and a fresh request id per created game (so a retry after
a dropped connection is exactly-once), a few retries, with jittered back-off,
of a call the server could not serve (``UNAVAILABLE``: down, ``BUSY``, the store
unavailable; ``ABORTED``/``CONTENDED``) with that same id, the caller's credential as
``authorization: Bearer <token>`` metadata on every call (remembering the
tokens of the games it creates), and TLS channels.

Replies are the generated messages themselves, so every field the server
sends is there: ``GameState.screen_json`` (the game's own screen),
``Event.text`` (the event in the game's words), ``LegalActionsResponse``'s
``decisions`` (each with ``id`` and ``choices_json``) and ``complete``.
``screen_of``, ``choices_of`` and ``message_to_dict`` decode them; ``act``
takes ``decision_id=`` to answer one decision.
"""

from __future__ import annotations

import asyncio
import enum
import functools
import inspect
import json
import os
import random
import time
import uuid
from collections.abc import (
    AsyncIterator,
    Callable,
    Coroutine,
    Generator,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Concatenate, Generic, ParamSpec, TypeAlias, TypeVar

import grpc
import grpc.aio
from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from arbiter import rich_status
from arbiter.play import PlayStream
from arbiter.v1 import game_pb2, game_pb2_grpc
from arbiter.wire import json_to_command

DEFAULT_ADDRESS = "localhost:50051"
#: Tries of a call after its first one fails retryably (``retryable``).
DEFAULT_RETRIES = 4
#: The back-off between tries: the first pause at most, the longest (seconds).
RETRY_BACKOFF = (0.05, 2.0)
#: How long a feed that was open keeps trying to reopen after the server went
#: away (a restart), by default, before it raises the error that ended it.
RECONNECT_SECONDS = 60.0

CommandLike: TypeAlias = game_pb2.Command | Mapping[str, Any]
Metadata: TypeAlias = tuple[tuple[str, str], ...]


def default_address() -> str:
    """The server address: ``$ARBITER_ADDRESS``, else ``localhost:50051``."""
    return os.environ.get("ARBITER_ADDRESS") or DEFAULT_ADDRESS


class ArbiterError(Exception):
    """A refused or failed call, with the server's stable reason code.

    ``reason`` comes from the ``arbiter-reason`` trailer (else from the
    "REASON: sentence" details, else the gRPC code name); ``version`` is the
    game's current version from ``arbiter-version`` (0 when not sent), which
    is what a client needs to retry with a fresh ``expected_version``.
    """

    def __init__(
        self, code: grpc.StatusCode, reason: str, message: str, version: int = 0
    ) -> None:
        super().__init__(f"{reason}: {message}" if message else reason)
        self.code = code
        self.reason = reason
        self.message = message
        self.version = version

    def __repr__(self) -> str:
        return (
            f"ArbiterError(code={self.code!r}, reason={self.reason!r}, "
            f"message={self.message!r}, version={self.version})"
        )

    def __str__(self) -> str:
        return f"{self.reason}: {self.message}" if self.message else self.reason

    @classmethod
    def from_parts(
        cls,
        code: grpc.StatusCode,
        details: str | None,
        trailers: Sequence[tuple[str, Any]] | None,
    ) -> ArbiterError:
        """Build the error from a status code, details text and trailing metadata.

        The rich status (``google.rpc.ErrorInfo`` of domain ``arbiter``) wins
        when the server sent one; else the ``arbiter-*`` trailers.
        """
        rich = rich_status.read(trailers)
        meta: dict[str, str] = {}
        for key, value in trailers or ():
            if isinstance(value, bytes):
                value = value.decode("utf-8", "replace")
            meta[str(key).lower()] = str(value)
        text = (details or "").strip()
        reason = meta.get("arbiter-reason", "").strip()
        if rich is not None and rich.reason:
            reason = rich.reason
        head, sep, tail = text.partition(": ")
        if sep and _looks_like_reason(head):
            if not reason:
                reason = head
            if head == reason:
                text = tail.strip()
        if not reason:
            reason = code.name if code is not None else "UNKNOWN"
        try:
            version = int(meta.get("arbiter-version", "0") or 0)
        except ValueError:
            version = 0
        if rich is not None and rich.version is not None:
            version = rich.version
        return cls(code=code, reason=reason, message=text, version=version)

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> ArbiterError:
        """Translate a sync ``grpc.RpcError`` (a ``grpc.Call``) into an ArbiterError."""
        code = _call_attr(error, "code") or grpc.StatusCode.UNKNOWN
        details = _call_attr(error, "details") or str(error)
        trailers = _call_attr(error, "trailing_metadata")
        return cls.from_parts(code, details, trailers)

    @classmethod
    def from_aio_error(cls, error: grpc.aio.AioRpcError) -> ArbiterError:
        """Translate an asyncio ``AioRpcError`` into an ArbiterError."""
        return cls.from_parts(error.code(), error.details(), error.trailing_metadata())


def _looks_like_reason(text: str) -> bool:
    """Reason codes are UPPER_SNAKE words; anything else is part of the sentence."""
    return bool(text) and text.replace("_", "").isalnum() and text.upper() == text


def _call_attr(error: Any, name: str) -> Any:
    method = getattr(error, name, None)
    if not callable(method):
        return None
    try:
        return method()
    except Exception:  # a half-built error object; the other fields still help
        return None


def new_command_id() -> str:
    """A fresh client command id; the server deduplicates retries by it."""
    return str(uuid.uuid4())


def new_request_id() -> str:
    """A fresh ``CreateGame`` request id: a retry with it gets the same game."""
    return str(uuid.uuid4())


def retryable(error: ArbiterError) -> bool:
    """Whether the same request, sent again, may succeed where this one failed.

    ``UNAVAILABLE`` is the server unreachable (a restart, a dropped
    connection), or the server saying it recorded nothing and another try may
    do better (``BUSY``, ``STORE_UNAVAILABLE``); ``ABORTED``/``CONTENDED`` is a
    game too contended to decide now. Only idempotent requests may be sent
    again: a read, a ``CreateGame`` with its request id, an ``Act`` with its
    command id; so the client sends only those (it gives every create and
    every move an id), and a lost reply of a call that did succeed returns
    the original result. Any other refusal (a version mismatch, a rule, a
    rate limit) would be refused again and is not retried.
    """
    if error.code == grpc.StatusCode.UNAVAILABLE:
        return True
    return error.code == grpc.StatusCode.ABORTED and error.reason == "CONTENDED"


class FeedResume:
    """Where a feed reopens after a server restart, and until when it tries.

    A feed is reopened only once it has delivered a message (a wrong address
    fails at once), on ``UNAVAILABLE`` (the server stopping, or not answering
    while it restarts), after the last event received: its version, or for
    every game's feed its global position (on a store sharded by game, each
    shard's: ``Event.shard``); so no event is missed or repeated.
    """

    def __init__(self, game_id: str, after: int, patience: float) -> None:
        self.game_id = game_id
        self.after = after
        #: Every game's feed on a sharded store: the last position seen per shard.
        self.shards: dict[int, int] = {}
        self.patience = patience
        self.opened = False
        self.attempt = 0
        self.deadline: float | None = None

    def saw(self, message: game_pb2.FeedMessage) -> None:
        """A message arrived: the feed is open, and resumes after its event."""
        self.opened, self.attempt, self.deadline = True, 0, None
        if message.HasField("event"):
            event = message.event
            if self.game_id:
                self.after = event.version
            elif event.shard:
                self.shards[event.shard] = event.position
            else:
                self.after = event.position
                if self.shards:  # shard 0 of a sharded store
                    self.shards[0] = event.position

    def after_shards(self) -> list[int]:
        """``SubscribeRequest.after_shards`` to reopen every game's feed on a
        sharded store (empty elsewhere)."""
        if not self.shards:
            return []
        self.shards.setdefault(0, self.after)
        return [self.shards.get(n, 0) for n in range(max(self.shards) + 1)]

    def pause(self, error: ArbiterError) -> float:
        """The pause before reopening after ``error``; raises it when the feed
        may not be reopened (another error, never opened, out of patience)."""
        if error.code != grpc.StatusCode.UNAVAILABLE or not self.opened or self.patience <= 0:
            raise error
        now = time.monotonic()
        if self.deadline is None:
            self.deadline = now + self.patience
        if now >= self.deadline:
            raise error
        self.attempt += 1
        return min(retry_pause(self.attempt) + 0.1, self.deadline - now)


def retry_pause(attempt: int) -> float:
    """The pause before try ``attempt`` (1, 2, ...): random ("full jitter"), so
    clients refused together do not come back together, and growing."""
    first, longest = RETRY_BACKOFF
    return random.uniform(0, min(longest, first * 2 ** (attempt - 1)))


def default_token() -> str | None:
    """The caller's credential: ``$ARBITER_TOKEN``, else none."""
    return os.environ.get("ARBITER_TOKEN") or None


def default_creator_token() -> str | None:
    """The credential for creating games on a server that requires one:
    ``$ARBITER_CREATOR_TOKEN``, else none."""
    return os.environ.get("ARBITER_CREATOR_TOKEN") or None


def default_tls_ca() -> str | None:
    """A PEM file of trusted roots for TLS: ``$ARBITER_TLS_CA``, else none."""
    return os.environ.get("ARBITER_TLS_CA") or None


def auth_metadata(token: str | None) -> Metadata:
    """The gRPC metadata carrying ``token`` (none at all without a token)."""
    return (("authorization", f"Bearer {token}"),) if token else ()


def channel_credentials(
    tls_ca: str | None = None, tls: bool = False
) -> grpc.ChannelCredentials | None:
    """TLS credentials for a channel, or ``None`` for plaintext.

    A CA file (PEM) means TLS trusting exactly those roots; ``tls`` alone
    means TLS trusting the system's roots. Raises ``OSError`` when the CA
    file cannot be read.
    """
    if tls_ca:
        with open(tls_ca, "rb") as handle:
            return grpc.ssl_channel_credentials(root_certificates=handle.read())
    if tls:
        return grpc.ssl_channel_credentials()
    return None


# --- replies as plain data ----------------------------------------------------

_INT64 = (FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_SINT64,
          FieldDescriptor.TYPE_FIXED64, FieldDescriptor.TYPE_SFIXED64)


def _decoded(text: str) -> Any:
    if not text:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _typed(descriptor: Any, data: dict[str, Any]) -> dict[str, Any]:
    """64-bit integers as numbers (proto JSON writes them as strings), and every
    JSON-text field (``view_json``, ``json``...) decoded, named without ``_json``."""
    for field in descriptor.fields:
        if field.name not in data:
            continue
        value = data[field.name]
        repeated = isinstance(value, list)
        if field.type in _INT64:
            data[field.name] = [int(v) for v in value] if repeated else int(value)
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            sub = field.message_type
            if repeated and isinstance(value, list):
                data[field.name] = [_typed(sub, v) if isinstance(v, dict) else v for v in value]
            elif isinstance(value, dict):
                data[field.name] = _typed(sub, value)
        elif field.type == FieldDescriptor.TYPE_STRING and not repeated and (
            field.name == "json" or field.name.endswith("_json")
        ):
            key = field.name.removesuffix("_json")
            del data[field.name]
            data[key] = _decoded(value)
    return data


def message_to_dict(message: Message) -> dict[str, Any]:
    """A reply as plain data: every field, defaults included (a ``seat`` of 0, an
    empty list), field names as in the proto, versions as integers, JSON-text
    fields decoded (``view_json`` -> ``view``, ``screen_json`` -> ``screen``)."""
    data = json_format.MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )
    return _typed(message.DESCRIPTOR, data)


def screen_of(state: game_pb2.GameState) -> dict[str, Any]:
    """The game's screen for the reader: ``{"sections": [...]}`` (empty when none)."""
    value = _decoded(state.screen_json)
    return value if isinstance(value, dict) else {}


def choices_of(decision: game_pb2.Decision) -> list[dict[str, Any]]:
    """A decision's choice structures (``pick_one``, ``pick_cards``, ``assign``, ``number``)."""
    value = _decoded(decision.choices_json)
    return [c for c in value if isinstance(c, dict)] if isinstance(value, list) else []


# --- requests, shared by the sync and asyncio clients ------------------------


def build_create_request(
    rules: str,
    seats: Sequence[str],
    options: Mapping[str, Any] | str | None = None,
    request_id: str = "",
    entropy: Sequence[bytes] = (),
) -> game_pb2.CreateGameRequest:
    """The ``CreateGameRequest`` for ``rules`` with the named seats; ``entropy``:
    the caller's contributions to the dice (docs/how-it-works.md, "Fair dice and
    audit")."""
    return game_pb2.CreateGameRequest(
        rules=rules, seats=list(seats), options_json=_options_json(options),
        request_id=request_id, entropy=list(entropy),
    )


def build_act_request(
    rules: str,
    game_id: str,
    seat: int,
    command: CommandLike,
    expected_version: int = 0,
    command_id: str = "",
    decision_id: str = "",
    with_state: bool | None = None,
) -> game_pb2.ActRequest:
    """The ``ActRequest`` for a typed command or a ``{"name", "args"}`` dict.

    ``decision_id`` names the pending decision the command answers
    (``Decision.id``): staleness is then judged for that decision alone.
    ``with_state``: None leaves the field out (the reply carries the state, as
    for every older client); False asks for none (the server renders nothing).
    """
    if isinstance(command, game_pb2.Command):
        typed = command
    else:
        typed = json_to_command(rules, dict(command))
    request = game_pb2.ActRequest(
        game_id=game_id,
        seat=seat,
        command=typed,
        expected_version=expected_version,
        command_id=command_id or new_command_id(),
        decision_id=decision_id,
    )
    if with_state is not None:
        request.with_state = with_state
    return request


def build_state_request(
    game_id: str, seat: int = 0, spectator: bool = False, version: int | None = None,
    sign_head: bool = False,
) -> game_pb2.GetStateRequest:
    """The ``GetStateRequest`` for a seat's (or the public) view, now or at ``version``;
    ``sign_head``: with the server's signature over the head read."""
    request = game_pb2.GetStateRequest(game_id=game_id, seat=seat, spectator=spectator,
                                       sign_head=sign_head)
    if version is not None:
        request.version = version
    return request


def build_legal_request(game_id: str, seat: int = 0) -> game_pb2.LegalActionsRequest:
    """The ``LegalActionsRequest`` of one seat."""
    return game_pb2.LegalActionsRequest(game_id=game_id, seat=seat)


def build_history_request(
    game_id: str, seat: int = 0, spectator: bool = False, after_version: int = 0
) -> game_pb2.HistoryRequest:
    """The ``HistoryRequest`` for a seat's (or the public) record after a version."""
    return game_pb2.HistoryRequest(
        game_id=game_id, seat=seat, spectator=spectator, after_version=after_version
    )


def build_subscribe_request(
    game_id: str = "", after: int = 0, seat: int = 0, spectator: bool = True
) -> game_pb2.SubscribeRequest:
    """The ``SubscribeRequest`` of one game's feed (or every game's, without an id)."""
    return game_pb2.SubscribeRequest(game_id=game_id, seat=seat, spectator=spectator, after=after)


def build_audit_request(game_id: str) -> game_pb2.AuditRequest:
    """The ``AuditRequest`` of one game."""
    return game_pb2.AuditRequest(game_id=game_id)


def build_list_games_request(
    rules: str = "", limit: int = 0, after: int = 0
) -> game_pb2.ListGamesRequest:
    """One page of ``ListGames`` (``after`` = the previous page's ``next_after``)."""
    return game_pb2.ListGamesRequest(rules=rules, limit=limit, after=after)


# --- what both clients keep: address, TLS, tokens, rules ids -----------------


class _ClientState:
    """Settings and memory shared by ``ArbiterClient`` and ``AsyncArbiterClient``.

    Which token a call carries: the call's ``token=`` (``""``: send none),
    else the token this client remembered for that game and seat (from its
    own ``create_game``, or ``add_tokens``; a spectator call uses the game's
    spectator token, else any seat token of the game), else the client's
    ``token``. ``create_game`` carries the creator credential instead: the
    call's ``creator_token``, else its ``token``, else the client's
    ``creator_token`` (default ``$ARBITER_CREATOR_TOKEN``), else ``token``.
    """

    def __init__(
        self,
        address: str | None,
        token: str | None,
        tls_ca: str | None,
        tls: bool,
        timeout: float | None,
        retries: int,
        creator_token: str | None,
        channel: Any,
        flavour: Any,
    ) -> None:
        self.address = address or default_address()
        self.retries = retries
        self.token = token if token is not None else default_token()
        self.tls_ca = tls_ca if tls_ca is not None else default_tls_ca()
        self.tls = tls
        self.timeout = timeout
        self.creator_token = (
            default_creator_token() if creator_token is None else creator_token or None
        )
        self._rules_of: dict[str, str] = {}
        self._seat_tokens: dict[tuple[str, int], str] = {}
        self._spectator_tokens: dict[str, str] = {}
        if channel is None:
            channel = _new_channel(flavour, self.address, self.tls_ca, self.tls)
        self._channel = channel
        self._calls = _Calls(self, game_pb2_grpc.GameServiceStub(channel))

    def _remember(self, state: game_pb2.GameState) -> None:
        if state.game_id and state.rules:
            self._rules_of[state.game_id] = state.rules

    def _remember_created(self, response: game_pb2.CreateGameResponse, rules: str) -> None:
        self._rules_of[response.game_id] = response.state.rules or rules
        self.add_tokens(
            response.game_id,
            {seat_token.seat: seat_token.token for seat_token in response.seat_tokens},
            response.spectator_token or None,
        )

    def add_tokens(
        self, game_id: str, seats: Mapping[int, str], spectator: str | None = None
    ) -> None:
        """Remember a game's seat tokens (by seat number) and spectator token."""
        for seat, token in seats.items():
            if token:
                self._seat_tokens[(game_id, int(seat))] = token
        if spectator:
            self._spectator_tokens[game_id] = spectator

    def token_for(
        self,
        token: str | None = None,
        game_id: str = "",
        seat: int = 0,
        spectator: bool = False,
    ) -> str | None:
        """The token a call about ``game_id`` as ``seat`` (or a spectator) carries.

        ``token`` is the call's own: ``None`` means "find one", ``""`` means "none".
        """
        if token is not None:
            return token or None
        if game_id:
            remembered = (
                self._spectator_token(game_id) if spectator
                else self._seat_tokens.get((game_id, seat))
            )
            if remembered:
                return remembered
        return self.token

    def _spectator_token(self, game_id: str) -> str | None:
        spectator = self._spectator_tokens.get(game_id)
        if spectator:
            return spectator
        for (game, _seat), token in sorted(self._seat_tokens.items()):
            if game == game_id:
                return token
        return None

    def _metadata(
        self,
        token: str | None = None,
        game_id: str = "",
        seat: int = 0,
        spectator: bool = False,
    ) -> Metadata:
        return auth_metadata(self.token_for(token, game_id, seat, spectator))

    def _creator_metadata(self, token: str | None, creator_token: str | None) -> Metadata:
        """CreateGame's credential (see the class's docstring)."""
        for credential in (creator_token, token, self.creator_token):
            if credential is not None:
                return auth_metadata(credential or None)
        return self._metadata(None)


def _new_channel(flavour: Any, address: str, tls_ca: str | None, tls: bool) -> Any:
    """A channel to ``address`` made by ``flavour``: ``grpc`` or ``grpc.aio``,
    whose channel factories have the same names and arguments."""
    credentials = channel_credentials(tls_ca, tls)
    if credentials:
        return flavour.secure_channel(address, credentials)
    return flavour.insecure_channel(address)


# --- one request pipeline: every call written once, performed by either client
#
# A call is a plan: a generator that yields the steps it needs (send a request,
# read a stream's next message, pause) and is sent each step's outcome back (a
# failure is raised inside it as an ``ArbiterError``). ``_Calls`` writes every
# call's request, credential, retry policy, feed resumption and reply handling
# once, as a plan; ``ArbiterClient`` performs the steps blocking and
# ``AsyncArbiterClient`` as coroutines, and that is all that tells them apart.

_S = TypeVar("_S")
_T = TypeVar("_T")
_Y = TypeVar("_Y")
_P = ParamSpec("_P")


@dataclass(frozen=True)
class _Unary:
    """Send ``request`` once on ``method`` (a stub's RPC); the outcome is the
    reply, or the ``ArbiterError`` the call failed with."""

    method: Any
    request: Message
    metadata: Metadata
    timeout: float | None


@dataclass(frozen=True)
class _Read:
    """Take the next message of the server stream ``call``; the outcome is the
    message, ``_END`` after the last one, or the ``ArbiterError`` it ended with."""

    call: Any


@dataclass(frozen=True)
class _Sleep:
    """Pause for ``seconds`` (a thread blocks; a task lets the others run)."""

    seconds: float


@dataclass(frozen=True)
class _Emit(Generic[_Y]):
    """Hand ``item`` to whoever iterates a streaming call."""

    item: _Y


@dataclass(frozen=True)
class _Done(Generic[_T]):
    """The plan has returned ``value``."""

    value: _T


_Step: TypeAlias = _Unary | _Read | _Sleep
#: A unary call: the steps it takes, then its result.
_Plan: TypeAlias = Generator[_Step, Any, _T]
#: A streaming call: the steps it takes and the items it hands on.
_Stream: TypeAlias = Generator[_Step | _Emit[_Y], Any, None]
#: The outcome of a ``_Read`` past a stream's last message.
_END = object()


def _advance(plan: Generator[_S, Any, _T], outcome: Any) -> _S | _Done[_T]:
    """The step ``plan`` takes once given ``outcome`` (its last step's), or its end.

    A failed step's ``ArbiterError`` is raised inside the plan, at the step, so
    that the plan's own policy (retry, reopen the feed, give up) decides.
    """
    try:
        return plan.throw(outcome) if isinstance(outcome, ArbiterError) else plan.send(outcome)
    except StopIteration as done:
        return _Done(done.value)


def _emitting(plan: _Plan[_T]) -> _Stream[_T]:
    """A unary plan as a stream of its one result: one driver performs both kinds."""
    yield _Emit((yield from plan))


class _Calls:
    """Every ``GameService`` call as a plan, for both clients.

    ``client`` holds the settings and the remembered tokens and rules ids;
    ``stub`` is over the client's channel (blocking or asyncio: the plans only
    name its RPCs and open its streams, both of which are alike in the two).
    """

    def __init__(self, client: _ClientState, stub: Any) -> None:
        self.client = client
        self.stub = stub

    def _unary(self, method: Any, request: Message, metadata: Metadata) -> _Plan[Any]:
        """One unary call, tried again (up to ``retries`` times, with back-off)
        while it fails ``retryable``: every unary request this client sends is
        idempotent (a read, or a create or move carrying its id), so the same
        request goes again."""
        attempt = 0
        while True:
            try:
                return (yield _Unary(method, request, metadata, self.client.timeout))
            except ArbiterError as error:
                attempt += 1
                if attempt > self.client.retries or not retryable(error):
                    raise
            yield _Sleep(retry_pause(attempt))

    def _relay(self, call: Any, saw: Callable[[Any], None] | None = None) -> _Stream[Any]:
        """Every message of the server stream ``call``, shown to ``saw`` first; the
        call is cancelled however the relay ends (done, failed, or not read on)."""
        try:
            while (message := (yield _Read(call))) is not _END:
                if saw is not None:
                    saw(message)
                yield _Emit(message)
        finally:
            call.cancel()

    def _list_rules(self, token: str | None) -> _Plan[game_pb2.ListRulesResponse]:
        """``ListRules``: the games the server plays and the keys it signs with."""
        request = game_pb2.ListRulesRequest()
        return (yield from self._unary(self.stub.ListRules, request, self.client._metadata(token)))

    def list_rules(self, *, token: str | None = None) -> _Plan[list[game_pb2.RulesInfo]]:
        """The games the server plays."""
        response = yield from self._list_rules(token)
        return list(response.rules)

    def signing_keys(self, *, token: str | None = None) -> _Plan[list[game_pb2.SigningKey]]:
        """The public keys the server signs games' heads with, the current one first."""
        response = yield from self._list_rules(token)
        return list(response.signing_keys)

    def create_game(
        self,
        rules: str,
        seats: Sequence[str],
        options: Mapping[str, Any] | str | None = None,
        request_id: str = "",
        *,
        token: str | None = None,
        creator_token: str | None = None,
        entropy: Sequence[bytes] = (),
    ) -> _Plan[game_pb2.CreateGameResponse]:
        """Create a game of ``rules`` with the named seats (their count is the player count).

        ``creator_token`` is the credential of a server that requires one to
        create games (default: the client's ``creator_token``). A retried
        ``request_id`` returns the same game only with the same credential.
        Without one the client makes a fresh one, so that its own retries
        (``retryable``) never create a second game.
        The response's seat and spectator tokens are remembered for later calls.
        ``entropy``: contributions mixed into the game's dice (none by default).
        """
        request = build_create_request(
            rules, seats, options, request_id or new_request_id(), entropy
        )
        metadata = self.client._creator_metadata(token, creator_token)
        response: game_pb2.CreateGameResponse = yield from self._unary(
            self.stub.CreateGame, request, metadata
        )
        self.client._remember_created(response, rules)
        return response

    def rules_of(self, game_id: str, *, token: str | None = None) -> _Plan[str]:
        """The rules id of a game (cached; asked of the server once)."""
        if game_id not in self.client._rules_of:
            yield from self.state(game_id, spectator=True, token=token)  # which remembers it
        return self.client._rules_of[game_id]

    def act(
        self,
        game_id: str,
        seat: int,
        command: CommandLike,
        expected_version: int = 0,
        command_id: str = "",
        *,
        decision_id: str = "",
        token: str | None = None,
        with_state: bool | None = None,
    ) -> _Plan[game_pb2.ActResponse]:
        """Send one move; retried with the same command id while ``retryable``.

        ``decision_id`` names the decision it answers (from ``legal().decisions``);
        ``with_state=False``: the reply carries no state (``ActRequest.with_state``),
        for a client that reads it when it needs it.
        """
        token = self.client.token_for(token, game_id, seat)
        typed = isinstance(command, game_pb2.Command)
        rules = "" if typed else (yield from self.rules_of(game_id, token=token))
        request = build_act_request(
            rules, game_id, seat, command, expected_version, command_id, decision_id,
            with_state,
        )
        response: game_pb2.ActResponse = yield from self._unary(
            self.stub.Act, request, auth_metadata(token)
        )
        self.client._remember(response.state)
        return response

    def state(
        self,
        game_id: str,
        seat: int = 0,
        spectator: bool = False,
        *,
        token: str | None = None,
        version: int | None = None,
        sign_head: bool = False,
    ) -> _Plan[game_pb2.GameState]:
        """The game as ``seat`` (or a spectator) may see it (at ``version``: as it
        was after that version); ``sign_head``: with the server's signature over
        its head (a finished game's always has it)."""
        request = build_state_request(game_id, seat, spectator, version, sign_head)
        metadata = self.client._metadata(token, game_id, seat, spectator)
        state: game_pb2.GameState = yield from self._unary(self.stub.GetState, request, metadata)
        self.client._remember(state)
        return state

    def legal(
        self, game_id: str, seat: int = 0, *, token: str | None = None
    ) -> _Plan[game_pb2.LegalActionsResponse]:
        """Every legal command of ``seat`` now."""
        request = build_legal_request(game_id, seat)
        metadata = self.client._metadata(token, game_id, seat)
        return (yield from self._unary(self.stub.LegalActions, request, metadata))

    def history(
        self,
        game_id: str,
        seat: int = 0,
        spectator: bool = False,
        after_version: int = 0,
        *,
        token: str | None = None,
    ) -> _Stream[game_pb2.Event]:
        """The recorded events of a game, redacted for the caller."""
        request = build_history_request(game_id, seat, spectator, after_version)
        metadata = self.client._metadata(token, game_id, seat, spectator)
        yield from self._relay(
            self.stub.History(request, timeout=self.client.timeout, metadata=metadata)
        )

    def subscribe(
        self,
        game_id: str = "",
        after: int = 0,
        seat: int = 0,
        spectator: bool = True,
        *,
        token: str | None = None,
        reconnect: float = RECONNECT_SECONDS,
        on_reconnect: Callable[[ArbiterError], None] | None = None,
    ) -> _Stream[game_pb2.FeedMessage]:
        """Catch-up then live feed of one game (by version) or all games (by position).

        No deadline: a feed is meant to stay open; break out of the loop (or
        close the client) to stop it. Every game's feed needs the admin token.
        Across a server restart the feed reopens after the last event it
        delivered, trying for ``reconnect`` seconds (0: never; ``FeedResume``),
        telling ``on_reconnect`` each time, before it raises the error.
        """
        metadata = self.client._metadata(token, game_id, seat, spectator)
        resume = FeedResume(game_id, after, reconnect)
        while True:
            request = build_subscribe_request(game_id, resume.after, seat, spectator)
            if resume.after_shards():
                request.after = 0
                request.after_shards.extend(resume.after_shards())
            try:
                yield from self._relay(
                    self.stub.Subscribe(request, metadata=metadata), resume.saw
                )
                return
            except ArbiterError as exc:
                pause = resume.pause(exc)
                if on_reconnect is not None:
                    on_reconnect(exc)
            yield _Sleep(pause)

    def audit(self, game_id: str, *, token: str | None = None) -> _Plan[game_pb2.AuditResponse]:
        """Re-verify a recorded game (hash chain, dice against the seed, replay).

        A finished game's audit needs no token; an unfinished one's does.
        """
        request = build_audit_request(game_id)
        metadata = self.client._metadata(token, game_id, spectator=True)
        return (yield from self._unary(self.stub.Audit, request, metadata))

    def list_games(
        self, rules: str = "", limit: int = 0, after: int = 0, *, token: str | None = None
    ) -> _Plan[game_pb2.ListGamesResponse]:
        """One page of the games in the store (``after`` = previous ``next_after``)."""
        request = build_list_games_request(rules, limit, after)
        return (yield from self._unary(self.stub.ListGames, request, self.client._metadata(token)))

    def changed_games(
        self, after: int, limit: int = 100, *, token: str | None = None
    ) -> _Plan[game_pb2.ListGamesResponse]:
        """The games with events after global position ``after`` (admin): one page;
        ``next_after`` is the position covered."""
        request = game_pb2.ListGamesRequest(limit=limit, changed_after=after)
        return (yield from self._unary(self.stub.ListGames, request, self.client._metadata(token)))

    def iter_games(
        self, rules: str = "", page: int = 100, *, token: str | None = None
    ) -> _Stream[game_pb2.GameSummary]:
        """Every game in the store, page by page (by page token: on a store
        sharded by game too, where a position is one shard's)."""
        page_token = ""
        while True:
            request = game_pb2.ListGamesRequest(rules=rules, page_size=page,
                                                page_token=page_token)
            response = yield from self._unary(self.stub.ListGames, request,
                                              self.client._metadata(token))
            for game in response.games:
                yield _Emit(game)
            page_token = response.next_page_token
            if not page_token:
                return


# --- a recorded game, version by version ---------------------------------------


@dataclass(frozen=True)
class ReplayStep:
    """One version of a recorded game as its reader sees it: the event that made
    the version (redacted as ``history`` redacts it) and the state just after it
    (``GetState`` at that version)."""

    event: game_pb2.Event
    state: game_pb2.GameState

    @property
    def version(self) -> int:
        """The version this step shows."""
        return int(self.event.version)


def _gathered(stream: _Stream[_Y]) -> _Plan[list[_Y]]:
    """Every item of ``stream``, collected inside another plan: its steps are
    passed on to the driver, a failed step's error back to ``stream``'s own policy."""
    items: list[_Y] = []
    outcome: Any = None
    try:
        while not isinstance(step := _advance(stream, outcome), _Done):
            if isinstance(step, _Emit):
                items.append(step.item)
                outcome = None
                continue
            try:
                outcome = yield step
            except ArbiterError as error:
                outcome = error
    finally:
        stream.close()
    return items


def _replay(
    self: _Calls,  # named so: it is the clients' method ``replay`` (see _as_method)
    game_id: str,
    seat: int = 0,
    spectator: bool = False,
    *,
    start: int = 1,
    stop: int | None = None,
    token: str | None = None,
) -> _Stream[ReplayStep]:
    """Step through a game's record, version by version, as ``seat`` (or a
    spectator) may see it: a ``ReplayStep`` (event, state after it) for each
    version from ``start`` to ``stop`` (default: the last recorded).

    One ``History`` call, then one ``GetState`` per version as the loop asks for
    it, so breaking out early costs nothing more; the states are the server's
    own, so a replay shows exactly what the reader saw at the time. A finished
    game's record is readable by anyone holding one of its tokens.
    """
    after = max(start, 1) - 1
    events = yield from _gathered(self.history(game_id, seat, spectator, after, token=token))
    for event in events:
        if stop is not None and event.version > stop:
            return
        state = yield from self.state(game_id, seat, spectator, token=token,
                                       version=event.version)
        yield _Emit(ReplayStep(event, state))


# --- the plans as the clients' methods ----------------------------------------

_Method = TypeVar("_Method", bound=Callable[..., Any])


def _as_method(plan: Callable[..., Any], method: _Method, returns: str = "{}") -> _Method:
    """``method`` named, documented and signed as ``plan`` for ``help`` and editors,
    but returning ``returns``: the plan's result (or item) type put in its ``{}``."""
    functools.update_wrapper(method, plan)
    signature = inspect.signature(plan)
    result = str(signature.return_annotation).partition("[")[2].removesuffix("]")
    method.__signature__ = signature.replace(  # type: ignore[attr-defined]
        return_annotation=returns.format(result)
    )
    return method


def _blocking(
    plan: Callable[Concatenate[_Calls, _P], _Plan[_T]],
) -> Callable[Concatenate[ArbiterClient, _P], _T]:
    """``plan`` as an ``ArbiterClient`` method: performed, blocking, to its result."""

    def method(self: ArbiterClient, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        return self._run(plan(self._calls, *args, **kwargs))

    return _as_method(plan, method)


def _blocking_stream(
    plan: Callable[Concatenate[_Calls, _P], _Stream[_Y]],
) -> Callable[Concatenate[ArbiterClient, _P], Iterator[_Y]]:
    """``plan`` as an ``ArbiterClient`` method: an iterator of what it hands on."""

    def method(self: ArbiterClient, *args: _P.args, **kwargs: _P.kwargs) -> Iterator[_Y]:
        return self._feed(plan(self._calls, *args, **kwargs))

    return _as_method(plan, method, "Iterator[{}]")


def _awaitable(
    plan: Callable[Concatenate[_Calls, _P], _Plan[_T]],
) -> Callable[Concatenate[AsyncArbiterClient, _P], Coroutine[Any, Any, _T]]:
    """``plan`` as an ``AsyncArbiterClient`` coroutine method."""

    async def method(self: AsyncArbiterClient, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        return await self._run(plan(self._calls, *args, **kwargs))

    return _as_method(plan, method)


def _async_stream(
    plan: Callable[Concatenate[_Calls, _P], _Stream[_Y]],
) -> Callable[Concatenate[AsyncArbiterClient, _P], AsyncIterator[_Y]]:
    """``plan`` as an ``AsyncArbiterClient`` method: an async iterator of what it hands on."""

    def method(self: AsyncArbiterClient, *args: _P.args, **kwargs: _P.kwargs) -> AsyncIterator[_Y]:
        return self._feed(plan(self._calls, *args, **kwargs))

    return _as_method(plan, method, "AsyncIterator[{}]")


class ArbiterClient(_ClientState):
    """A blocking client; use as a context manager to close the channel.

    >>> with ArbiterClient() as client:
    ...     game = client.create_game("enin", ["Ada"])
    ...     client.act(game.game_id, 0, {"name": "roll_start", "args": {}})

    ``token`` (default ``$ARBITER_TOKEN``) is sent as ``authorization: Bearer``
    metadata; every method also takes ``token=`` for that call alone, and the
    tokens of games this client created are used for them automatically.
    ``tls_ca`` (default ``$ARBITER_TLS_CA``) is a PEM file of trusted roots;
    ``tls=True`` without one trusts the system's roots. ``creator_token``
    (default ``$ARBITER_CREATOR_TOKEN``) is what ``create_game`` sends to a
    server that requires a creator credential. ``retries`` is how many more
    times a call that failed ``retryable`` is sent (the same request, ids
    and all), with a jittered, growing pause; 0 sends every call once.
    """

    def __init__(
        self,
        address: str | None = None,
        token: str | None = None,
        tls_ca: str | None = None,
        tls: bool = False,
        *,
        channel: grpc.Channel | None = None,
        timeout: float | None = 30.0,
        creator_token: str | None = None,
        retries: int = DEFAULT_RETRIES,
    ) -> None:
        super().__init__(
            address, token, tls_ca, tls, timeout, retries, creator_token, channel, flavour=grpc
        )

    def __enter__(self) -> ArbiterClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the channel."""
        self._channel.close()

    def _perform(self, step: _Step) -> Any:
        """Take one step of a plan, blocking: its outcome (a failure as an ArbiterError)."""
        if isinstance(step, _Sleep):
            time.sleep(step.seconds)
            return None
        try:
            if isinstance(step, _Read):
                return next(step.call, _END)
            return step.method(step.request, timeout=step.timeout, metadata=step.metadata)
        except grpc.RpcError as exc:
            return ArbiterError.from_rpc_error(exc)

    def _feed(self, plan: _Stream[_Y]) -> Iterator[_Y]:
        """Perform ``plan``, yielding what it hands on; stopping early closes it."""
        outcome: Any = None
        try:
            while not isinstance(step := _advance(plan, outcome), _Done):
                if isinstance(step, _Emit):
                    yield step.item
                    outcome = None
                else:
                    outcome = self._perform(step)
        finally:
            plan.close()

    def _run(self, plan: _Plan[_T]) -> _T:
        (result,) = self._feed(_emitting(plan))
        return result

    def play(
        self,
        game_id: str,
        seats: Sequence[int] = (),
        *,
        after_version: int = 0,
        token: str | None = None,
        seat_tokens: Sequence[str] | None = None,
        screens: bool = False,
    ) -> PlayStream:
        """A ``Play`` stream of ``seats`` of a game (``arbiter.play``): send
        moves with ``move``, iterate the pushes (events, turns, results).

        The stream's token: ``token``, else the one remembered for the first
        seat; the other seats' remembered tokens go as ``seat_tokens`` (unless
        given), so a bot holding several seats authenticates once, on one stream.
        ``screens``: turns carry each seat's screen, for a client that draws it.
        """
        first = seats[0] if seats else 0
        metadata = self._metadata(token, game_id, first)
        if seat_tokens is None:
            own = self.token_for(token, game_id, first)
            seat_tokens = [t for s in seats[1:]
                           if (t := self.token_for(None, game_id, s)) and t != own]
        rules = self._rules_of.get(game_id) or self.rules_of(game_id, token=token)
        return PlayStream(self._calls.stub, game_id, rules, seats, after_version=after_version,
                          seat_tokens=seat_tokens, metadata=metadata, screens=screens)

    list_rules = _blocking(_Calls.list_rules)
    signing_keys = _blocking(_Calls.signing_keys)
    create_game = _blocking(_Calls.create_game)
    rules_of = _blocking(_Calls.rules_of)
    act = _blocking(_Calls.act)
    state = _blocking(_Calls.state)
    legal = _blocking(_Calls.legal)
    history = _blocking_stream(_Calls.history)
    subscribe = _blocking_stream(_Calls.subscribe)
    audit = _blocking(_Calls.audit)
    list_games = _blocking(_Calls.list_games)
    changed_games = _blocking(_Calls.changed_games)
    iter_games = _blocking_stream(_Calls.iter_games)
    replay = _blocking_stream(_replay)


class AsyncArbiterClient(_ClientState):
    """The asyncio twin of ``ArbiterClient`` (``async with AsyncArbiterClient() as c``).

    Same arguments, same token rules, same methods (as coroutines and async
    iterators), the same plans (``_Calls``) performed as coroutines.
    """

    def __init__(
        self,
        address: str | None = None,
        token: str | None = None,
        tls_ca: str | None = None,
        tls: bool = False,
        *,
        channel: grpc.aio.Channel | None = None,
        timeout: float | None = 30.0,
        creator_token: str | None = None,
        retries: int = DEFAULT_RETRIES,
    ) -> None:
        super().__init__(
            address, token, tls_ca, tls, timeout, retries, creator_token, channel,
            flavour=grpc.aio,
        )

    async def __aenter__(self) -> AsyncArbiterClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the channel."""
        await self._channel.close()

    async def _perform(self, step: _Step) -> Any:
        """Take one step of a plan, awaiting it: its outcome (a failure as an ArbiterError)."""
        if isinstance(step, _Sleep):
            await asyncio.sleep(step.seconds)
            return None
        try:
            if isinstance(step, _Read):
                message = await step.call.read()
                return _END if message is grpc.aio.EOF else message
            return await step.method(step.request, timeout=step.timeout, metadata=step.metadata)
        except grpc.aio.AioRpcError as exc:
            return ArbiterError.from_aio_error(exc)

    async def _feed(self, plan: _Stream[_Y]) -> AsyncIterator[_Y]:
        """Perform ``plan``, yielding what it hands on; stopping early closes it."""
        outcome: Any = None
        try:
            while not isinstance(step := _advance(plan, outcome), _Done):
                if isinstance(step, _Emit):
                    yield step.item
                    outcome = None
                else:
                    outcome = await self._perform(step)
        finally:
            plan.close()

    async def _run(self, plan: _Plan[_T]) -> _T:
        (result,) = [item async for item in self._feed(_emitting(plan))]
        return result

    list_rules = _awaitable(_Calls.list_rules)
    signing_keys = _awaitable(_Calls.signing_keys)
    create_game = _awaitable(_Calls.create_game)
    rules_of = _awaitable(_Calls.rules_of)
    act = _awaitable(_Calls.act)
    state = _awaitable(_Calls.state)
    legal = _awaitable(_Calls.legal)
    history = _async_stream(_Calls.history)
    subscribe = _async_stream(_Calls.subscribe)
    audit = _awaitable(_Calls.audit)
    list_games = _awaitable(_Calls.list_games)
    replay = _async_stream(_replay)


def _options_json(options: Mapping[str, Any] | str | None) -> str:
    """Options travel as JSON text; accept a dict, ready text, or nothing."""
    if options is None:
        return ""
    if isinstance(options, str):
        return options
    return json.dumps(dict(options), sort_keys=True)


# --- a feed's state by name -----------------------------------------------------


class FeedState(enum.IntEnum):
    """Where a feed stands (``FeedMessage.state``), by name: ``LIVE`` (caught
    up, new events pushed), ``CAUGHT_UP`` (a heartbeat), ``DEGRADED`` (caught up,
    new events found by polling: still gap-free, up to a second late),
    ``ENDED`` (the game is over: the last message), ``UNSPECIFIED`` (an event, or
    a server older than the field). The generated message holds a bare number;
    this compares equal to it."""

    UNSPECIFIED = game_pb2.FEED_STATE_UNSPECIFIED
    LIVE = game_pb2.FEED_STATE_LIVE
    CAUGHT_UP = game_pb2.FEED_STATE_CAUGHT_UP
    DEGRADED = game_pb2.FEED_STATE_DEGRADED
    ENDED = game_pb2.FEED_STATE_ENDED


def feed_state(message: game_pb2.FeedMessage) -> FeedState:
    """A feed message's state by name (``FeedState.LIVE``...): ``UNSPECIFIED`` for
    an event, and for a state a newer server sends that this client does not know."""
    try:
        return FeedState(message.state)
    except ValueError:
        return FeedState.UNSPECIFIED
