"""What a seat sees of Titans: the map, the Pools, the face-up cards and every
Nation's public side are everyone's; a Support hand, the Secret Objectives held
and the top 3 of a Nation Deck are their owner's (the others see counts); a
face-down deck is a count. A spectator (``seat=None``) sees no hand."""

from __future__ import annotations

from typing import Any

from aggregates.kernel import Seating
from aggregates.kernel.flow import current_phase
from aggregates.kernel.unseen import Unseen, kind_of
from aggregates.titans import abilities, battles, regions, reinforcements, turns, zones
from aggregates.titans.data import BOARD, NATIONS
from aggregates.titans.state import State


def public_battle(game: State) -> dict[str, Any] | None:
    battle = game.battle
    if battle is None:
        return None
    out = {k: battle[k] for k in ("region", "fortified", "order", "reroll", "reaction")}
    out["stage"] = battles.stage_role(battle)
    out["result"] = dict(battle["result"]) if battle.get("result") else None
    out["sides"] = {role: {**side, "strength": battles.strength(side)}
                    for role, side in battle["sides"].items()}
    return out


def view(game: State, seat: int | None) -> dict[str, Any]:
    players = len(game.seats)
    table = zones.zones(game, Seating.one_each(players))
    reader = seat if seat is not None and 0 <= seat < players else None
    turn = game.turn
    out: dict[str, Any] = {
        "phase": current_phase(game),
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
                    "capitol": dict(game.capitols[r]) if r in game.capitols else None}
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
            "step": turns.step(game), "objective_done": turn["objective"],
            "battles": [{"region": b["region"], "defender": b["defender"],
                         "fortified": b["fortified"], "troops": list(b["troops"])}
                        for b in turn["battles"]]},
        "battle": public_battle(game),
        "reinforcing": None if game.reinforcing is None else {
            "order": list(game.reinforcing["order"]), "seat": reinforcements.reinforcing_seat(
                game), "stage": reinforcements.stage(game)},
        "opening_chosen": (sorted(int(s) for s in game.opening["chosen"])
                           if game.opening is not None else None),
        "draft": None if game.draft is None else {
            "pick": game.draft["pick"], "kept": list(game.draft["kept"])},
        "outcome": game.outcome if game.ended else None,
    }
    if reader is not None:
        out["seat"] = reader
        out["hand"] = sorted(table.seen_by(f"hand:{reader}", reader) or [])
        out["objectives"] = sorted(table.seen_by(f"objectives:{reader}", reader) or [])
        out["choosing_objectives"] = sorted(table.seen_by(f"choosing:{reader}", reader) or [])
        out["nation_deck_top"] = table.top_seen_by(f"nation_deck:{reader}", reader) or []
        if game.opening is not None and str(reader) in game.opening["chosen"]:
            out["opening_choice"] = dict(game.opening["chosen"][str(reader)])
    return out


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

    return Unseen(zones=lambda g: zones.zones(g, g.seating()), lists=lists, pool=pool,
                  withdraw=withdraw)
