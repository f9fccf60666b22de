"""Nine Empires rules versions "1.0.0" to "1.6.0": kept so the games recorded
under them are re-verified by the rules that played them
(docs/rules-versions.md).

Version 1.7.0 asks a React window again after a React on it resolves: 1.6.0
and before asked each seat of a window once, in precedence, so a seat that
Reacted (holding a second React to the same announcement) or that passed
before another's React was not asked again, and the window closed when every
seat had answered once. 1.7.0 asks the window again from the seat with
precedence, in its order, and closes it when every seat passes in a row since
the last React (React abilities: precedence to the Ordained, or the defender
in a battle or raid; ``turn_order.reacted``; ``state.EARLIER_ONCE``).

Version 1.6.0 records no closing of a React window: 1.5.0 and before also
recorded an ability resolved (``AbilityResolved``: after its effects, which
are facts of their own, or spent when cancelled, which ``AbilityCancelled``
states) and an engagement resolved (``EngagementResolved``: after the damage
absorbed, with the damage left unabsorbed, which the last ``DamageAbsorbed``'s
``remaining`` states). 1.6.0 closes each window in the apply of the fact
that closes it: an ability's with the last React passed (or its announcement,
when nobody can React), the ability resolving then; an engagement's with the
fact that leaves it nothing to absorb (``apply.evolve``;
``state.EARLIER_RESOLVED``).

Version 1.5.0 records no engine progress through a turn: 1.4.0 and before
also recorded the Summer's and Autumn's beginnings with their passing order
(``PhaseBegan``), the Winter's (``WinterBegan``), who redistributes food
(``RedistributionBegan``) and who discards down to hand size
(``HandSizeChecked``). 1.5.0 reads each from the facts before it: the
Spring's ``SpringBegan`` enters the Summer, a phase's ``PhaseEnded`` the next
phase (with the Winter's redistributing players), ``EffectsEnded`` the
Winter's reckoning, whose discarding is read from the hands drawn
(``state.EARLIER_PROGRESS``).

Version 1.4.0 records the rulebook's facts of an engagement alone: 1.3.0 and
before also recorded the engine's steps, ``ImmunityStep`` (a seat is to
declare immunity) and ``AbsorbStep`` (the damage is to be absorbed), which
1.4.0 derives from the facts (``engaging.step``; ``state.EARLIER_STEPS``).

Version 1.3.0 changed two rules toward the rulebook:

- Battle Action & Resolution: "Bow your target unit to return it home" bows
  the whole unit (the hero and its attached cohorts, items and spells), and
  ``ReturnedHome`` names the cards bowed; 1.2.0 and before bowed the hero alone
  (``state.EARLIER_RETURN_HERO``; their stored events read as bowing the hero,
  ``upcasts``).
- "Your" in card text is the card's controller: 1.2.0 and before gave an
  ally's cards in a battle the bonuses of "your" text (Displaced Bunker, General
  Hain, Wizard's Tower, The Apple of Life's reward, the "of yours" targets), and
  counted an ally's hero buried as "opposing" for A Most Peculiar Lamp?
  (``state.EARLIER_YOUR_SIDE``).

Version 1.2.0 records the result as every reader is told it, "Player 1 wins by
a Dominance Victory.", where 1.1.0 and 1.0.0 recorded "seat 0 wins by a
Dominance Victory", counting seats from 0 (``state.EARLIER_SEAT_RESULT``).

Version 1.1.0 changed three rules toward the rulebook, each a choice that 1.0.0
made itself or gave to another player:

- Winter Phase: 1.0.0 placed the food from heroes onto the castle with the most
  room; 1.1.0 lets the player place it (with the redistribution, one choice).
- Declare Attack (multiplayer): 1.0.0 asked every other player to ally; in
  1.1.0 the attacker and the defender call for allies, and only the called
  side can be joined.
- Engaging and Damage (multiplayer): 1.0.0 had the attacker declare immunity
  for the allies' cards too; in 1.1.0 each attacking ally declares its own.

A game is played by the rules of the version its creation event records
(``state.EARLIER_BY_VERSION``, read by ``NineEmpires.EARLIER``): 1.0.0 keeps
those three, 1.1.0's result, 1.2.0's two, 1.3.0's steps, 1.4.0's progress and
1.5.0's resolutions; 1.1.0 the result, 1.2.0's two, the steps, the progress and
the resolutions; 1.2.0 its two, the steps, the progress and the resolutions;
1.3.0 the steps, the progress and the resolutions; 1.4.0 the progress and the
resolutions; 1.5.0 the resolutions; and each of them, and 1.6.0, the windows
asked once. So
these classes differ from the served one by their version alone: each makes
new games of its version (the tests' way to record one), and the catalogue
finds each by the version a record names.
"""

from __future__ import annotations

from aggregates.kernel import released_versions
from aggregates.nine_empires.game import NineEmpires

(NineEmpiresV1_6, NineEmpiresV1_5, NineEmpiresV1_4, NineEmpiresV1_3, NineEmpiresV1_2,
 NineEmpiresV1_1, NineEmpiresV1) = released_versions(
    NineEmpires, __name__, "1.6.0", "1.5.0", "1.4.0", "1.3.0", "1.2.0", "1.1.0", "1.0.0")
