"""What a seat sees of Titans: the map, the Pools, the face-up cards and every
Nation's public side are everyone's; a Support hand, the Secret Objectives held
and the top 3 of a Nation Deck are their owner's (the others see counts); a
face-down deck is a count. A spectator (``seat=None``) sees no hand.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, Literal, NotRequired, TypedDict, cast

from aggregates.kernel import Seating
from aggregates.kernel.flow import current_phase
from aggregates.kernel.keywords import Keywords
from aggregates.kernel.unseen import Unseen, kind_of
from aggregates.titans import abilities, battles, regions, reinforcements, turns, zones
from aggregates.titans.data import BOARD, NATIONS, UNITS
from aggregates.titans.events import Outcome, Side, Troop
from aggregates.titans.state import State

#: Units by type (the keys: ``data.UNITS``).
Units = dict[Annotated[str, Keywords(enum=list(UNITS))], Annotated[int, Keywords(minimum=0)]]
#: A region of the map (its key: ``data.BOARD``'s regions).
Region = Annotated[str, Keywords(enum=list(BOARD.regions))]
#: A side of a Battle, or none.
Role = Literal[None, "attacker", "defender"]


class Nation(TypedDict):
    """A seat's Nation as everyone sees it: its VP and regions, its Nation Board's
    reserve and Titan, its Nation Cards (`rotated`: used this Round) and the
    Objectives it `accomplished`; its hand, Objectives and Nation Deck counted."""

    seat: int
    nation: str
    name: str
    vp: int
    regions: int
    hand_limit: int
    reserve: Units
    titan: str
    nation_cards: list[int]
    rotated: list[int]
    accomplished: list[int]
    hand_count: int
    objective_count: int
    nation_deck_count: int
    battles_won: int
    units_destroyed: int
    control_tokens_left: int


class Capitol(TypedDict):
    """A Capitol: its `owner` (seat) and whether it is `damaged`."""

    owner: int
    damaged: bool


class MapRegion(TypedDict):
    """A region in play: the `nation` (seat) whose units stand there, the units,
    who controls it, its Stronghold and its Capitol."""

    nation: int | None
    units: Units
    control: int | None
    stronghold: bool
    capitol: Capitol | None


class PlannedBattle(TypedDict):
    """A Battle the Active Player's moves started, still to be fought."""

    region: str
    defender: int
    fortified: bool
    troops: list[Troop]


class Turn(TypedDict):
    """The Active Player's turn: its Order Card, the actions left, its step, whether
    its Objective is done, the Battles still to fight."""

    seat: int
    order: int | None
    actions: list[str]
    step: str
    objective_done: bool
    battles: list[PlannedBattle]


class BattleSide(Side):
    """One side of the Battle under way, and its `strength` now."""

    strength: int


class Sides(TypedDict):
    """The Battle's two sides."""

    attacker: BattleSide
    defender: BattleSide


class BattleResult(TypedDict):
    """The Battle won: the winner and loser, the `difference` and the `effective`
    one, the units the loser must `destroy` and those `destroyed`, and whether a
    Titan fell and the loser withdrew."""

    winner: int
    loser: int
    winner_role: str
    difference: int
    effective: int
    destroy: int
    destroyed: list[Troop]
    destroy_done: bool
    titan: bool
    withdrawn: bool


class Battle(TypedDict):
    """The Battle under way: its region and Battle Stage order, whose stage it is,
    who may reroll or react, and, once fought, its result."""

    region: str
    fortified: bool
    order: list[str]
    reroll: Role
    reaction: Role
    stage: Role
    result: BattleResult | None
    sides: Sides


class Reinforcing(TypedDict):
    """The Reinforcements at the end of a Round: the seats' order, the seat
    reinforcing and what it is asked (`stage`)."""

    order: list[int]
    seat: int
    stage: str


class Draft(TypedDict):
    """The Objectives' draft: the `pick` and the cards `kept`."""

    pick: int
    kept: list[int]


class OpeningChoice(TypedDict):
    """The reader's Opening Purchase, chosen and not yet revealed."""

    card: int | None
    pay: list[int]
    bottom: int


class View(TypedDict):
    """A seat's view of a game of Titans (a spectator's leaves out what is hidden
    from it): GameState.view_json."""

    phase: str
    setup: str
    variant: str
    round: int
    rounds: int
    start_player: int
    current: int
    nations: list[Nation]
    map: dict[Region, MapRegion]
    inactive: list[str]
    strongholds_left: int
    order_pool: list[int]
    upcoming: list[int]
    order_deck_count: int
    order_discard: list[int]
    support_row: list[int]
    support_deck_count: int
    support_discard: list[int]
    objective_deck_count: int
    turn: Turn | None
    battle: Battle | None
    reinforcing: Reinforcing | None
    opening_chosen: list[int] | None
    draft: Draft | None
    outcome: Outcome | None
    seat: NotRequired[int]
    hand: NotRequired[list[int]]
    objectives: NotRequired[list[int]]
    choosing_objectives: NotRequired[list[int]]
    nation_deck_top: NotRequired[list[int]]
    opening_choice: NotRequired[OpeningChoice]


def public_battle(game: State) -> Battle | None:
    battle = game.battle
    if battle is None:
        return None

    def side(role: str) -> BattleSide:
        found = battle["sides"][role]
        return cast(BattleSide, {**found, "strength": battles.strength(found)})

    return {"region": battle["region"], "fortified": battle["fortified"],
            "order": battle["order"], "reroll": battle["reroll"],
            "reaction": battle["reaction"],
            "stage": cast(Role, battles.stage_role(battle)),
            "result": cast(BattleResult, dict(battle["result"])) if battle.get("result") else None,
            "sides": Sides(attacker=side("attacker"), defender=side("defender"))}


def view(game: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees, built as its declaration (``View``) says."""
    players = len(game.seats)
    table = zones.zones(game, Seating.one_each(players))
    reader = seat if seat is not None and 0 <= seat < players else None
    turn = game.turn
    out: View = {
        "phase": cast(str, current_phase(game)),
        "setup": game.setup_key, "variant": game.variant,
        "round": game.round, "rounds": game.rounds,
        "start_player": game.start_player, "current": game.current,
        "nations": [{
            "seat": s, "nation": game.nations[s], "name": NATIONS[game.nations[s]].name,
            "vp": game.vp[s], "regions": len(regions.controlled(game, s)),
            "hand_limit": abilities.hand_limit(game, s), "reserve": dict(game.reserve[s]),
            "titan": game.titan[s], "nation_cards": list(game.nation_cards[s]),
            "rotated": list(game.rotated[s]), "accomplished": list(game.accomplished[s]),
            "hand_count": table.count_seen_by(f"hand:{s}", reader),
            "objective_count": table.count_seen_by(f"objectives:{s}", reader),
            "nation_deck_count": table.count_seen_by(f"nation_deck:{s}", reader),
            "battles_won": game.battles_won[s], "units_destroyed": game.destroyed[s],
            "control_tokens_left": regions.tokens_left(game, s),
        } for s in range(players)],
        "map": {r: {"nation": game.armies[r]["nation"] if r in game.armies else None,
                    "units": dict(game.armies[r]["units"]) if r in game.armies else {},
                    "control": game.control.get(r),
                    "stronghold": r in game.strongholds,
                    "capitol": cast(Capitol, dict(game.capitols[r]))
                    if r in game.capitols else None}
                for r in BOARD.active(game.inactive)},
        "inactive": list(game.inactive),
        "strongholds_left": game.strongholds_left,
        "order_pool": list(game.order_pool), "upcoming": list(game.upcoming),
        "order_deck_count": len(game.order_deck), "order_discard": list(game.order_discard),
        "support_row": list(game.support_row), "support_deck_count": len(game.support_deck),
        "support_discard": list(game.support_discard),
        "objective_deck_count": len(game.objective_deck),
        "turn": None if turn is None else {
            "seat": turn["seat"], "order": turn["order"], "actions": list(turn["actions"]),
            "step": cast(str, turns.step(game)), "objective_done": turn["objective"],
            "battles": [{"region": b["region"], "defender": b["defender"],
                         "fortified": b["fortified"], "troops": list(b["troops"])}
                        for b in turn["battles"]]},
        "battle": public_battle(game),
        "reinforcing": None if game.reinforcing is None else {
            "order": list(game.reinforcing["order"]),
            "seat": cast(int, reinforcements.reinforcing_seat(game)),
            "stage": cast(str, reinforcements.stage(game))},
        "opening_chosen": (sorted(int(s) for s in game.opening["chosen"])
                           if game.opening is not None else None),
        "draft": None if game.draft is None else {
            "pick": game.draft["pick"], "kept": list(game.draft["kept"])},
        "outcome": cast(Outcome, game.outcome) if game.ended else None,
    }
    if reader is not None:
        out["seat"] = reader
        out["hand"] = sorted(table.seen_by(f"hand:{reader}", reader) or [])
        out["objectives"] = sorted(table.seen_by(f"objectives:{reader}", reader) or [])
        out["choosing_objectives"] = sorted(table.seen_by(f"choosing:{reader}", reader) or [])
        out["nation_deck_top"] = table.top_seen_by(f"nation_deck:{reader}", reader) or []
        if game.opening is not None and str(reader) in game.opening["chosen"]:
            out["opening_choice"] = cast(
                OpeningChoice, dict(game.opening["chosen"][str(reader)]))
    return dict(out)


# ------------------------------------------------------------ what a seat cannot see


def unseen() -> Unseen:
    """Support Cards (deck and hands) are one pool, Objectives (deck, kept and
    being chosen) another, each Order and Nation deck its own; the opening
    purchases other seats chose and have not revealed are withdrawn."""

    def lists(g: Any) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {name: getattr(g, name) for name in zones.FACE_DOWN}
        for s in range(len(g.seats)):
            out[f"hand:{s}"] = g.hands[s]
            out[f"objectives:{s}"] = g.objectives[s]
            out[f"nation_deck:{s}"] = g.nation_decks[s]
            if g.draft is not None:
                out[f"choosing:{s}"] = g.draft["holding"][s]
        drawing = g.reinforcing
        if g.draft is None and drawing is not None and drawing["drawn"]:
            # A Reinforcement's Objectives drawn, held by the seat choosing now.
            out[f"choosing:{drawing['order'][drawing['at']]}"] = drawing["drawn"]
        return out

    def pool(name: str, card: Any) -> str | None:
        kind = kind_of(name)
        if kind in ("support_deck", "hand"):
            return "support"
        if kind in ("objective_deck", "objectives", "choosing"):
            return "objectives"
        return name if kind in ("order_deck", "nation_deck") else None

    def withdraw(g: Any, seat: int) -> None:
        opening = getattr(g, "opening", None)
        if opening:
            for other in [s for s in opening["chosen"] if s != str(seat)]:
                del opening["chosen"][other]

    from aggregates.titans import guess

    table = Unseen(zones=lambda g: zones.zones(g, g.seating()), lists=lists, pool=pool,
                   withdraw=withdraw, setup=guess.setup)
    return dataclasses.replace(table, complete=lambda g, seen, kind, payload: guess.complete(
        table, g, seen, kind, payload))
