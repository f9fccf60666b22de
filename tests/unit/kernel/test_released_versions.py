"""A game's earlier released versions are declared once, as data
(``kernel.released_versions``): each class is the served one with its version
alone, named and placed as the catalogue and the stored topics name it."""

from __future__ import annotations

import pytest
from eventsourcing.utils import get_topic, resolve_topic

from aggregates import catalog
from aggregates.ettin import Ettin
from aggregates.kernel import released_versions
from aggregates.kernel.released import version_suffix
from aggregates.nine_empires import NineEmpires


@pytest.mark.parametrize(("version", "suffix"), [("1.6.0", "1_6"), ("1.0.0", "1"), ("3", "3"),
                                                 ("1.10.0", "1_10"), ("2.0.1", "2_0_1")])
def test_a_version_names_its_class(version: str, suffix: str) -> None:
    assert version_suffix(version) == suffix


@pytest.mark.parametrize("key", sorted(catalog.RELEASED))
def test_every_released_class_is_its_topic_and_its_version(key: tuple[str, str]) -> None:
    cls = catalog.RULES[key]
    assert get_topic(cls) == catalog.RELEASED[key]
    assert resolve_topic(get_topic(cls)) is cls
    assert resolve_topic(get_topic(cls.Created)) is cls.Created
    own = set(vars(cls)) - {"RULES_VERSION", "deal_nations"}
    assert all(name.startswith("_") or isinstance(vars(cls)[name], type) for name in own)
    assert key == (cls.RULES_ID, cls.RULES_VERSION)


def test_ettin_versions_stay_a_chain_with_version_1_dealing_each_box_apart() -> None:
    v3, v2, v1 = (catalog.RULES[("ettin", v)] for v in ("3", "2", "1"))
    assert v3.__bases__ == (Ettin,) and v2.__bases__ == (v3,) and v1.__bases__ == (v2,)
    assert "deal_nations" in vars(v1) and "deal_nations" not in vars(v2)


@pytest.mark.parametrize("version", [NineEmpires.RULES_VERSION, "0.9.0"])
def test_only_a_version_its_earlier_rules_declare_is_released(version: str) -> None:
    with pytest.raises(ValueError, match="not an earlier version"):
        released_versions(NineEmpires, __name__, version)
