"""A hosted bot's level and budget (``service.hostedbots``), and the server's
bound on its thinking (``ARBITER_BOT_BUDGET_SECONDS``)."""

from __future__ import annotations

import pytest

from clients.bots import GreedyBot
from service.config import Settings, bot_budget_seconds
from service.hostedbots import BotLevel, LevelError, SeatBots, bot_level


def test_a_level_and_budget_are_checked_against_the_servers() -> None:
    assert bot_level("", 0.0, 0.2) == BotLevel("random", 0.2)  # nothing asked: the defaults
    assert bot_level("greedy", 0.05, 0.2) == BotLevel("greedy", 0.05)
    for level, budget, reason in (("wizard", 0.1, "BAD_LEVEL"), ("ISMCTS", 0.1, "BAD_LEVEL"),
                                  ("ismcts", 0.3, "BAD_BUDGET"), ("greedy", -0.1, "BAD_BUDGET"),
                                  ("greedy", float("nan"), "BAD_BUDGET"),
                                  ("greedy", float("inf"), "BAD_BUDGET")):
        with pytest.raises(LevelError) as caught:
            bot_level(level, budget, 0.2)
        assert caught.value.reason == reason, (level, budget)


def test_a_seats_bot_thinks_no_longer_than_the_servers_bound() -> None:
    """A seat recorded with a budget a later, lower bound forbids thinks to
    the bound (a table's seats outlive a restart with other settings)."""
    bots = SeatBots("g", most=0.05)
    bots.take(1, BotLevel("greedy", 0.2))
    bot = bots.seats[1].bot
    assert isinstance(bot, GreedyBot) and bot.budget == 0.05
    bots.take(1, BotLevel("ismcts", 0.01))  # a seat taken is kept
    assert bots.seats[1].level == "greedy"


def test_the_bound_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARBITER_BOT_BUDGET_SECONDS", raising=False)
    assert bot_budget_seconds() == Settings.bot_budget_seconds == 0.2
    monkeypatch.setenv("ARBITER_BOT_BUDGET_SECONDS", "0.5")
    assert Settings.from_env().bot_budget_seconds == 0.5
    monkeypatch.setenv("ARBITER_BOT_BUDGET_SECONDS", "0")
    with pytest.raises(ValueError, match="ARBITER_BOT_BUDGET_SECONDS"):
        bot_budget_seconds()
