"""The flow of Romance of the Nine Empires, declared for the kernel (Turn Reference).

The phases: the opening hands reviewed (mulligans), then each turn Spring,
Summer, Autumn and Winter; an Attack Phase or a Raiding Phase is a sub-phase
over the Summer or Autumn in which it was declared. The kernel runs them:
``begin`` records the event that opens a phase, ``auto`` the automatic steps,
``end_if`` says when it is over, ``end`` records what closes it and ``next``
names what follows. Who is asked what comes from ``pending``, and each command
goes to the step of the decision it answers (``STEPS``).

Each decision kind is a step of the rulebook (reviewing the opening hand, a
Summer or Autumn action, a React window, assigning units, absorbing damage...)
with the moves (check, run, legal) that answer it, a kernel ``Step``;
``pending`` says which seats are asked now, derived from the state alone.
``auto`` records one step that needs no decision (a hero with no Will is
buried, a window whose next seat cannot React passes it over, a window all
have answered resolves under rules 1.5.0 and before (1.6.0 closes it with the
answer that closed it and resolves it in that command: ``abilities.recorded``),
a battle where nobody can act ends); it is every
phase's ``auto``, which the kernel runs after each command.
"""

from __future__ import annotations

from typing import Any

from aggregates.kernel import Choice, Command, Flow, Move, Phase, PickOne, Step
from aggregates.nine_empires import (
    abilities,
    actions,
    battles,
    card_effects,
    engaging,
    playing,
    raids,
    setup,
    turn_order,
    winter,
)
from aggregates.nine_empires import cards as t
from aggregates.nine_empires.commands import (
    Absorb,
    AssignRaid,
    AssignUnits,
    CallAllies,
    ChooseAlly,
    ChooseBattle,
    ChooseRaid,
    DeclareAttack,
    DeclareImmune,
    DeclareRaid,
    DiscardDown,
    Engage,
    KeepHand,
    Mulligan,
    Pass,
    PlayCard,
    Redistribute,
    ReturnHome,
    UseAbility,
)
from aggregates.nine_empires.state import State


def _react_pass(state: State, seat: int, command: Pass) -> None:
    abilities.run_react_pass(state, seat)


USE = Move.of(UseAbility, abilities, "Using an ability", "use")
PASS = Move.of(Pass, actions, "Passing")
REVIEW = (
    Move(KeepHand, setup.check_keep, setup.run_keep, setup.legal_review, "Keeping the hand"),
    Move(Mulligan, setup.check_mulligan, setup.run_mulligan, None, "Taking a mulligan"))
SUMMER = (
    Move.of(PlayCard, playing, "Bringing a card into play", "play"),
    USE,
    Move.of(DeclareAttack, battles, "Attacking another player", "declare"),
    PASS)
AUTUMN = (USE, Move.of(DeclareRaid, raids, "Raiding another player", "declare"), PASS)
REACT = (USE, Move(Pass, actions.check_pass, _react_pass, actions.legal_pass,
                   "Passing the React"))
BATTLE = (USE,
          Move.of(Engage, engaging, "Engaging for damage"),
          Move.of(ReturnHome, engaging, "Returning a unit home", "return"),
          PASS)

STEPS: dict[str, Step] = {step.name: step for step in (
    Step("review", "Review your opening hand: keep it, or take one mulligan (discard it "
         "and two food, draw a new hand)", REVIEW, passes=KeepHand),
    Step("summer", "Summer: bring a card into play, use a Summer ability, attack, or pass",
         SUMMER, passes=Pass),
    Step("autumn", "Autumn: use an Autumn ability, raid, or pass", AUTUMN, passes=Pass),
    Step("react", "React to what was just announced, or pass", REACT, passes=Pass),
    Step("call", "Call for allies from the other players, or fight without them", (
        Move.of(CallAllies, battles, "Calling for allies", "call"),)),
    Step("ally", "Ally with a side that called for allies, or with neither", (
        Move.of(ChooseAlly, battles, "Choosing a side", "ally"),)),
    Step("assign", "Assign your unbowed units to the defender's castles", (
        Move.of(AssignUnits, battles, "Assigning units", "assign"),)),
    Step("assign_raid", "Assign at most one unbowed unit per castle, each with a stealth "
         "card", (Move.of(AssignRaid, raids, "Assigning raid units", "assign"),)),
    Step("choose", "Choose the battle to resolve next", (
        Move.of(ChooseBattle, battles, "Choosing a battle", "choose"),)),
    Step("choose_raid", "Choose the raid to resolve next", (
        Move.of(ChooseRaid, raids, "Choosing a raid", "choose"),)),
    Step("battle", "Battle: use a Battle ability, engage, return a unit home, or pass",
         BATTLE, passes=Pass),
    Step("raid", "Raid: use a Raid ability, or pass", (USE, PASS), passes=Pass),
    Step("immunity", "Declare cards of yours immune to this damage (Strength greater "
         "than it)", (Move.of(DeclareImmune, engaging, "Declaring immunity", "immune"),)),
    Step("absorb", "Absorb the damage: a hero or cohort, a food token, or the castle", (
        Move.of(Absorb, engaging, "Absorbing damage"),)),
    Step("redistribute", "Winter: redistribute your food between your castles (none over "
         "its storage), or keep it where it is", (
             Move.of(Redistribute, winter, "Redistributing food"),)),
    Step("discard", "Discard down to your hand size", (
        Move.of(DiscardDown, winter, "Discarding down", "discard"),)),
)}


def pending(state: State) -> list[tuple[int, str]]:
    """(seat, decision kind) for every seat asked now."""
    if state.over:
        return []
    if state.phase == "mulligan":
        return [(s, "review") for s in state.mulligans]
    if state.stack:
        top = state.stack[-1]
        if top["what"] == "engagement":
            kind, asked = engaging.step(state, top)
            if kind in ("immunity", "absorb") and asked is not None:
                return [(asked, kind)]
        seat = abilities.asked(state)
        return [] if seat is None else [(seat, "react")]
    c = state.conflict
    if c is not None:
        step = c["step"]
        raid = c["kind"] == "raid"
        if step == "allies":
            caller = battles.calling(state)
            return [(caller, "call")] if caller is not None else [(c["ask"][0], "ally")]
        if step == "assign":
            return [(c["ask"][0], "assign_raid" if raid else "assign")]
        if step == "choose":
            options = raids.unresolved(state) if raid else battles.unresolved(state)
            return [(c["attacker"], "choose_raid" if raid else "choose")] if options else []
        seat = turn_order.to_act(state, turn_order.current_passing(state))
        return [] if seat is None else [(seat, "raid" if raid else "battle")]
    if state.phase == "winter":
        if state.winter_step == "redistribute":
            return [(s, "redistribute") for s in state.redistributing]
        return [(s, "discard") for s in winter.discarding(state)]
    seat = turn_order.to_act(state, turn_order.current_passing(state))
    return [] if seat is None or state.phase not in ("summer", "autumn") \
        else [(seat, state.phase)]


#: Decisions whose legal list is every legal answer.
COMPLETE = frozenset({"review", "call", "ally", "choose", "choose_raid", "absorb",
                      "redistribute"})


def list_complete(state: State, seat: int) -> bool:
    kinds = {k for s, k in pending(state) if s == seat}
    if not kinds:
        return True
    if kinds == {"discard"}:
        return len(winter.legal_discard(state, seat)) < winter.MAX_DISCARD_OPTIONS
    if kinds == {"immunity"}:
        frame = state.stack[-1]
        return len(engaging.immune_candidates(state, frame, seat)) <= \
            engaging.MAX_IMMUNE_LISTED
    return kinds <= COMPLETE


def choices(state: State, seat: int, kind: str) -> tuple[Choice, ...]:
    """How the seat's answers are built: one of the legal list, or, assigning
    units, any assignment at all (``battles.assign_choice``)."""
    if kind == "assign":
        return (battles.assign_choice(state, seat),)
    return (PickOne(STEPS[kind].prompt),)


def legal(state: State, seat: int) -> list[Command]:
    out: list[Command] = []
    for asked, kind in pending(state):
        if asked == seat:
            for move in STEPS[kind].moves:
                if move.legal is not None:
                    out.extend(move.legal(state, seat))
    return out


def auto(state: State) -> bool:
    """Record one step that needs no decision; True if one was recorded."""
    if state.over:
        return False
    if card_effects.willless(state):
        card_effects.settle_will(state)
        return True
    if state.stack:
        top = state.stack[-1]
        if top["step"] != "react":
            return False
        if abilities.responder(state) is None:
            if top["what"] == "engagement":
                return engaging.after_reacts(state)
            abilities.resolve_top(state)
            return True
        if abilities.asked(state) is None:
            abilities.pass_over(state)
            return True
        return False
    c = state.conflict
    if c is not None:
        return _auto_conflict(state, c)
    if winter.redistributed(state):
        winter.reckon(state)
        return True
    return False


def _auto_conflict(state: State, c: dict[str, Any]) -> bool:
    raid = c["kind"] == "raid"
    step = c["step"]
    if step == "assign":
        seat = c["ask"][0]
        if not battles.assignable(state, seat) or (raid and not t.hand(state, seat)):
            if raid:
                side = "raid" if seat == c["attacker"] else "defend"
                state.emit("RaidUnitsAssigned", seat=seat, side=side, heroes=[], castles=[],
                           stealth=[], stealth_count=0)
            else:
                state.emit("UnitsAssigned", seat=seat, side=t.conflict_side(state, seat),
                           heroes=[], castles=[])
            return True
        return False
    if step == "choose":
        options = raids.unresolved(state) if raid else battles.unresolved(state)
        if not options:
            if raid:
                raids.end_raid_phase(state)
            else:
                battles.end_attack(state)
            return True
        if len(options) == 1:
            battles.choose(state, options[0])
            return True
        return False
    if step == "actions":
        seat = turn_order.to_act(state, turn_order.current_passing(state))
        if seat is None:
            if raid:
                raids.resolve(state)
            else:
                battles.end_battle(state)
            return True
        kind = "raid" if raid else "battle"
        answers: list[Command] = [m for move in STEPS[kind].moves if move.legal is not None
                                  for m in move.legal(state, seat)]
        if all(isinstance(o, Pass) for o in answers):
            state.emit("Passed", seat=seat, where="conflict", forced=True)
            return True
    return False


def _never(state: Any) -> bool:
    """A sub-phase is closed by its own last event (AttackEnded, RaidEnded)."""
    return False


def _always(state: Any) -> bool:
    return True


FLOW = Flow(
    list(STEPS.values()),
    [
        Phase("mulligan", begin=setup.deal_opening_hands, end_if=setup.reviewed,
              end=setup.take_ordained, next=actions.new_turn),
        # Rules 1.4.0 and before only: by 1.5.0 the Spring opens the Summer.
        Phase("spring", begin=actions.begin_turn, auto=auto, end_if=_always,
              next="summer"),
        Phase("summer", begin=actions.begin_summer,
              auto=auto, end_if=actions.phase_over, end=actions.end_phase,
              next="autumn"),
        # By rules 1.5.0 the phase before ends into the Autumn and the Winter
        # (its PhaseEnded enters them), so their begin may record nothing.
        Phase("autumn", begin=lambda s: actions.begin_phase(s, "autumn"),
              auto=auto, end_if=actions.phase_over, end=actions.end_phase,
              next="winter", entered_before=True),
        Phase("winter", begin=winter.begin_winter, auto=auto,
              end_if=winter.hands_checked, end=winter.pass_ordained,
              next=actions.new_turn, entered_before=True),
        Phase("attack", auto=auto, end_if=_never),
        Phase("raid", auto=auto, end_if=_never),
    ],
    start="mulligan",
)
