"""2. Working the Shore: from the top bidder on, each position in turn claims
a face-up card, banks cards face down in its team's vault, dives into the
deck, or passes; the round ends when every position has passed in a row.

Kernel features shown: priority passing (``flow.passing``/``priority``/
``after_action``/``after_pass``/``all_passed``, kept in the state as JSON);
``Move`` checks and runs routed by the ``Flow``; a triggered effect with a
usage limit (the kernel's ability engine: ``Book.triggered``, ``interpret``
with the game's verb ``gain_coins``); audiences from zones (``Zones.move_audience`` given to
``emit``); ``PickCards`` and ``Number`` choices.
"""

from __future__ import annotations

import itertools
from typing import Any

from aggregates.kernel import Command, Number, PickCards, PickOne, RuleError
from aggregates.kernel import zones as kzones
from aggregates.kernel.abilities import Step, interpret, usage_key
from tests.template_game import snatching
from tests.template_game.commands import Bank, Claim, Dive, PassPriority
from tests.template_game.components import COMPONENTS as C
from tests.template_game.reasons import TideReason
from tests.template_game.table import DECK, SHORE, hand, team_of_position, vault

MAX_BANK = 2


def max_depth(state: Any, position: int) -> int:
    return min(C.max_dive, state.coins[position], len(state.zones[DECK]))


# ------------------------------------------------------------------- claim


def check_claim(state: Any, position: int, command: Claim) -> None:
    if command.card not in state.zones[SHORE]:
        raise RuleError(TideReason.NOT_ON_SHORE, f"card {command.card} is not on the shore")


def run_claim(state: Any, position: int, command: Claim) -> None:
    card = C.card(command.card)
    state.emit("Claimed", position=position, card=card.id)
    # Effects as data: the Gull in the claimer's team vault pays a coin for a
    # pearl, once per round per team (its ``limit``), counted in ``state.used``.
    team = team_of_position(position)
    facts = {"suit": card.suit, "value": card.value, "position": position}
    scope = f"round{state.round}.team{team}"
    for ability in C.book.triggered("Claimed", facts, in_force=state.in_force(team),
                                    used=state.used, scope=scope):
        interpret(ability, VERBS, state, {**facts, "scope": scope, "ability": ability.name})
    snatching.open_window(state, position, card.id)


def gain_coins(state: Any, facts: Any, step: Step, who: list[str]) -> None:
    """The verb ``gain_coins``: what the change means is the game's rule."""
    amount, position = int(step.params["amount"]), facts["position"]
    gained = amount if step.verb == "gain_coins" else 0  # as ``Template._effect_used``
    totals = [c + (gained if p == position else 0) for p, c in enumerate(state.coins)]
    state.emit("EffectUsed", effect=facts["ability"], position=position, change=step.verb,
               amount=amount, usage=usage_key(facts["ability"], facts["scope"]), totals=totals)


VERBS = {"gain_coins": gain_coins}


def legal_claims(state: Any, position: int) -> list[Command]:
    return [Claim(c) for c in state.zones[SHORE]]


# -------------------------------------------------------------------- bank


def check_bank(state: Any, position: int, command: Bank) -> None:
    held = state.zones[hand(position)]
    if not 1 <= len(command.cards) <= MAX_BANK or len(set(command.cards)) != len(command.cards):
        raise RuleError(TideReason.BANK_SIZE, f"bank 1 to {MAX_BANK} different cards")
    missing = [c for c in command.cards if c not in held]
    if missing:
        raise RuleError(TideReason.NOT_IN_HAND, f"card {missing[0]} is not in your hand")


def run_bank(state: Any, position: int, command: Bank) -> None:
    source, target = hand(position), vault(team_of_position(position))
    # The audience is decided here, from the zones: the hand's and the vault's
    # readers (the team); the others learn how many cards went in.
    state.emit("Banked", audience=state.table_zones().move_audience(source, target),
               public={"position": position, "count": len(command.cards)},
               position=position, cards=sorted(command.cards), vault=target)


def legal_banks(state: Any, position: int) -> list[Command]:
    held = sorted(state.zones[hand(position)])
    return [Bank(combo) for k in range(1, MAX_BANK + 1)
            for combo in itertools.combinations(held, k)]


# -------------------------------------------------------------------- dive


def check_dive(state: Any, position: int, command: Dive) -> None:
    deepest = max_depth(state, position)
    if not 1 <= command.depth <= deepest:
        raise RuleError(TideReason.TOO_DEEP, f"you can dive 1 to {deepest} cards deep now")


def run_dive(state: Any, position: int, command: Dive) -> None:
    # Audience and public form from ``Template.audience_of``/``public_form``.
    totals = [c - (command.depth if p == position else 0) for p, c in enumerate(state.coins)]
    state.emit("Dived", position=position, depth=command.depth,
               cards=kzones.draw(state.zones[DECK], command.depth), totals=totals)


def legal_dives(state: Any, position: int) -> list[Command]:
    return [Dive(d) for d in range(1, max_depth(state, position) + 1)]


# -------------------------------------------------------------------- pass


def check_pass(state: Any, position: int, command: PassPriority) -> None:
    """Passing is always allowed while holding priority."""


def run_pass(state: Any, position: int, command: PassPriority) -> None:
    state.emit("Passed", position=position)


def legal_pass(state: Any, position: int) -> list[Command]:
    return [PassPriority()]


def choices(state: Any, position: int) -> list[Any]:
    """One of the list, or built: k cards of the hand to bank, a dive depth."""
    held = sorted(state.zones[hand(position)])
    out: list[Any] = [PickOne("claim a shore card, or pass")]
    if held:
        out.append(PickCards("bank", "cards", tuple(held), 1, min(MAX_BANK, len(held)),
                             zone=hand(position), prompt="cards to bank in your vault"))
    deepest = max_depth(state, position)
    if deepest:
        out.append(Number("dive", "depth", 1, deepest, prompt="cards to dive for (a coin each)"))
    return out
