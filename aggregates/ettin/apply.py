"""Ettin's apply: one pure function per event (``events.py``), dispatched by
the event's class (``aggregates.kernel.facts``).

Each function changes the state from the event's facts (and the state they
apply to) alone: it rolls nothing, checks nothing and records nothing; those
are the rules modules' (the command path). ``work`` (each group's progress
through the phase) is rebuilt, never changed in place, so a rules step
holding a part of it still reads it as it was when it decided. A replay of a
game's events runs exactly these functions.

Rules "4" record no event for the War's steps being entered nor for its turns
moving on: after each event, ``evolve`` enters the step that the facts so far
have led into (``enter_steps``), and the fact that ends a turn moves it on
(a card deployed, a Spoil or Siege Token taken). Rules "1"-"3" recorded them
(``state.TURNS_RECORDED``), and their records are read by the applies of those
events as recorded.
"""

from __future__ import annotations

from typing import Any

from aggregates.ettin import aftermath, ages, war
from aggregates.ettin import events as ev
from aggregates.ettin import seating as sg
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.state import TURNS_RECORDED, EttinState
from aggregates.kernel.facts import applier

apply = applier()

#: The events that move cards between zones and change nothing else.
CARD_MOVES: tuple[type[Any], ...] = (
    ev.AdventureRevealed, ev.SkirmishLineupDealt, ev.PeacetimeLineupDealt,
    ev.UndraftedLost, ev.Recruited, ev.SoldCardLost, ev.StartOfBattleRemoved,
    ev.AdventureEffect, ev.AdventureCompleted,
    ev.AdventureDefensePlaced, ev.DefenseStays, ev.ReturnedToSelf, ev.ReturnedToAlly,
    ev.Retired, ev.WarCry, ev.AdventureDiscarded, ev.GateUsed, ev.CallToArms, ev.LostSouls,
    ev.LoserDrew,
)
#: The events that change one position's gold by their ``amount``.
GOLD: tuple[type[Any], ...] = (ev.EmptyDecksGold, ev.RecruitPaid, ev.Sold, ev.BountyPaid,
                               ev.Wealthy)
#: The events that change several positions' gold by their ``gains``.
GAINS: tuple[type[Any], ...] = (ev.AgeGold, ev.AdventureReward, ev.TiedWarGold)
#: The events that state only words: another event made their change.
WORDS_ONLY: tuple[type[Any], ...] = (ev.DraftPassed,)


def carry(game: EttinState, source: str, target: str, cards: list[int]) -> None:
    """The cards leave ``source`` for ``target``, in their order."""
    for card in cards:
        game.zones[source].remove(card)
        game.zones[target].append(card)


def _carry_cards(event: Any, game: EttinState) -> None:
    carry(game, event.source, event.target, event.cards)


def _gold(event: Any, game: EttinState) -> None:
    game.gold[event.position] += event.amount


def _gains(event: Any, game: EttinState) -> None:
    for p, d in event.gains.items():
        game.gold[int(p)] += d


def _words_only(event: Any, game: EttinState) -> None:
    """Only words: the state is changed by the event beside it."""


for _kind in CARD_MOVES:
    apply.register(_kind, _carry_cards)
for _kind in GOLD:
    apply.register(_kind, _gold)
for _kind in GAINS:
    apply.register(_kind, _gains)
for _kind in WORDS_ONLY:
    apply.register(_kind, _words_only)


def set_pair_work(game: EttinState, i: int, **changes: Any) -> None:
    """The pair ``i``'s progress through the phase, with ``changes``."""
    pairs = list(game.work["pairs"])
    pairs[i] = {**pairs[i], **changes}
    game.work = {**game.work, "pairs": pairs}


# -------------------------------------------- Setup's initiative and Phase 1: New Age


@apply.register
def _initiative_choices(event: ev.InitiativeChoices, game: EttinState) -> None:
    game.phase = "initiative"
    game.work = {"choosers": [[c["pair"], c["position"]] for c in event.choosers]}


def _initiative_chosen(game: EttinState, pair: int, holder: int) -> None:
    initiative = list(game.initiative)
    initiative[pair] = holder
    game.initiative = initiative
    game.work = {"choosers": [c for c in game.work["choosers"] if c[0] != pair]}


@apply.register
def _initiative_taken(event: ev.InitiativeTaken, game: EttinState) -> None:
    _initiative_chosen(game, event.pair, event.holder)


@apply.register
def _initiative_given(event: ev.InitiativeGiven, game: EttinState) -> None:
    _initiative_chosen(game, event.pair, event.holder)


@apply.register
def _age_began(event: ev.AgeBegan, game: EttinState) -> None:
    game.age, game.step, game.phase, game.work = event.age, -1, "new_age", {}


# ----------------------------------------------------- Phase 2: Skirmish and Peacetime


@apply.register
def _draft_began(event: ev.DraftBegan, game: EttinState) -> None:
    game.step, game.phase = event.step, "draft"
    game.work = {"kind": event.kind, "groups": [
        {"members": gr["members"], "order": gr["order"], "lineup": gr["lineup"], "at": 0}
        for gr in event.lineups]}


@apply.register
def _draft_order_shortened(event: ev.DraftOrderShortened, game: EttinState) -> None:
    orders = {gr["lineup"]: gr["order"] for gr in event.lineups}
    game.work = {**game.work, "groups": [
        {**gr, "order": orders.get(gr["lineup"], gr["order"])}
        for gr in game.work["groups"]]}


@apply.register
def _drafted(event: ev.Drafted, game: EttinState) -> None:
    carry(game, event.source, event.target, event.cards)
    game.work = {**game.work, "groups": [
        {**gr, "at": gr["at"] + 1} if gr["lineup"] == event.source else gr
        for gr in game.work["groups"]]}


# -------------------------------------------------------------- Phase 3: War: Deploy


@apply.register
def _deploy_began(event: ev.DeployBegan, game: EttinState) -> None:
    game.phase = "deploy"
    game.work = {"pairs": [{"turn": -1 if w["position"] is None else w["position"],
                            "left": w["deploys"]} for w in event.turns]}


@apply.register
def _deployed(event: ev.Deployed, game: EttinState) -> None:
    """Rules "4": the deploy passes on as the card leaves the War Camp (rules
    "1"-"3" recorded it: ``DeployPassed``)."""
    carry(game, event.source, event.target, event.cards)
    if TURNS_RECORDED not in game.earlier:
        set_pair_work(game, sg.pair_of(game, event.position),
                      **war.after_deploy(game, event.position))


@apply.register
def _scouted(event: ev.Scouted, game: EttinState) -> None:
    game.shown = sorted(set(game.shown) | set(event.cards))


@apply.register
def _deploy_passed(event: ev.DeployPassed, game: EttinState) -> None:
    assert event.pair is not None, "an older record's step is applied as it was stored"
    set_pair_work(game, event.pair, turn=-1 if event.position is None else event.position,
                  left=event.deploys)


# ------------------------------------------------------------------------- Battle


@apply.register
def _cards_flipped(event: ev.CardsFlipped, game: EttinState) -> None:
    game.flipped, game.phase = True, "battle"
    game.results = [[] for _ in game.pairs]
    game.work = {"pairs": [{"b": 0, "queue": None, "chosen": [], "lose": -1}
                           for _ in game.pairs]}


@apply.register
def _battle_step(event: ev.BattleStep, game: EttinState) -> None:
    """Rules "1" and "2" only (``state.STEPS_RECORDED``): the queue they kept.
    The step states no queue, so its lining up is read from the battle's units
    as they stood (rules "3" record no such step: ``war.waiting``)."""
    pair = event.pair
    assert pair is not None, "an older record's step is applied as it was stored"
    w = game.work["pairs"][pair]
    if event.step == "abilities":
        set_pair_work(game, pair, queue=war.abilities_queue(game, pair, war.slot_of(game, pair)))
    elif event.step == "no target":
        set_pair_work(game, pair, queue=w["queue"][1:])
    elif event.step == "to lose":
        set_pair_work(game, pair, lose=event.position)
    else:
        set_pair_work(game, pair, lose=-1)


@apply.register
def _target_chosen(event: ev.TargetChosen, game: EttinState) -> None:
    i = sg.pair_of(game, event.position)
    w = game.work["pairs"][i]
    chosen = [*w["chosen"], [event.position, event.unit, event.keyword, event.target]]
    queue = None if w["queue"] is None else w["queue"][1:]  # recorded by earlier rules
    set_pair_work(game, i, queue=queue, chosen=chosen)


@apply.register
def _battle_resolved(event: ev.BattleResolved, game: EttinState) -> None:
    outcome: dict[str, Any] = {"slot": event.slot, "scores": event.scores,
                               "result": event.result, "winner": event.winner}
    if event.why is not None:
        outcome["why"] = event.why
    results = [list(x) for x in game.results]
    results[event.pair] = [*results[event.pair], outcome]
    game.results = results
    w = game.work["pairs"][event.pair]
    set_pair_work(game, event.pair, b=w["b"] + 1, queue=None, chosen=[])


@apply.register
def _adventure_attempted(event: ev.AdventureAttempted, game: EttinState) -> None:
    """The pair's Adventure is attempted (once an Age); a failed one: its
    attempter loses a Troop with Adventure Strength (``AdventurerLost``)
    before the battles go on. Rules "4" note a failed attempt in the pair's
    work (the battles' end follows it: ``enter_steps``); a successful one is
    over when its card leaves the Adventure (``AdventureCompleted``, after its
    reward and effect), so a Defense it wins is set aside before the Spoils
    and the Adventure Defense are entered."""
    if not event.success:
        set_pair_work(game, event.pair, lose=event.position)
        if TURNS_RECORDED not in game.earlier:
            set_pair_work(game, event.pair, attempted=True)


@apply.register
def _adventurer_lost(event: ev.AdventurerLost, game: EttinState) -> None:
    carry(game, event.source, event.target, event.cards)
    set_pair_work(game, sg.pair_of(game, event.position), lose=-1)


# -------------------------------------------------------------------------- Spoil


@apply.register
def _spoils_began(event: ev.SpoilsBegan, game: EttinState) -> None:
    game.phase = "spoils"
    game.work = {"pairs": [{"tasks": [[s["position"], s["slot"], s["count"], s["kind"]]
                                      for s in spoils]} for spoils in event.owed]}


def set_tasks(game: EttinState, pair: int, tasks: list[list[Any]]) -> None:
    """The pair's Spoils (and Siege Tokens) still owed, in order."""
    pairs = list(game.work["pairs"])
    pairs[pair] = {"tasks": tasks}
    game.work = {"pairs": pairs}


@apply.register
def _spoil_taken(event: ev.SpoilTaken, game: EttinState) -> None:
    """Rules "4": the taker may take one fewer at that battle; none after a Spoil
    from the deck (a single one) or the Enemy's last unit there."""
    carry(game, event.source, event.target, event.cards)
    if TURNS_RECORDED in game.earlier:
        return
    pair = sg.pair_of(game, event.position)
    tasks = [list(x) for x in game.work["pairs"][pair]["tasks"]]
    left = tasks[0][2] - 1
    if event.from_deck or left <= 0 or \
            not war.units_at(game, sg.enemy(game, event.position), tasks[0][1]):
        tasks = tasks[1:]
    else:
        tasks[0][2] = left
    set_tasks(game, pair, tasks)


@apply.register
def _siege_token_placed(event: ev.SiegeTokenPlaced, game: EttinState) -> None:
    game.sieges = sorted([*game.sieges, event.card])
    if TURNS_RECORDED not in game.earlier:  # one Siege Token a Siege unit
        pair = sg.pair_of(game, event.position)
        set_tasks(game, pair, game.work["pairs"][pair]["tasks"][1:])


@apply.register
def _spoils_passed(event: ev.SpoilsPassed, game: EttinState) -> None:
    pair = event.pair
    assert pair is not None, "an older record's step is applied as it was stored"
    tasks = [list(x) for x in game.work["pairs"][pair]["tasks"]]
    if event.left:
        tasks[0][2] = event.left
    else:
        tasks = tasks[1:]
    set_tasks(game, pair, tasks)


# ------------------------------------------- Adventure Defense, Retire, Produce


@apply.register
def _adventure_defense_began(event: ev.AdventureDefenseBegan, game: EttinState) -> None:
    game.phase, game.work = "adventure_defense", {}


@apply.register
def _retire_began(event: ev.RetireBegan, game: EttinState) -> None:
    game.phase, game.work = "retire", {}


@apply.register
def _produce_began(event: ev.ProduceBegan, game: EttinState) -> None:
    queues: dict[str, list[list[Any]]] = {}
    for item in event.optional:
        queues.setdefault(str(item["position"]), []).append([item["ability"], item["source"]])
    game.phase, game.work = "produce", {"queues": queues}


@apply.register
def _produced(event: ev.Produced, game: EttinState) -> None:
    """Rules "4": the paying Produce abilities are paid (all at once)."""
    _gains(event, game)
    if TURNS_RECORDED not in game.earlier:
        game.work = {**game.work, "paid": True}


@apply.register
def _produce_answered(event: ev.ProduceAnswered, game: EttinState) -> None:
    assert event.position is not None, "an older record's step is applied as it was stored"
    key = str(event.position)
    queues = {k: list(v) for k, v in game.work["queues"].items()}
    queues[key] = queues[key][1:]
    if not queues[key]:
        del queues[key]
    game.work = {**game.work, "queues": queues}


# ------------------------------------------------------- Winning the War, the end


@apply.register
def _age_ended(event: ev.AgeEnded, game: EttinState) -> None:
    tokens = [list(x) for x in game.tokens]
    initiative = list(game.initiative)
    for war_ in event.wars:
        i, winner = war_["pair"], war_["winner"]
        a, b = game.pairs[i]
        if winner is None:
            initiative[i] = b if initiative[i] == a else a
        else:
            tokens[winner].append(event.age)
    game.tokens, game.initiative = tokens, initiative
    game.sieges, game.results, game.flipped, game.shown = [], [[] for _ in game.pairs], \
        False, []
    if event.age < len(C.sequence):  # the next Age's initiative: each War's loser chooses
        game.phase = "initiative"
        game.work = {"choosers": [
            [w["pair"], next(p for p in game.pairs[w["pair"]] if p != w["winner"])]
            for w in event.wars if w["winner"] is not None]}


@apply.register
def _game_over(event: ev.GameOver, game: EttinState) -> None:
    game.phase, game.done = "over", True


# ------------------------------------------------- rules "4": the steps entered


#: What each War step that begins by no fact of its own (rules "4") starts
#: with, read from the table: whose deploy, the Spoils owed, the optional
#: Produce abilities to ask about.
STARTS: dict[str, Any] = {
    "deploy": lambda g: {"pairs": war.deploy_turns(g)},
    "spoils": lambda g: {"pairs": [{"tasks": tasks} for tasks in aftermath.owed(g)]},
    "adventure_defense": lambda g: {},
    "retire": lambda g: {},
    "produce": lambda g: {"queues": aftermath.produce_queues(g)},
}


def enter(game: EttinState, phase: str) -> None:
    """The War's step ``phase`` begins (rules "4"), its work read from the table."""
    game.phase, game.work = phase, STARTS[phase](game)


def following(game: EttinState) -> str | None:
    """The War's step the facts so far have led into, when the one being played
    is over and the next begins by no fact of its own (None: none): the Deploy
    after the third draft, the Spoils after the last battle and its Adventure,
    the Adventure Defense after the last Spoil, the Retire once every Defense
    won is placed, the Produce once nothing is left deployed. The Battle begins
    with its cards flipped, the others with their own facts (``AgeBegan``, the
    Lineups dealt, ``AgeEnded``)."""
    phase = game.phase
    if phase == "draft" and ages.after_draft(game) == "deploy" and ages.draft_done(game):
        return "deploy"
    if phase == "battle" and war.battles_done(game) and not any(
            war.attempt_due(game, i) for i in range(len(game.pairs))):
        return "spoils"
    if phase == "spoils" and aftermath.spoils_done(game):
        return "adventure_defense"
    if phase == "adventure_defense" and aftermath.defense_placed(game):
        return "retire"
    if phase == "retire" and aftermath.retired(game):
        return "produce"
    return None


def enter_steps(game: EttinState) -> None:
    """Rules "4": pass over each Spoil its taker has nothing to take for, and
    enter each step of the War that the facts so far have led into, as the
    flow does between decisions (``flow.FLOW``'s phases)."""
    while True:
        if game.phase == "spoils":
            pass_spoils(game)
        phase = following(game)
        if phase is None:
            return
        enter(game, phase)


def pass_spoils(game: EttinState) -> None:
    """Each pair's Spoils passed over while their taker has nothing to take (in
    rules "1"-"3" a ``SpoilsPassed`` each)."""
    for pair, w in enumerate(game.work["pairs"]):
        tasks = w["tasks"]
        while tasks and aftermath.head_done(game, tasks):
            tasks = tasks[1:]
        if tasks != w["tasks"]:
            set_tasks(game, pair, tasks)


def evolve(event: Any, game: EttinState) -> None:
    """Ettin's apply (the game's ``APPLY``): the event's function, then, in rules
    "4", the steps it leads into."""
    apply(event, game)
    if TURNS_RECORDED not in game.earlier:
        enter_steps(game)


evolve.registry = apply.registry  # type: ignore[attr-defined]  # the kernel's check
