"""``clients.rich_status`` is ``arbiter.rich_status`` (moved with the client library).

Kept so that code importing the old name still finds the same module object
(see ``clients/client.py`` for why an alias rather than a copy of names).
"""

from __future__ import annotations

import sys

from arbiter import rich_status as _library
from arbiter.rich_status import *  # noqa: F403 - the names, for readers and type checkers

sys.modules[__name__] = _library
