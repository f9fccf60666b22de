"""Helpers for Titans' own tests (the rules never import this).

``new_game`` starts a game and takes its automatic steps; ``play`` answers
a pending decision the way the kernel does (the step's commands, the move's
check, the legal list as the last guard, its run, then the automatic steps);
``arrange`` sets state for a scenario (an arranged game is not replayable).
"""

from __future__ import annotations

from typing import Any

from aggregates.kernel import Command
from aggregates.kernel.testing import arrange as arrange
from aggregates.titans.abilities import hand_limit
from aggregates.titans.game import Titans

SEED = "7" * 64


def new_game(players: int = 2, seed: str = SEED, rules: type[Titans] = Titans,
             **options: Any) -> Titans:
    """A new game by ``rules`` (the served class, or an earlier version's)."""
    return rules.start([f"P{i}" for i in range(players)], options, seed=seed)


def legal(game: Titans, seat: int) -> list[Command]:
    return game.legal_actions(seat)


def play(game: Titans, seat: int, command: Command) -> None:
    """The seat's command, through the kernel (``Game.act``)."""
    game.act(seat, command)


def events(game: Titans) -> list[tuple[str, dict[str, Any]]]:
    """The events recorded since the last call (name, payload)."""
    from aggregates.kernel import event_type, payload_of

    return [(event_type(e), payload_of(e)) for e in game.collect_events()]


def check_invariants(game: Titans) -> None:
    """What must hold between any two commands (the property playouts' invariants)."""
    from aggregates.titans import pieces
    from aggregates.titans.data import NATIONS, OBJECTIVES, SUPPORTS, TABLES, order_deck

    players = len(game.seats)
    fighting: list[list[dict[str, int]]] = [[] for _ in range(players)]
    waiting = (game.turn or {}).get("battles", [])
    for b in waiting:
        fighting[int(game.turn["seat"])].append(  # type: ignore[index]
            pieces.troop(*(t["unit"] for t in b["troops"])))
    played: list[int] = []
    if game.battle is not None:
        for side in game.battle["sides"].values():
            fighting[int(side["seat"])].append(pieces.troop(*(t["unit"] for t in side["troops"])))
            played.extend(side["played"])
            for kind, left in side["reserve"].items():
                used = sum(1 for d in side["pool"] if d["die"] == kind)
                assert left + used == TABLES.dice.reserve[kind], "dice beyond the reserve"
    for seat in range(players):
        on_map = [a["units"] for a in game.armies.values() if a["nation"] == seat]
        TABLES.supply.check(game.reserve[seat], on_map + fighting[seat])
        assert (game.titan[seat] == "map") == bool(
            pieces.total(on_map + fighting[seat]).get("titan")), "the Titan is in one place"
    for region, army in game.armies.items():
        assert game.control.get(region) == army["nation"], f"{region}: units and control differ"
        assert region not in game.inactive
    support = (game.support_deck + game.support_row + game.support_discard
               + [c for h in game.hands for c in h] + played)
    assert sorted(support) == [s.id for s in SUPPORTS], "Support Cards conserved"
    orders = game.order_deck + game.order_pool + game.upcoming + game.order_discard
    if game.turn is not None and game.turn["order"] is not None and not game.turn["orders_done"]:
        orders.append(game.turn["order"])
    if game.round:
        assert sorted(orders) == order_deck(players), "Order Cards conserved"
    for seat in range(players):
        nation = sorted(game.nation_decks[seat] + game.nation_cards[seat])
        assert nation == sorted(NATIONS[game.nations[seat]].cards), "Nation Cards conserved"
        assert set(game.rotated[seat]) <= set(game.nation_cards[seat])
    if game.variant != "simplified":
        objs = game.objective_deck + [c for o in game.objectives for c in o] + [
            c for o in game.accomplished for c in o]
        if game.draft is not None:
            objs += [c for h in game.draft["holding"] for c in h]
            objs += [c for h in game.draft["incoming"] for c in h]
        if game.reinforcing is not None:
            objs += game.reinforcing["drawn"]
        assert sorted(objs) == [o.id for o in OBJECTIVES], "Secret Objectives conserved"
    assert game.strongholds_left >= 0 and len(game.strongholds) + game.strongholds_left <= (
        TABLES.strongholds)


# ------------------------------------------------------------ scenarios


def through_setup(game: Titans) -> Titans:
    """Game Setup 6-7 played plainly: no opening purchase, the first objective kept."""
    from aggregates.titans.commands import KeepObjective, OpeningPurchase

    while game.round == 0:
        d = game.pending()[0]
        if d.kind == "opening_purchase":
            play(game, d.seat, OpeningPurchase(card=-1, bottom=-1))
        else:
            play(game, d.seat, KeepObjective(card=sorted(game.draft["holding"][d.seat])[0]))  # type: ignore[index]
    return game


def place(game: Titans, layout: dict[str, tuple[int, dict[str, int]]],
          control: dict[str, int] | None = None) -> Titans:
    """Arrange the map: every army as given (the rest of each supply in its
    reserve), control as the armies say plus ``control`` (Control Tokens)."""
    from aggregates.titans import pieces
    from aggregates.titans.data import TABLES

    game.armies = {r: {"nation": s, "units": dict(u)} for r, (s, u) in layout.items()}
    game.control = {r: s for r, (s, _u) in layout.items()}
    game.control.update(control or {})
    for seat in range(len(game.seats)):
        placed = pieces.total(u for s, u in layout.values() if s == seat)
        game.reserve[seat] = pieces.minus(TABLES.supply.full(), placed)
        game.titan[seat] = "map" if placed.get("titan") else "standing"
    return game


def give_order(game: Titans, card: int) -> None:
    """Put Order Card ``card`` in the Pool (swapped with one there) and take it."""
    from aggregates.titans.commands import TakeOrder

    if card not in game.order_pool:
        for zone in (game.order_deck, game.upcoming, game.order_discard):
            if card in zone:
                zone[zone.index(card)] = game.order_pool[0]
                break
        game.order_pool[0] = card
    play(game, game.current, TakeOrder(card=card))


def set_hand(game: Titans, seat: int, cards: list[int]) -> None:
    """Make ``cards`` the seat's Support hand: taken from wherever they are; the
    seat's other cards go onto the discard pile (moved, never made or lost)."""
    for zone in (game.support_deck, game.support_row, game.support_discard, *game.hands):
        for card in cards:
            if card in zone:
                zone.remove(card)
    game.support_discard.extend(game.hands[seat])
    game.hands[seat] = list(cards)


def quick_turn(game: Titans) -> tuple[int, int]:
    """One turn with no action used: the first Order Card of the Pool, the top
    Support Card, discards and the Titan as asked. Returns (seat, Pool size)."""
    from aggregates.titans.commands import EndOrders, TakeOrder

    seat, size = game.current, len(game.order_pool)
    play(game, seat, TakeOrder(card=game.order_pool[0]))
    if game.turn is not None and game.turn["seat"] == seat and not game.turn["orders_done"]:
        play(game, seat, EndOrders())
    finish_turn(game)
    return seat, size


def finish_turn(game: Titans) -> None:
    """The rest of the turn (after its Battles): the top Support Card, the
    discards (the lowest cards), the Titan onto the first region controlled."""
    from aggregates.titans.commands import DeployTitan, DiscardSupport, DrawSupport

    seat = game.current
    while game.turn is not None and game.turn["seat"] == seat:
        kind = game.pending()[0].kind
        if kind == "draw_support":
            play(game, seat, DrawSupport(card=-1))
        elif kind == "discard_support":
            extra = len(game.hands[seat]) - hand_limit(game, seat)
            play(game, seat, DiscardSupport(cards=tuple(sorted(game.hands[seat])[:extra])))
        elif kind == "deploy_titan":
            mine = sorted(r for r, s in game.control.items() if s == seat)
            play(game, seat, DeployTitan(region=mine[0]))
        else:
            raise AssertionError(f"finish_turn cannot answer {kind}")


def dice_pool(game: Titans, role: str, faces: list[tuple[str, int]]) -> None:
    """Set a side's dice in the Battle (the reserve follows), as if so rolled."""
    from aggregates.titans.data import TABLES

    assert game.battle is not None
    side = game.battle["sides"][role]
    side["pool"] = [{"die": d, "face": f} for d, f in faces]
    side["reserve"] = {k: n - sum(1 for d, _f in faces if d == k)
                       for k, n in TABLES.dice.reserve.items()}


def arranged(layout: dict[str, tuple[int, dict[str, int]]],
             control: dict[str, int] | None = None, strongholds: tuple[str, ...] = (),
             players: int = 2, rules: type[Titans] = Titans) -> Titans:
    """Round 1, the first player's turn (Poland's, against Russia, with 2 players),
    the map as ``layout`` places it, every hand empty, the events so far read."""
    from aggregates.titans.data import TABLES

    options = {"setup": "2-poland-russia"} if players == 2 else {}
    game = through_setup(new_game(players, rules=rules, **options))
    place(game, layout, control)
    game.strongholds = list(strongholds)
    game.strongholds_left = TABLES.strongholds - len(strongholds)
    for seat in range(players):
        set_hand(game, seat, [])
    events(game)
    return game


def named(game: Titans, name: str) -> list[dict[str, Any]]:
    """The payloads of the events named ``name`` since the events were last read."""
    return [p for n, p in events(game) if n == name]


def attack(game: Titans, origin: str, to: str, units: tuple[str, ...]) -> None:
    """Seat 0's Order Card 1 (a group move): ``units`` from ``origin`` into ``to``."""
    from aggregates.titans.commands import EndOrders, GroupMove

    give_order(game, 1)
    play(game, 0, GroupMove(origin=origin, to=to, units=units))
    play(game, 0, EndOrders())


def fight(game: Titans, attacker: list[tuple[str, int]], defender: list[tuple[str, int]]
          ) -> None:
    """Both Battle Stages ended with these dice (type, success symbols) in the Pools."""
    from aggregates.titans.commands import EndStage

    dice_pool(game, "attacker", attacker)
    dice_pool(game, "defender", defender)
    assert game.battle is not None
    for role in game.battle["order"]:
        play(game, game.battle["sides"][role]["seat"], EndStage())
