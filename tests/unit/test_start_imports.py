"""What a server or CLI process imports to start: not the web side's aiohttp
unless it serves pages, and no released rules version until a record of it is
read (each cost every process start about half a second)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from aggregates.catalog import Rules
from aggregates.enin import Enin

PROBE = """
import json, sys
import service.main
from aggregates import catalog
before = {m: m in sys.modules for m in ("aiohttp", "aggregates.ettin.v1",
                                        "aggregates.nine_empires.v1")}
known = sorted(catalog.RULES)
catalog.rules_class("nine_empires", "1.1.0")
after = "aggregates.nine_empires.v1" in sys.modules
print(json.dumps({"before": before, "known": known, "after": after}))
"""


def test_a_server_starts_without_aiohttp_or_the_released_rules() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    found = json.loads(out)
    assert not any(found["before"].values()), found["before"]
    # The released versions are known by key all the same, and load when asked for.
    assert ["ettin", "1"] in found["known"] and ["nine_empires", "1.0.0"] in found["known"]
    assert found["after"]


def test_a_released_entry_must_be_the_class_of_its_key() -> None:
    wrong = Rules({}, {("enin", "9"): "aggregates.enin:Enin"})
    assert ("enin", "9") in list(wrong)
    with pytest.raises(ValueError, match="listed as"):
        wrong[("enin", "9")]
    with pytest.raises(ValueError, match="two games share"):
        Rules({("enin", Enin.RULES_VERSION): Enin},
              {("enin", Enin.RULES_VERSION): "aggregates.enin:Enin"})
    with pytest.raises(KeyError):
        Rules({}, {})[("enin", "1")]
