"""The decisions a Titans seat can be asked (each a ``Decision.kind``), with prompts.

Each is a step of the flow (``flow.py`` lists the moves that answer it); the
game's ``pending()`` says who is asked which, from the state alone.
"""

from __future__ import annotations

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
