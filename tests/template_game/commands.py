"""The moves a seat can send: one frozen dataclass each, mirrored one to one by
``TemplateCommand`` in ``protos/arbiter/v1/template.proto`` (same names, same
fields in the same order; ``int`` travels as ``uint32``)."""

from __future__ import annotations

import dataclasses

from aggregates.kernel import Command, CommandSet


@dataclasses.dataclass(frozen=True)
class Bid(Command):
    """The Tide Bid: a secret bid of coins for each position the seat plays."""

    NAME = "bid"
    bids: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class Claim(Command):
    """Working the Shore: take a face-up card of the shore into the hand."""

    NAME = "claim"
    card: int


@dataclasses.dataclass(frozen=True)
class Bank(Command):
    """Working the Shore: put 1 or 2 cards of the hand face down in the team's vault."""

    NAME = "bank"
    cards: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class Dive(Command):
    """Working the Shore: pay a coin per card to draw 1..2 cards from the deck."""

    NAME = "dive"
    depth: int


@dataclasses.dataclass(frozen=True)
class PassPriority(Command):
    """Working the Shore: do nothing now (the round ends when all pass in a row)."""

    NAME = "pass_priority"


@dataclasses.dataclass(frozen=True)
class Snatch(Command):
    """Snatching: discard a card of the claimed card's suit and take it instead."""

    NAME = "snatch"
    card: int


@dataclasses.dataclass(frozen=True)
class LetGo(Command):
    """Snatching: let the claim stand."""

    NAME = "let_go"


COMMANDS = CommandSet(Bid, Claim, Bank, Dive, PassPriority, Snatch, LetGo)
