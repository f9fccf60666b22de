"""Ethnos' earlier rules version, kept so the games recorded under it are
re-verified by the rules that played them (docs/rules-versions.md).

- 1.1.0 (served) leaves a Wizards Leader's draw waiting on the seat's answer by
  the band's discard (``HandDiscarded``); 1.0.0 also recorded the offer as an
  event of its own, ``WizardsOffered`` (``state.PROGRESS_RECORDED``).

No event changed shape, so nothing is upcast. A game is played by the rules of
the version its creation event records (``Ethnos.earlier``), so this class only
names its version: it creates games of it and is the class ``catalog.RULES``
finds for their records; a stored 1.0.0 game loaded by the served class goes
on by 1.0.0 too.
"""

from __future__ import annotations

from aggregates.ethnos.game import Ethnos


class EthnosV1(Ethnos):
    RULES_VERSION = "1.0.0"
