"""``clients.client`` is ``arbiter.client``: the client library's repository name.

The library lives in the ``arbiter`` package (``protos/arbiter/client.py``) so
that an integrator can install it alone, without the server's dependencies and
without top-level ``clients``/``service``/``aggregates`` modules
(``pip install ./protos``, see ``protos/pyproject.toml``). The CLI, the tests
and bots written before the move import it by this name; this module puts the
library itself in its place in ``sys.modules`` instead of copying its names,
so there is one module: patching a setting here (``RETRY_BACKOFF``) patches
the library, and ``clients.client.ArbiterError is arbiter.client.ArbiterError``.
"""

from __future__ import annotations

import sys

from arbiter import client as _library
from arbiter.client import *  # noqa: F403 - the names, for readers and type checkers

sys.modules[__name__] = _library
