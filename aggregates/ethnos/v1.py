"""Ethnos' earlier rules version, kept so the games recorded under it are
re-verified by the rules that played them (docs/rules-versions.md).

- 1.1.0 (served) leaves a Wizards Leader's draw waiting on the seat's answer by
  the band's discard (``HandDiscarded``); 1.0.0 also recorded the offer as an
  event of its own, ``WizardsOffered`` (``state.PROGRESS_RECORDED``).

No event changed shape, so nothing is upcast, and a game plays by the rules
its creation records (``Ethnos.EARLIER_RULES``, read by the kernel's
``Game.earlier``): this class only names 1.0.0, for the catalogue.
"""

from __future__ import annotations

from aggregates.ethnos.game import Ethnos
from aggregates.kernel import released_versions

(EthnosV1,) = released_versions(Ethnos, __name__, "1.0.0")
