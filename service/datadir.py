"""The data directory is the operator's alone.

It holds the SQLite store (every seed and deck order before the games end),
its WAL, the server secret and the admin token. The server makes it 0700 and
everything in it 0600 (folders 0700), tightening what an older release or a
loose umask left, and runs with a umask of 077 so that whatever it or the
libraries it uses create later (the store's WAL and shared-memory files, the
relay's position, the private Redis's folder) is born private too.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

DIR_MODE = 0o700
FILE_MODE = 0o600


def make_private(data_dir: Path) -> None:
    """Create ``data_dir`` if needed and make it and its contents private."""
    os.umask(0o077)
    data_dir.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    _tighten(data_dir, DIR_MODE)
    for root, dirs, files in os.walk(data_dir):
        for name in dirs:
            _tighten(Path(root) / name, DIR_MODE)
        for name in files:
            _tighten(Path(root) / name, FILE_MODE)


def _tighten(path: Path, mode: int) -> None:
    """Take away group and other access from a path of ours (never follow a link)."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return
    if stat.S_ISLNK(info.st_mode) or info.st_uid != os.getuid():
        return
    if stat.S_IMODE(info.st_mode) & 0o077:
        path.chmod(stat.S_IMODE(info.st_mode) & mode)
