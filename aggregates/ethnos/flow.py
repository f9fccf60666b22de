"""The flow of Ethnos as data: each decision it asks (a step), the moves that answer it, their
rules (``check``), their events (``run``) and their legal instances (``legal``).

The kernel routes every command to the seat's pending decision (``Ethnos.pending``,
whose kind is a step here): a command its step does not list is refused with
``WRONG_PHASE``, naming what it would do (the move's ``what``) and what is awaited.
"""

from __future__ import annotations

from typing import Any

from aggregates.ethnos import ages, bands, recruit, scoring, tribes
from aggregates.ethnos import state as r
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
from aggregates.kernel import Choice, Flow, Move, Phase, PickCards, PickOne, Step


def _nothing(state: Any, seat: int, command: Any) -> None:
    """No rule beyond the step."""


PLAY_BAND = Move(PlayBand, bands.check_play_band, bands.play_band, bands.legal_play_band,
                 what="Playing a band")
CHOOSE_KINGDOM = Move(ChooseKingdom, tribes.check_choose_kingdom, tribes.choose_kingdom,
                      tribes.legal_choose_kingdom, what="Choosing a Kingdom")

FLOW = Flow([
    Step(r.TURN, r.PROMPTS[r.TURN], (
        Move(RecruitFaceUp, recruit.check_face_up, recruit.face_up, recruit.legal_recruits,
             what="Recruiting a face-up Ally"),
        Move(RecruitFromDeck, recruit.check_from_deck, recruit.from_deck,
             what="Recruiting from the Allies Deck"),
        PLAY_BAND)),
    Step(r.CENTAUR, r.PROMPTS[r.CENTAUR], (
        PLAY_BAND,
        Move(EndBand, _nothing, tribes.end_band, bands.legal_end_band,
             what="Ending the Centaurs' chain"))),
    Step(r.WINGFOLK, r.PROMPTS[r.WINGFOLK], (CHOOSE_KINGDOM,)),
    Step(r.MERFOLK, r.PROMPTS[r.MERFOLK], (CHOOSE_KINGDOM,)),
    Step(r.TROLL, r.PROMPTS[r.TROLL], (
        Move(TakeTrollToken, tribes.check_take_troll_token, tribes.take_troll_token,
             tribes.legal_troll, what="Taking a Troll token"),)),
    Step(r.ELVES, r.PROMPTS[r.ELVES], (
        Move(KeepCards, tribes.check_keep_cards, tribes.keep_cards, tribes.legal_elves,
             what="Keeping cards"),)),
    Step(r.WIZARDS, r.PROMPTS[r.WIZARDS], (
        Move(WizardsDraw, _nothing, tribes.wizards_draw, tribes.legal_wizards,
             what="The Wizards' draw"),)),
    Step(r.ORC_HORDE, r.PROMPTS[r.ORC_HORDE], (
        Move(ScoreOrcHorde, _nothing, ages.orc_horde, ages.legal_orc_horde,
             what="Scoring the Orc Horde"),)),
], [
    # Playing Through an Age until its third Dragon; the End of the Age scores
    # it (Orc Hordes chosen first), then a New Age begins, three in all.
    Phase("age", begin=ages.begin_age, end_if=ages.age_over, end=scoring.score_age,
          next=ages.after_age),
], start="age")


# ------------------------------------------------------------------ choices

#: Above this many legal commands the list is not worth sending in full: the
#: ``PickCards`` choice describes the bands and the server checks each one.
LIST_LIMIT = 256

BAND_PROMPT = "Play a Band: pick 1 to 10 cards of your hand of one tribe or one colour"


def band_prompt(tribes: list[str]) -> str:
    """The band's prompt, naming the Skeletons' rule only when they are in the game."""
    if "skeletons" in tribes:
        return (f"{BAND_PROMPT} (Skeletons are wild), and the Leader among them "
                "(not a Skeleton)")
    return f"{BAND_PROMPT}, and the Leader among them"


def choices(game: Any, seat: int) -> list[Choice]:
    """How ``seat``'s answers are built: a band is picked from the hand (cards and
    a Leader); every other answer is one of the legal list. Cheap: it lists no band
    (any card that can lead is a band of one)."""
    stage = game.stage
    hand = game.hands[seat] if 0 <= seat < len(game.hands) else []
    prompt = FLOW.prompt(stage)
    if stage not in (r.TURN, r.CENTAUR) or not bands.can_play_band(hand):
        return [PickOne(prompt)]
    pick = PickCards(command=PlayBand.NAME, arg="cards", options=tuple(hand_order(hand)),
                     low=1, high=len(hand), zone="hand", mark="leader",
                     prompt=band_prompt(list(game.tribes)))
    others = stage == r.CENTAUR or recruit.can_recruit(hand)  # end_band, or a recruit
    return [PickOne(prompt), pick] if others else [pick]


def list_complete(game: Any, seat: int) -> bool:
    """False when ``seat`` may play a band and its bands are too many to list
    (``LIST_LIMIT``): the ``PickCards`` choice then describes them."""
    stage = game.stage
    if stage not in (r.TURN, r.CENTAUR):
        return True
    return len(bands.legal_play_band(game, seat)) <= LIST_LIMIT
