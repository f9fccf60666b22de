"""Domain events into the wire envelope, redacted for whoever is reading.

One function decides what a reader sees of an event, and the gRPC replies,
the History and Subscribe streams and the Redis feed all go through it, so
there is one place to get visibility right.
"""

from __future__ import annotations

import collections
import dataclasses
import datetime
import json
import logging
import threading
from collections.abc import Sequence
from typing import Any

import orjson
from arbiter.v1 import game_pb2
from google.protobuf.timestamp_pb2 import Timestamp

from aggregates.kernel import Game, payload_of, recorded_audience
from aggregates.kernel.game import ENTROPY_EVENT
from aggregates.kernel.record.upcast import current_type as event_type  # an old type: its new one
from service.ids import shard_of

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class Reader:
    """Who reads: a seat, a spectator (``seat is None``), or someone who sees all.

    ``full`` is for the admin credential, and for everyone once the game is over.
    ``over``: the game is over, so the seed is revealed. Until then nobody reads
    the seed, the admin included: the admin sees hidden cards, not future dice
    (a seed read mid-game would tell every die still to come).
    """

    seat: int | None = None
    full: bool = False
    over: bool = False

    def for_game(self, game_over: bool) -> Reader:
        return Reader(self.seat, self.full or game_over, self.over or game_over)


SPECTATOR = Reader()

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)


def timestamp_of(when: datetime.datetime) -> Timestamp:
    """``when`` as a protobuf ``Timestamp``, to the microsecond, as
    ``Timestamp.FromDatetime`` makes it (a naive time read as UTC) in a third of
    its time: that one converts through ``calendar.timegm`` and a time tuple,
    a twelfth of an ``Act``'s own time in its events' envelopes."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.UTC)
    since = when - EPOCH
    return Timestamp(seconds=since.days * 86400 + since.seconds,
                     nanos=since.microseconds * 1000)


def visible_payload(
    game_cls: type[Game], domain_event: Any, reader: Reader
) -> tuple[dict[str, Any], bool, Any]:
    """The payload ``reader`` may see, whether it was redacted, and the audience."""
    kind = event_type(domain_event)
    payload = payload_of(domain_event)
    # Decided when the event was triggered and recorded in its meta (games
    # recorded before Kernel 2 are upcast from the class-level rules).
    audience, public = recorded_audience(game_cls, kind, payload, domain_event.meta)
    return visible_form(kind, payload, audience, public, reader)


def visible_form(kind: str, payload: dict[str, Any], audience: Any, public: Any,
             reader: Reader) -> tuple[dict[str, Any], bool, Any]:
    """``visible_payload``'s answer from the event's read parts."""
    if kind == "Created" and reader.full and not reader.over:
        # The full record before the end: all of it but the seed (see Reader).
        return {k: v for k, v in payload.items() if k != "seed"}, True, audience
    if reader.full or audience.includes(reader.seat):
        return payload, False, audience
    return public, True, audience


def to_proto(
    game_cls: type[Game], domain_event: Any, reader: Reader, position: int = 0,
    seats: Sequence[str] = (),
) -> game_pb2.Event:
    return _to_proto(game_cls, domain_event, reader, position, seats,
                     visible_payload(game_cls, domain_event, reader))


def _to_proto(game_cls: type[Game], domain_event: Any, reader: Reader, position: int,
              seats: Sequence[str], visible: tuple[dict[str, Any], bool, Any]) -> game_pb2.Event:
    """``to_proto`` of what ``reader`` sees of the event (``visible_payload``'s answer)."""
    payload, redacted, audience = visible
    return game_pb2.Event(
        game_id=str(domain_event.originator_id),
        version=domain_event.originator_version,
        position=position,
        type=event_type(domain_event),
        time=timestamp_of(domain_event.timestamp),
        audience=game_pb2.Audience(
            everyone=audience.everyone, seats=sorted(audience.seats or ())
        ),
        payload_json=dumps(payload),
        digest=domain_event.meta.get("digest", ""),
        prev_digest=domain_event.meta.get("prev", ""),
        redacted=redacted,
        rules=game_cls.RULES_ID,
        command_id=(domain_event.meta.get("cmd") or {}).get("id", ""),
        meta_json=dumps(domain_event.meta) if reader.full else "",
        text=describe(game_cls, event_type(domain_event), payload, list(seats)),
        shard=shard_of(domain_event.originator_id),
    )


#: Encoded forms of events kept (``EventForms``): a few per recent event of
#: the games played now.
FORMS_KEPT = 4096


class EventForms:
    """Each event's envelope made once per form, for every reader of that form.

    A move's events used to be encoded for each reader apart: the mover's
    reply, then every seat's and spectator's feed, each its own ``dumps`` of
    the payload, its own sentence and its own message, though most readers
    see the same form (a public event is one form for all; a private one has
    two: its audience's and the public's). The form is what ``visible_payload``
    decides for the reader (its audience included or not, the full record, the
    game over), so every reader of one form gets the very same message
    (callers never change one: they copy it into their own replies).
    """

    def __init__(self, kept: int = FORMS_KEPT) -> None:
        self.kept = kept
        self._guard = threading.Lock()
        #: Each form's message, and its wire bytes once asked for (``encoded``).
        self._forms: collections.OrderedDict[tuple[Any, ...], list[Any]] = (
            collections.OrderedDict())

    def of(self, game_cls: type[Game], domain_event: Any, reader: Reader, position: int = 0,
           seats: Sequence[str] = ()) -> game_pb2.Event:
        """``to_proto``'s message, made once per form (see the class)."""
        return self._kept(game_cls, domain_event, reader, position, seats)[0]  # type: ignore[no-any-return]

    def encoded(self, game_cls: type[Game], domain_event: Any, reader: Reader,
                position: int = 0, seats: Sequence[str] = ()) -> tuple[game_pb2.Event, bytes]:
        """``of``'s message and its wire bytes, serialized once per form: a
        ``Play`` stream's push is put together from its parts' bytes
        (``service.play.Push``), not copied into a message and encoded again."""
        kept = self._kept(game_cls, domain_event, reader, position, seats)
        if kept[1] is None:
            kept[1] = kept[0].SerializeToString()  # the same bytes, whoever wins a race
        return kept[0], kept[1]

    def _kept(self, game_cls: type[Game], domain_event: Any, reader: Reader, position: int,
              seats: Sequence[str],
              visible: tuple[dict[str, Any], bool, Any] | None = None) -> list[Any]:
        """The form's message (and its bytes once asked) for ``reader``;
        ``visible``: ``visible_payload``'s answer for it, when read already."""
        if visible is None:
            visible = visible_payload(game_cls, domain_event, reader)
        key = (domain_event.originator_id, domain_event.originator_version, position,
               visible[1], reader.full, reader.over, tuple(seats))
        with self._guard:
            kept = self._forms.get(key)
            if kept is not None:
                return kept
        kept = [_to_proto(game_cls, domain_event, reader, position, seats, visible), None]
        with self._guard:
            kept = self._forms.setdefault(key, kept)
            while len(self._forms) > self.kept:
                self._forms.popitem(last=False)
        return kept


def to_public_json(game_cls: type[Game], domain_event: Any, position: int) -> str:
    """The message published on Redis: the public form, nothing private."""
    payload, redacted, audience = visible_payload(game_cls, domain_event, SPECTATOR)
    return dumps(
        {
            "game_id": str(domain_event.originator_id),
            "version": domain_event.originator_version,
            "position": position,
            "type": event_type(domain_event),
            "time": domain_event.timestamp.isoformat(),
            "audience": "everyone" if audience.everyone else sorted(audience.seats or ()),
            "payload": payload,
            "redacted": redacted,
            "digest": domain_event.meta.get("digest", ""),
            "prev_digest": domain_event.meta.get("prev", ""),
            "rules": game_cls.RULES_ID,
        }
    )


#: The standard library's encoder, for what ``orjson`` will not write (an
#: integer beyond 64 bits): built once (``json.dumps`` with options builds one per call).
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=str)
#: Keys sorted, any key type (an int key written as its text, as ``json``
#: does), and dataclasses and datetimes handed to ``default`` (their text) as
#: the standard library's encoder does, not written as objects of their own.
_ORJSON = (orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS
           | orjson.OPT_PASSTHROUGH_DATETIME)


def dumps(value: Any) -> str:
    """Compact JSON with sorted keys, anything else as its text.

    Every reply's state (view, screen, choices), event payload and feed
    message is written here, about seven times faster by ``orjson`` than by
    the standard library (issue 20). The JSON means the same either way; its
    text differs only where JSON allows it to: characters beyond ASCII
    written as themselves, not escaped; keys that are numbers ordered as text.
    """
    try:
        return orjson.dumps(value, default=str, option=_ORJSON).decode()
    except TypeError:  # orjson.JSONEncodeError: an integer beyond 64 bits, say
        return _ENCODER.encode(value)


def describe(game_cls: type[Game], kind: str, payload: dict[str, Any], seats: list[str]) -> str:
    """The game's sentence for an event; a game's wording bug never fails a read."""
    try:
        if kind == ENTROPY_EVENT:  # the kernel's own event, told alike in every game
            return Game.describe(kind, payload, seats)
        return game_cls.describe(kind, payload, seats)
    except Exception:  # noqa: BLE001 - the envelope still carries the payload
        log.exception("%s.describe failed for %s", game_cls.__name__, kind)
        return kind
