"""Winning the Game: Victory Tokens, VP on cards in the War Camp, on Defenses
and in the Retired Pile, 1 VP per 2 gold; each position's total, each seat's
(the odd player scores its nation and the Mercenary mat), each Alliance's;
the most Gold breaks a tie, then the tied Alliances share the victory."""

from __future__ import annotations

from typing import Any

from aggregates.ettin import cards as cd
from aggregates.ettin import seating as sg
from aggregates.ettin import zones as zn
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.state import EttinState
from aggregates.kernel.outcome import Outcome, headline, rank


def achievements(g: EttinState, p: int) -> dict[str, int]:
    """What Retired cards' bonuses count: Victory Tokens, Defenses at the
    Locations, completed Adventures (in the Retired Pile or at a Location)."""
    defenses = [c for s in range(zn.ADVENTURE) for c in g.zones[zn.loc(p, s)]]
    adventures = [c for c in g.zones[zn.retired(p)] + defenses if C.is_adventure(c)]
    return {"war_token": len(g.tokens[p]), "defense": len(defenses),
            "adventure": len(adventures)}


def bonus(g: EttinState, p: int) -> int:
    have = achievements(g, p)
    total = 0
    for c in g.zones[zn.retired(p)]:
        if cd.is_unit(c) and cd.unit(c).bonus is not None:
            per, each = cd.unit(c).bonus  # type: ignore[misc]
            total += each * have[per]
    return total


def position_score(g: EttinState, p: int) -> dict[str, int]:
    defenses = [c for s in range(zn.ADVENTURE) for c in g.zones[zn.loc(p, s)]]
    return {
        "tokens": sum(C.war_vp[a - 1] for a in g.tokens[p]),
        "camp": sum(cd.vp(c) for c in g.zones[zn.camp(p)]),
        "defenses": sum(cd.vp(c) for c in defenses),
        "retired": sum(cd.vp(c) for c in g.zones[zn.retired(p)]),
        "bonuses": bonus(g, p),
        "gold": g.gold[p] // 2,
    }


def outcome(g: EttinState) -> dict[str, Any]:
    seating = g.seating()
    per_position = [sum(position_score(g, p).values()) for p in range(sg.positions(g))]
    per_seat = [0] * len(g.seats)
    gold_seat = [0] * len(g.seats)
    for p, score in enumerate(per_position):
        per_seat[seating.controller[p]] += score
        gold_seat[seating.controller[p]] += g.gold[p]
    totals = seating.team_totals(per_seat)
    gold = seating.team_totals(gold_seat)
    best = max(zip(totals, gold, strict=True))
    winners_t = [i for i, key in enumerate(zip(totals, gold, strict=True)) if key == best]
    teams = []
    for i, team in enumerate(seating.teams):
        names = " & ".join(g.seats[s] for s in team)
        teams.append({"team": names, "seats": list(team), "score": totals[i], "gold": gold[i],
                      "positions": [p for p in range(sg.positions(g))
                                    if seating.controller[p] in team]})
    names = " and ".join(str(teams[i]["team"]) for i in winners_t)
    result = (f"{names} win with {best[0]} VP" if len(winners_t) == 1
              else f"{names} share the victory with {best[0]} VP")
    return {"result": result, "teams": teams, "scores": per_seat,
            "positions": per_position,
            "winner_team": winners_t[0] if len(winners_t) == 1 else None,
            "winners": sorted(s for i in winners_t for s in seating.teams[i])}


def standings(g: EttinState) -> Outcome:
    """The shared outcome, from the recorded teams: each Alliance ranked by
    its VP then its Gold, its seats sharing its place; an Alliance of two
    that wins alone is the ``winning_team``. A seat's score is its own share
    (the summary names the Alliance's total). Before the end, the VP as they
    stand ("Winning the Game": Victory Tokens, War Camp, Defenses, Retired
    Pile, 1 per 2 Gold), so a search's world stopped early is worth its
    score so far."""
    recorded = g.outcome or outcome(g)
    teams = list(recorded.get("teams", ()))
    team_of = {int(s): i for i, team in enumerate(teams) for s in team["seats"]}
    key = [(int(team["score"]), int(team["gold"])) for team in teams]
    ranking = rank(len(g.seats), lambda s: key[team_of[s]])
    winners = tuple(sorted(int(s) for s in recorded.get("winners", ())))
    won = recorded.get("winner_team")
    team = tuple(teams[won]["seats"]) if isinstance(won, int) and len(teams[won]["seats"]) > 1 \
        else None
    best = max((k[0] for k in key), default=0)
    return Outcome(winners=winners, ranking=ranking,
                   scores=tuple(int(v) for v in recorded.get("scores", ())),
                   breakdown=recorded, summary=headline(winners, team, f"with {best} VP"),
                   winning_team=team)


def game_over(g: Any) -> None:
    """The third Age's War is over: the game ends and is scored."""
    g.emit("GameOver")
