"""``arbiter ARGS`` run by its entry point in the test process, as a subprocess
would run it but without starting one.

A ``python -m clients.cli`` process spends most of its life starting: the
interpreter, gRPC and the client library, 0.15 s of CPU quiet and seconds on
a loaded 2-core machine, against tens of milliseconds for the command itself.
The tests that check what a command prints and the status it exits with run
it here: ``clients.cli.main(argv)`` (what the console script calls), with the
environment, working directory and standard input the subprocess would have
had, its standard output and error captured, and its exit status, usage
errors (argparse's ``SystemExit``) included. The answer is the
``subprocess.CompletedProcess`` the subprocess call gave, so a test reads it
the same way.

What only a real process shows (the console script, ``python -m``, the exit
status the interpreter gives, a live ``tail``) stays with the tests that run
one: ``test_cli_conveniences``, ``test_cli_json`` and the ``tail`` tests.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from clients.cli import main


@contextlib.contextmanager
def _environment(env: Mapping[str, str] | None, cwd: str | Path | None) -> Iterator[None]:
    """``os.environ`` is exactly ``env`` (None: as it is) and the working
    directory ``cwd`` (None: as it is) for the block; both restored after."""
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    try:
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        if cwd is not None:
            os.chdir(cwd)
        yield
    finally:
        os.chdir(saved_cwd)
        if env is not None:
            os.environ.clear()
            os.environ.update(saved_env)


def exit_status(code: object) -> int:
    """The status ``sys.exit(code)`` gives a process (argparse exits 0 or 2)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    sys.stderr.write(f"{code}\n")
    return 1


def run_cli(args: Sequence[str], *, stdin: str | None = None,
            env: Mapping[str, str] | None = None,
            cwd: str | Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m clients.cli ARGS`` as ``subprocess.run(..., capture_output=True,
    text=True, input=stdin, env=env, cwd=cwd)`` would run it, in this process.
    No input reads as an empty standard input (end of file at once)."""
    argv = [str(arg) for arg in args]
    out, err = io.StringIO(), io.StringIO()
    with _environment(env, cwd), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        saved_stdin = sys.stdin
        sys.stdin = io.StringIO(stdin or "")
        try:
            status = main(argv)
        except SystemExit as exc:
            status = exit_status(exc.code)
        finally:
            sys.stdin = saved_stdin
    return subprocess.CompletedProcess([sys.executable, "-m", "clients.cli", *argv], status,
                                       _text(out.getvalue()), _text(err.getvalue()))


def _text(written: str) -> str:
    """What ``text=True`` reads from a pipe: universal newlines (``\\r\\n`` and a
    lone ``\\r`` read as ``\\n``)."""
    return written.replace("\r\n", "\n").replace("\r", "\n")
