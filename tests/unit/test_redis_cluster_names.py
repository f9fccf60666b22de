"""The names and commands of feeds on a Redis Cluster (issue 22, item 1):
what every server must compute alike, checked without a cluster."""

from __future__ import annotations

import pytest
import redis
from redis.crc import key_slot

from service.config import ConfigError, Settings
from service.logs import redact_url
from service.rediscluster import (
    ShardedListening,
    cluster_seeds,
    shard_all_games_channel,
    shard_tag,
    spublish_command,
)


def test_spublish_is_packed_as_redis_py_packs_it() -> None:
    """One write of many commands: each exactly the RESP redis-py itself sends."""
    channel, message = b"p:game:\xc3\xa9", b'{"game_id":"g","version":3}'
    packed = b"".join(redis.Connection().pack_command("SPUBLISH", channel, message))
    assert spublish_command(channel, message) == packed


@pytest.mark.parametrize("slots", [range(0, 5461), range(5461, 10923), range(10923, 16384),
                                   [7], [16383, 0], range(100, 140)])
def test_a_shards_all_games_channel_is_the_smallest_tag_on_its_slots(slots: range) -> None:
    """Every server reading the same slots map names the same channel, on that shard."""
    tag = shard_tag(slots)
    assert key_slot(tag.encode()) in set(slots)
    assert all(key_slot(str(t).encode()) not in set(slots) for t in range(int(tag)))
    channel = shard_all_games_channel("arbiter:ab12:", tag)
    assert channel == f"arbiter:ab12:games:{{{tag}}}"
    assert key_slot(channel.encode()) == key_slot(tag.encode()), "the hash tag picks the slot"


def test_redis_url_names_one_node_or_several() -> None:
    assert cluster_seeds("redis://a:7000") == ["redis://a:7000"]
    assert cluster_seeds(" redis://a:7000, redis://b:7001 ,") == [
        "redis://a:7000", "redis://b:7001"]
    with pytest.raises(ValueError, match="names no Redis Cluster node"):
        cluster_seeds(" , ")


def test_the_cluster_setting_is_refused_unless_it_can_be_used(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("ARBITER_REDIS_CLUSTER", "1")
    with pytest.raises(ConfigError, match="needs REDIS_URL"):
        Settings.from_env()
    monkeypatch.setenv("ARBITER_REDIS_CLUSTER", "yes")
    with pytest.raises(ConfigError, match="must be 1 or 0"):
        Settings.from_env()
    monkeypatch.setenv("REDIS_URL", "redis://a:7000,redis://b:7001")
    monkeypatch.setenv("ARBITER_REDIS_CLUSTER", "1")
    assert Settings.from_env().redis_cluster
    monkeypatch.delenv("ARBITER_REDIS_CLUSTER")
    assert not Settings.from_env().redis_cluster, "a single Redis stays the default"


def test_every_node_url_of_a_cluster_is_redacted_in_logs() -> None:
    text = redact_url("redis://:one@a:7000/0,rediss://user:two@b:7001/0")
    assert "one" not in text and "two" not in text
    assert text.count("***") == 2 and "a:7000" in text and "b:7001" in text


class _PubSub:
    """A node's pub/sub connection that has these replies buffered."""

    def __init__(self, replies: list[dict[str, object]]) -> None:
        self.replies = replies
        self.connection = None
        self.sent: list[str] = []

    def get_message(self, timeout: float = 0) -> dict[str, object] | None:
        return self.replies.pop(0) if self.replies else None

    def sunsubscribe(self, channel: str) -> None:
        self.sent.append(channel)


def listening(replies: list[dict[str, object]]) -> tuple[ShardedListening, _PubSub]:
    hub = object.__new__(ShardedListening)
    pubsub = _PubSub(replies)
    hub.pubsubs = {"node": pubsub}  # type: ignore[dict-item]
    hub._where = {"p:game:g": "node"}
    hub._leaving = {}
    return hub, pubsub


def test_the_hubs_own_sunsubscribe_is_no_move_even_if_followed_again() -> None:
    """A stream leaves a game and another follows it before Redis confirms the
    leave: that confirmation is the hub's own, not the cluster moving the
    channel (which would make every feed of the process reconnect)."""
    leave = {"type": "sunsubscribe", "channel": b"p:game:g", "data": 0}
    hub, pubsub = listening([leave])
    hub.unsubscribe(["p:game:g"])
    hub._where["p:game:g"] = "node"  # followed again, its SSUBSCRIBE sent
    assert list(hub.messages()) == [] and pubsub.sent == ["p:game:g"]


def test_a_sunsubscribe_nobody_asked_for_means_the_channel_moved() -> None:
    moved = {"type": "sunsubscribe", "channel": b"p:game:g", "data": 0}
    hub, _ = listening([moved])
    with pytest.raises(redis.ConnectionError, match="moved the channel"):
        list(hub.messages())
