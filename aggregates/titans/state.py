"""What the rules modules may read and do: the Titans state, as a Protocol;
and the decisions a seat can be asked (each a ``Decision.kind``, a step of
the flow: ``flow.py`` lists the moves that answer it), with their prompts.

The rules modules (``setup``, ``order_pool``, ``movement``, ``deployment``,
``purchase``, ``battles``, ``support``, ``objectives``, ``turns``,
``scoring``, ``reinforcements``) decide on the state they are given: they
check a command, roll what must be rolled (``roll``, ``shuffled``) and record
what happened with ``emit``; the aggregate's ``@event`` bodies change the
state. They never import the aggregate class, which imports them.

Everything is plain JSON, so snapshots and replays carry it:

- ``armies``: region -> ``{"nation": seat, "units": {unit type: count}}``
  (one Nation per region; attackers wait on the border, in ``turn["battles"]``);
- ``control``: region -> the seat controlling it (units, a Control Token or
  its Capitol); ``capitols``: region -> ``{"owner": seat, "damaged": bool}``;
- ``reserve``: per seat, the units on its Nation Board; ``titan``: per seat,
  ``"map"``, ``"standing"`` or ``"lying"`` (on the Nation Board);
- the decks, rows, hands and discards of cards (``zones.py`` says who sees
  which), the Victory Points and the game's counters;
- ``turn``: the Active Player's turn (its Order, the actions left, its step,
  the Battles instigated); ``battle``: the Battle being resolved;
  ``reinforcing``: the Reinforcements at the end of a Round; ``opening`` and
  ``draft``: the simultaneous choices of the Game Setup;
- ``earlier``: the rules of an earlier version this game is played by (the
  ``EARLIER_*`` below), read off the version its creation event records, so a
  game recorded by an earlier version plays on, re-executes and replays as it
  was recorded, whichever class loaded it (docs/rules-versions.md); a game of
  the current rules keeps none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from aggregates.kernel import Audience

#: Rules 1.0.0 recorded no ``TurnBegan`` for a Round's first turn: drawing the
#: Order Pool began the Starting Player's turn.
EARLIER_FIRST_TURN = "a Round's first turn begins with the Order Pool drawn"
#: Rules 1.0.0 and 1.1.0 recorded the Secret Objective draft's pacing as events
#: of their own: ``DraftPassed`` once every player had passed his cards (the
#: next pick begins) and ``DraftEnded`` once every player had kept his last.
#: 1.2.0 records only the players' facts (``ObjectivesPassed``,
#: ``ObjectiveKept``), whose apply moves the draft on when the last player's is in.
EARLIER_DRAFT_PACE = "the Objective draft's next pick and its end recorded as events"
#: Rules 1.2.0 and before recorded a turn's Support step passed for want of a
#: card (the deck, its discards and the row empty) as ``SupportUnavailable``;
#: 1.3.0 passes it in the apply of the fact that enters it (``turns.py``).
EARLIER_SUPPORT_UNAVAILABLE = "a Support step with nothing to draw recorded as an event"


class State(Protocol):
    """The Titans aggregate as the rules see it (``game.Titans`` implements it)."""

    seats: list[str]
    rules_version: str
    nations: list[str]
    setup_key: str
    variant: str
    rounds: int
    inactive: list[str]
    round: int
    start_player: int
    current: int
    armies: dict[str, dict[str, Any]]
    control: dict[str, int]
    capitols: dict[str, dict[str, Any]]
    strongholds: list[str]
    strongholds_left: int
    reserve: list[dict[str, int]]
    titan: list[str]
    vp: list[int]
    region_vp: list[int]
    battles_won: list[int]
    destroyed: list[int]
    order_deck: list[int]
    order_pool: list[int]
    upcoming: list[int]
    order_discard: list[int]
    support_deck: list[int]
    support_row: list[int]
    support_discard: list[int]
    hands: list[list[int]]
    nation_decks: list[list[int]]
    nation_cards: list[list[int]]
    rotated: list[list[int]]
    objective_deck: list[int]
    objectives: list[list[int]]
    accomplished: list[list[int]]
    opening: dict[str, Any] | None
    draft: dict[str, Any] | None
    turn: dict[str, Any] | None
    battle: dict[str, Any] | None
    reinforcing: dict[str, Any] | None
    over: bool
    ended: bool
    outcome: dict[str, Any] | None

    @property
    def earlier(self) -> frozenset[str]: ...

    def emit(self, event_name: str, *, audience: Audience | None = None,
             public: Mapping[str, Any] | None = None, **payload: Any) -> None: ...

    def roll(self, sides: int) -> int: ...

    def shuffled(self, items: list[Any]) -> list[Any]: ...


# ------------------------------------------------------------ the decisions

OPENING = "opening_purchase"     # Game Setup 6: buy a first Nation Card (all at once, hidden)
DRAFT = "objective_draft"        # Game Setup 7: keep 1 Secret Objective of those held
ORDER = "order"                  # A) Order Phase: choose an Order Card from the Pool
ACTIONS = "order_actions"        # A) the chosen Order's actions, in any order, or end
BATTLE_ORDER = "battle_order"    # B) several Battles: the Active Player picks the next
BATTLE_STAGE = "battle_stage"    # B) 2)/3) a Battle Stage: support, re-rolls, abilities
REROLL = "reroll"                # B) a Support Card was discarded: the dice to re-roll
REACTION = "battle_reaction"     # B) a Unit moved into the Battle: a [1 / Battle] card now
DESTROY = "destroy_units"        # B) 4) A. the loser chooses the Units destroyed
WITHDRAW = "withdraw"            # B) 4) B. the defeated Defender's one region to withdraw to
SUPPORT = "draw_support"         # C) Draw 1 Support Card: face up or from the Deck
DISCARD = "discard_support"      # D) Clean-Up: discard down to the hand limit
TITAN = "deploy_titan"           # D) Clean-Up: the standing Titan onto a controlled Region
FIRST = "first_reinforcement"    # End of the Round 3: Support Cards or Secret Objectives
KEEP = "keep_objective"          # End of the Round 3: keep 1 of the 2 Objectives drawn
SECOND = "second_reinforcement"  # End of the Round 3: a Nation Card, or a Unit

#: Each decision's prompt, in the rulebook's words (never a command's id).
PROMPTS = {
    OPENING: "Game Setup: purchase 1 of your top 3 Nation Cards, or none; you may put one "
             "of the others at the bottom of your Nation Deck",
    DRAFT: "Game Setup: keep 1 of the Secret Objective Cards you hold; the rest pass to the "
           "player on your right",
    ORDER: "Order Phase: choose 1 Order Card from the Pool",
    ACTIONS: "Order Phase: use the Order Card's Actions in any order (Movement, Unit "
             "Deployment, Purchasing a Nation Card, Stronghold Construction), or end the "
             "Order Phase",
    BATTLE_ORDER: "Resolving Battles: choose the Battle to resolve next",
    BATTLE_STAGE: "Battle Stage: play or discard Support Cards, use Nation Cards and "
                  "abilities, or end your Battle Stage",
    REROLL: "Battle: choose the dice of your pool to re-roll",
    REACTION: "Battle: a Unit joined the Battle; you may use a Nation Card marked 1 / Battle "
              "whose requirement is now met, or not",
    DESTROY: "Battle Outcome: choose the Units you lose",
    WITHDRAW: "Battle Outcome: choose the one Region your Units withdraw to",
    SUPPORT: "Draw 1 Support Card: one of the 4 face up, or the top of the Deck",
    DISCARD: "Clean-Up: discard down to your Support Card Hand Limit",
    TITAN: "Clean-Up: deploy your Titan onto a Region you control",
    FIRST: "1st Reinforcement: get 2 Support Cards, or draw 2 Secret Objective Cards and "
           "keep 1",
    KEEP: "1st Reinforcement: keep 1 of the 2 Secret Objective Cards; the other goes to the "
          "bottom of the Deck",
    SECOND: "2nd Reinforcement: purchase a Nation Card, or discard 1 Support Card and add "
            "1 Unit to a Region you control",
}
