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
import json
import os
import random
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any, TypeAlias

import grpc
import grpc.aio
from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from arbiter import rich_status
from arbiter.v1 import game_pb2, game_pb2_grpc
from arbiter.wire import json_to_command

DEFAULT_ADDRESS = "localhost:50051"
#: Tries of a call after its first one fails retryably (``retryable``).
DEFAULT_RETRIES = 4
#: The back-off between tries: the first pause at most, the longest (seconds).
RETRY_BACKOFF = (0.05, 2.0)

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
    the caller's contributions to the dice (issue 9 item 6, see the README)."""
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
) -> game_pb2.ActRequest:
    """The ``ActRequest`` for a typed command or a ``{"name", "args"}`` dict.

    ``decision_id`` names the pending decision the command answers
    (``Decision.id``): staleness is then judged for that decision alone.
    """
    if isinstance(command, game_pb2.Command):
        typed = command
    else:
        typed = json_to_command(rules, dict(command))
    return game_pb2.ActRequest(
        game_id=game_id,
        seat=seat,
        command=typed,
        expected_version=expected_version,
        command_id=command_id or new_command_id(),
        decision_id=decision_id,
    )


def build_state_request(
    game_id: str, seat: int = 0, spectator: bool = False, version: int | None = None
) -> game_pb2.GetStateRequest:
    """The ``GetStateRequest`` for a seat's (or the public) view, now or at ``version``."""
    request = game_pb2.GetStateRequest(game_id=game_id, seat=seat, spectator=spectator)
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
        retries: int = DEFAULT_RETRIES,
    ) -> None:
        self.address = address or default_address()
        self.retries = retries
        self.token = token if token is not None else default_token()
        self.tls_ca = tls_ca if tls_ca is not None else default_tls_ca()
        self.tls = tls
        self.timeout = timeout
        self.creator_token = default_creator_token()
        self._rules_of: dict[str, str] = {}
        self._seat_tokens: dict[tuple[str, int], str] = {}
        self._spectator_tokens: dict[str, str] = {}

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
        super().__init__(address, token, tls_ca, tls, timeout, retries)
        if creator_token is not None:
            self.creator_token = creator_token or None
        if channel is None:
            credentials = channel_credentials(self.tls_ca, self.tls)
            channel = (
                grpc.secure_channel(self.address, credentials) if credentials
                else grpc.insecure_channel(self.address)
            )
        self._channel = channel
        self._stub = game_pb2_grpc.GameServiceStub(self._channel)

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

    def _call(self, method: Any, request: Any, metadata: Metadata) -> Any:
        """One unary call, tried again (up to ``retries`` times, with back-off)
        while it fails ``retryable``: every unary request this client sends is
        idempotent (a read, or a create or move carrying its id)."""
        attempt = 0
        while True:
            try:
                return method(request, timeout=self.timeout, metadata=metadata)
            except grpc.RpcError as exc:
                error = ArbiterError.from_rpc_error(exc)
            attempt += 1
            if attempt > self.retries or not retryable(error):
                raise error from None
            time.sleep(retry_pause(attempt))

    def list_rules(self, *, token: str | None = None) -> list[game_pb2.RulesInfo]:
        """The games the server plays."""
        request = game_pb2.ListRulesRequest()
        return list(self._call(self._stub.ListRules, request, self._metadata(token)).rules)

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
    ) -> game_pb2.CreateGameResponse:
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
        response: game_pb2.CreateGameResponse = self._call(
            self._stub.CreateGame, request, self._creator_metadata(token, creator_token)
        )
        self._remember_created(response, rules)
        return response

    def rules_of(self, game_id: str, *, token: str | None = None) -> str:
        """The rules id of a game (cached; asked of the server once)."""
        if game_id not in self._rules_of:
            self._remember(self.state(game_id, spectator=True, token=token))
        return self._rules_of[game_id]

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
    ) -> game_pb2.ActResponse:
        """Send one move; retried with the same command id while ``retryable``.

        ``decision_id`` names the decision it answers (from ``legal().decisions``).
        """
        token = self.token_for(token, game_id, seat)
        typed = isinstance(command, game_pb2.Command)
        rules = "" if typed else self.rules_of(game_id, token=token)
        request = build_act_request(
            rules, game_id, seat, command, expected_version, command_id, decision_id
        )
        metadata = auth_metadata(token)
        response: game_pb2.ActResponse = self._call(self._stub.Act, request, metadata)
        self._remember(response.state)
        return response

    def state(
        self,
        game_id: str,
        seat: int = 0,
        spectator: bool = False,
        *,
        token: str | None = None,
        version: int | None = None,
    ) -> game_pb2.GameState:
        """The game as ``seat`` (or a spectator) may see it (at ``version``: as it
        was after that version)."""
        request = build_state_request(game_id, seat, spectator, version)
        metadata = self._metadata(token, game_id, seat, spectator)
        state: game_pb2.GameState = self._call(self._stub.GetState, request, metadata)
        self._remember(state)
        return state

    def legal(
        self, game_id: str, seat: int = 0, *, token: str | None = None
    ) -> game_pb2.LegalActionsResponse:
        """Every legal command of ``seat`` now."""
        request = build_legal_request(game_id, seat)
        response: game_pb2.LegalActionsResponse = self._call(
            self._stub.LegalActions, request, self._metadata(token, game_id, seat)
        )
        return response

    def history(
        self,
        game_id: str,
        seat: int = 0,
        spectator: bool = False,
        after_version: int = 0,
        *,
        token: str | None = None,
    ) -> Iterator[game_pb2.Event]:
        """The recorded events of a game, redacted for the caller."""
        request = build_history_request(game_id, seat, spectator, after_version)
        metadata = self._metadata(token, game_id, seat, spectator)
        return self._stream(
            self._stub.History(request, timeout=self.timeout, metadata=metadata)
        )

    def subscribe(
        self,
        game_id: str = "",
        after: int = 0,
        seat: int = 0,
        spectator: bool = True,
        *,
        token: str | None = None,
    ) -> Iterator[game_pb2.FeedMessage]:
        """Catch-up then live feed of one game (by version) or all games (by position).

        No deadline: a feed is meant to stay open; break out of the loop (or
        close the client) to stop it. Every game's feed needs the admin token.
        """
        request = build_subscribe_request(game_id, after, seat, spectator)
        metadata = self._metadata(token, game_id, seat, spectator)
        return self._stream(self._stub.Subscribe(request, metadata=metadata))

    def _stream(self, call: Any) -> Iterator[Any]:
        try:
            yield from call
        except grpc.RpcError as exc:
            raise ArbiterError.from_rpc_error(exc) from None
        finally:
            call.cancel()

    def audit(self, game_id: str, *, token: str | None = None) -> game_pb2.AuditResponse:
        """Re-verify a recorded game (hash chain, dice against the seed, replay).

        A finished game's audit needs no token; an unfinished one's does.
        """
        response: game_pb2.AuditResponse = self._call(
            self._stub.Audit,
            build_audit_request(game_id),
            self._metadata(token, game_id, spectator=True),
        )
        return response

    def list_games(
        self, rules: str = "", limit: int = 0, after: int = 0, *, token: str | None = None
    ) -> game_pb2.ListGamesResponse:
        """One page of the games in the store (``after`` = previous ``next_after``)."""
        request = build_list_games_request(rules, limit, after)
        response: game_pb2.ListGamesResponse = self._call(
            self._stub.ListGames, request, self._metadata(token)
        )
        return response

    def changed_games(
        self, after: int, limit: int = 100, *, token: str | None = None
    ) -> game_pb2.ListGamesResponse:
        """The games with events after global position ``after`` (admin): one page;
        ``next_after`` is the position covered."""
        request = game_pb2.ListGamesRequest(limit=limit, changed_after=after)
        response: game_pb2.ListGamesResponse = self._call(
            self._stub.ListGames, request, self._metadata(token)
        )
        return response

    def iter_games(
        self, rules: str = "", page: int = 100, *, token: str | None = None
    ) -> Iterator[game_pb2.GameSummary]:
        """Every game in the store, page by page."""
        after = 0
        while True:
            response = self.list_games(rules=rules, limit=page, after=after, token=token)
            yield from response.games
            if not response.games or response.next_after in (0, after):
                return
            after = response.next_after


class AsyncArbiterClient(_ClientState):
    """The asyncio twin of ``ArbiterClient`` (``async with AsyncArbiterClient() as c``).

    Same arguments, same token rules, same methods (as coroutines and async
    iterators).
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
        super().__init__(address, token, tls_ca, tls, timeout, retries)
        if creator_token is not None:
            self.creator_token = creator_token or None
        if channel is None:
            credentials = channel_credentials(self.tls_ca, self.tls)
            channel = (
                grpc.aio.secure_channel(self.address, credentials) if credentials
                else grpc.aio.insecure_channel(self.address)
            )
        self._channel = channel
        self._stub = game_pb2_grpc.GameServiceStub(self._channel)

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

    async def _call(self, method: Any, request: Any, metadata: Metadata) -> Any:
        """One unary call, retried as ``ArbiterClient._call`` retries it."""
        attempt = 0
        while True:
            try:
                return await method(request, timeout=self.timeout, metadata=metadata)
            except grpc.aio.AioRpcError as exc:
                error = ArbiterError.from_aio_error(exc)
            attempt += 1
            if attempt > self.retries or not retryable(error):
                raise error from None
            await asyncio.sleep(retry_pause(attempt))

    async def list_rules(self, *, token: str | None = None) -> list[game_pb2.RulesInfo]:
        """The games the server plays."""
        request = game_pb2.ListRulesRequest()
        response = await self._call(self._stub.ListRules, request, self._metadata(token))
        return list(response.rules)

    async def create_game(
        self,
        rules: str,
        seats: Sequence[str],
        options: Mapping[str, Any] | str | None = None,
        request_id: str = "",
        *,
        token: str | None = None,
        creator_token: str | None = None,
        entropy: Sequence[bytes] = (),
    ) -> game_pb2.CreateGameResponse:
        """Create a game of ``rules`` with the named seats; its tokens are remembered.
        ``creator_token`` and ``entropy`` as in ``ArbiterClient.create_game``."""
        request = build_create_request(
            rules, seats, options, request_id or new_request_id(), entropy
        )
        response: game_pb2.CreateGameResponse = await self._call(
            self._stub.CreateGame, request, self._creator_metadata(token, creator_token)
        )
        self._remember_created(response, rules)
        return response

    async def rules_of(self, game_id: str, *, token: str | None = None) -> str:
        """The rules id of a game (cached; asked of the server once)."""
        if game_id not in self._rules_of:
            self._remember(await self.state(game_id, spectator=True, token=token))
        return self._rules_of[game_id]

    async def act(
        self,
        game_id: str,
        seat: int,
        command: CommandLike,
        expected_version: int = 0,
        command_id: str = "",
        *,
        decision_id: str = "",
        token: str | None = None,
    ) -> game_pb2.ActResponse:
        """Send one move; retried with the same command id while ``retryable``.

        ``decision_id`` names the decision it answers (from ``legal().decisions``).
        """
        token = self.token_for(token, game_id, seat)
        typed = isinstance(command, game_pb2.Command)
        rules = "" if typed else await self.rules_of(game_id, token=token)
        request = build_act_request(
            rules, game_id, seat, command, expected_version, command_id, decision_id
        )
        metadata = auth_metadata(token)
        response: game_pb2.ActResponse = await self._call(self._stub.Act, request, metadata)
        self._remember(response.state)
        return response

    async def state(
        self,
        game_id: str,
        seat: int = 0,
        spectator: bool = False,
        *,
        token: str | None = None,
        version: int | None = None,
    ) -> game_pb2.GameState:
        """The game as ``seat`` (or a spectator) may see it (at ``version``: as it
        was after that version)."""
        request = build_state_request(game_id, seat, spectator, version)
        metadata = self._metadata(token, game_id, seat, spectator)
        state: game_pb2.GameState = await self._call(self._stub.GetState, request, metadata)
        self._remember(state)
        return state

    async def legal(
        self, game_id: str, seat: int = 0, *, token: str | None = None
    ) -> game_pb2.LegalActionsResponse:
        """Every legal command of ``seat`` now."""
        request = build_legal_request(game_id, seat)
        response: game_pb2.LegalActionsResponse = await self._call(
            self._stub.LegalActions, request, self._metadata(token, game_id, seat)
        )
        return response

    async def history(
        self,
        game_id: str,
        seat: int = 0,
        spectator: bool = False,
        after_version: int = 0,
        *,
        token: str | None = None,
    ) -> AsyncIterator[game_pb2.Event]:
        """The recorded events of a game, redacted for the caller."""
        request = build_history_request(game_id, seat, spectator, after_version)
        metadata = self._metadata(token, game_id, seat, spectator)
        call = self._stub.History(request, timeout=self.timeout, metadata=metadata)
        async for event in self._stream(call):
            yield event

    async def subscribe(
        self,
        game_id: str = "",
        after: int = 0,
        seat: int = 0,
        spectator: bool = True,
        *,
        token: str | None = None,
    ) -> AsyncIterator[game_pb2.FeedMessage]:
        """Catch-up then live feed of one game (by version) or all games (by position)."""
        request = build_subscribe_request(game_id, after, seat, spectator)
        metadata = self._metadata(token, game_id, seat, spectator)
        async for message in self._stream(self._stub.Subscribe(request, metadata=metadata)):
            yield message

    async def _stream(self, call: Any) -> AsyncIterator[Any]:
        try:
            async for item in call:
                yield item
        except grpc.aio.AioRpcError as exc:
            raise ArbiterError.from_aio_error(exc) from None
        finally:
            call.cancel()

    async def audit(self, game_id: str, *, token: str | None = None) -> game_pb2.AuditResponse:
        """Re-verify a recorded game (a finished game's audit needs no token)."""
        response: game_pb2.AuditResponse = await self._call(
            self._stub.Audit,
            build_audit_request(game_id),
            self._metadata(token, game_id, spectator=True),
        )
        return response

    async def list_games(
        self, rules: str = "", limit: int = 0, after: int = 0, *, token: str | None = None
    ) -> game_pb2.ListGamesResponse:
        """One page of the games in the store."""
        request = build_list_games_request(rules, limit, after)
        response: game_pb2.ListGamesResponse = await self._call(
            self._stub.ListGames, request, self._metadata(token)
        )
        return response


def _options_json(options: Mapping[str, Any] | str | None) -> str:
    """Options travel as JSON text; accept a dict, ready text, or nothing."""
    if options is None:
        return ""
    if isinstance(options, str):
        return options
    return json.dumps(dict(options), sort_keys=True)
