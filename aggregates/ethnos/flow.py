"""The flow of Ethnos as data: each command, the stages it may be sent in, its
rules (``check``), its events (``run``) and its legal instances (``legal``).

The kernel routes every command through ``FLOW`` with the seat's stage
(``Ethnos.stage_of``): a command sent in a stage it does not belong to is
refused with ``WRONG_PHASE``, naming what it would do and what is awaited.
"""

from __future__ import annotations

from typing import Any

from aggregates.ethnos import ages, bands, recruit, tribes
from aggregates.ethnos import rules as r
from aggregates.ethnos.commands import (
    ChooseKingdom,
    EndBand,
    KeepCards,
    PlayBand,
    RecruitFaceUp,
    RecruitFromDeck,
    ScoreOrcHorde,
    TakeTrollToken,
    WizardsDraw,
)
from aggregates.ethnos.present import hand_order
from aggregates.kernel import Choice, Command, Flow, Move, PickCards, PickOne, Reason, RuleError

#: What each command does, in the words of its rulebook section (for refusals).
WHAT = {
    RecruitFaceUp: "Recruiting a face-up Ally",
    RecruitFromDeck: "Recruiting from the Allies Deck",
    PlayBand: "Playing a band",
    ChooseKingdom: "Choosing a Kingdom",
    TakeTrollToken: "Taking a Troll token",
    KeepCards: "Keeping cards",
    EndBand: "Ending the Centaurs' chain",
    ScoreOrcHorde: "Scoring the Orc Horde",
    WizardsDraw: "The Wizards' draw",
}


class EthnosFlow(Flow):
    """The kernel's flow, with refusals that say what the command would do."""

    def require_stage(self, stage: str, command: Command) -> None:
        move = self.moves[type(command)]
        if stage not in move.stages:
            what = WHAT.get(type(command), command.NAME)
            raise RuleError(
                Reason.WRONG_PHASE,
                f"{what} ({command.NAME}) is not possible now: {self.prompt(stage)}",
            )


def _nothing(state: Any, seat: int, command: Any) -> None:
    """No rule beyond the stage."""


FLOW = EthnosFlow(r.PROMPTS, [
    Move(RecruitFaceUp, (r.TURN,), recruit.check_face_up, recruit.face_up,
         recruit.legal_recruits),
    Move(RecruitFromDeck, (r.TURN,), recruit.check_from_deck, recruit.from_deck),
    Move(PlayBand, (r.TURN, r.CENTAUR), bands.check_play_band, bands.play_band,
         bands.legal_play_band),
    Move(EndBand, (r.CENTAUR,), _nothing, tribes.end_band, bands.legal_end_band),
    Move(ChooseKingdom, (r.WINGFOLK, r.MERFOLK), tribes.check_choose_kingdom,
         tribes.choose_kingdom, tribes.legal_choose_kingdom),
    Move(TakeTrollToken, (r.TROLL,), tribes.check_take_troll_token,
         tribes.take_troll_token, tribes.legal_troll),
    Move(KeepCards, (r.ELVES,), tribes.check_keep_cards, tribes.keep_cards,
         tribes.legal_elves),
    Move(WizardsDraw, (r.WIZARDS,), _nothing, tribes.wizards_draw, tribes.legal_wizards),
    Move(ScoreOrcHorde, (r.ORC_HORDE,), _nothing, ages.orc_horde, ages.legal_orc_horde),
])


# ------------------------------------------------------------------ choices

#: Above this many legal commands the list is not worth sending in full: the
#: ``PickCards`` choice describes the bands and the server checks each one.
LIST_LIMIT = 256

BAND_PROMPT = ("Play a Band: pick 1 to 10 cards of your hand of one tribe or one colour "
               "(Skeletons are wild), and the Leader among them (not a Skeleton)")


def choices(game: Any, seat: int) -> list[Choice]:
    """How ``seat``'s answers are built: a band is picked from the hand (cards and
    a Leader); every other answer is one of the legal list. Cheap: it lists no band
    (any card that can lead is a band of one)."""
    stage = game.stage_of(seat)
    hand = game.hands[seat] if 0 <= seat < len(game.hands) else []
    prompt = FLOW.prompt(stage)
    if stage not in (r.TURN, r.CENTAUR) or not bands.can_play_band(hand):
        return [PickOne(prompt)]
    pick = PickCards(command=PlayBand.NAME, arg="cards", options=tuple(hand_order(hand)),
                     low=1, high=len(hand), zone="hand", mark="leader", prompt=BAND_PROMPT)
    others = stage == r.CENTAUR or recruit.can_recruit(hand)  # end_band, or a recruit
    return [PickOne(prompt), pick] if others else [pick]


def list_complete(game: Any, seat: int) -> bool:
    """False when ``seat`` may play a band and its bands are too many to list
    (``LIST_LIMIT``): the ``PickCards`` choice then describes them."""
    stage = game.stage_of(seat)
    if stage not in (r.TURN, r.CENTAUR):
        return True
    return len(bands.legal_play_band(game, seat)) <= LIST_LIMIT
