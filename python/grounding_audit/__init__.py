"""Run the bundled grounding-audit binary and get its documents back.

    >>> import grounding_audit
    >>> grounding_audit.check("logs/", min_rate=0.9).passed
    True
    >>> grounding_audit.summary("logs/", since="7d")["totals"]["grounded_rate"]
    0.93

Options are the command line's flags, spelled in Python: ``min_rate=0.9`` is
``--min-rate 0.9``, ``per_agent=True`` is ``--per-agent`` (``False`` and
``None`` leave a flag out), and a list repeats a flag (``set=["a=/x",
"b=/y"]``). Each function runs the binary once and parses its JSON document;
an exit code that is not the command's own answer raises
:class:`GroundingAuditError` with the code and the tool's message.

Paths are always paths: they follow ``--`` on the command line, so a file
named ``--html=x`` is read, never taken for a flag. An empty list of paths
is refused (the binary would read standard input). What the tool says on
its error stream beside a document (notes such as an empty time window,
warnings about the input) is raised as :class:`GroundingAuditWarning`, one
Python warning a line.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

__all__ = [
    "CheckResult",
    "GroundingAuditError",
    "GroundingAuditWarning",
    "argv",
    "check",
    "find_binary",
    "report",
    "run",
    "summary",
]

PathArg = Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]]

_EXE = "grounding-audit" + (".exe" if sys.platform == "win32" else "")


class GroundingAuditWarning(UserWarning):
    """A note or warning the tool wrote beside its document (an empty time
    window, lines it could not read, a setting it ignored)."""


class GroundingAuditError(RuntimeError):
    """The binary exited with a code that is not the command's answer:
    2 usage, 3 input, 4 output (see the README's exit codes)."""

    def __init__(self, args: Sequence[str], exit_code: int, stderr: str):
        self.argv = list(args)
        self.exit_code = exit_code
        self.stderr = stderr
        first = stderr.strip().splitlines()[0] if stderr.strip() else "no message"
        super().__init__(f"grounding-audit exited {exit_code}: {first}")


def find_binary() -> str:
    """The grounding-audit binary: ``$GROUNDING_AUDIT_BIN`` when set, else
    the one the wheel installed beside this interpreter's scripts (also for
    ``--user`` and ``--target`` installs), else one on ``PATH``."""
    given = os.environ.get("GROUNDING_AUDIT_BIN")
    if given:
        return given
    candidates = [Path(sysconfig.get_path("scripts")) / _EXE]
    user_scheme = {"nt": "nt_user", "posix": "posix_user"}.get(os.name)
    if sys.platform == "darwin" and sys._framework:  # type: ignore[attr-defined]
        user_scheme = "osx_framework_user"
    if user_scheme and user_scheme in sysconfig.get_scheme_names():
        candidates.append(Path(sysconfig.get_path("scripts", scheme=user_scheme)) / _EXE)
    # pip install --target DIR puts scripts in DIR/bin beside the package.
    candidates.append(Path(__file__).resolve().parent.parent / "bin" / _EXE)
    for c in candidates:
        if c.is_file():
            return str(c)
    found = shutil.which(_EXE)
    if found:
        return found
    raise FileNotFoundError(
        "grounding-audit binary not found (looked in "
        + ", ".join(str(c) for c in candidates)
        + " and on PATH); reinstall the wheel or set GROUNDING_AUDIT_BIN"
    )


def _flag(name: str) -> str:
    return "--" + name.rstrip("_").replace("_", "-")


def argv(command: str, paths: PathArg = (), **options: Any) -> List[str]:
    """The arguments after the binary's name: the command, the flags from
    ``options`` in the order given, then ``--`` and the paths (so a path
    that starts with ``-`` is still a path). An empty list of paths raises
    :class:`ValueError`."""
    out = [command]
    for name, value in options.items():
        if value is None or value is False:
            continue
        flag = _flag(name)
        if value is True:
            out.append(flag)
        elif isinstance(value, (list, tuple)):
            for v in value:
                out += [flag, os.fspath(v) if isinstance(v, os.PathLike) else str(v)]
        else:
            out += [flag, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    if not paths:
        raise ValueError(
            f"{command}() needs at least one path (the binary would read standard input)"
        )
    return out + ["--", *paths]


def run(
    args: Sequence[str], ok: Sequence[int] = (0,), decision: bool = False
) -> subprocess.CompletedProcess:
    """Runs the binary with ``args``; an exit code outside ``ok`` raises
    :class:`GroundingAuditError`. Each other line on its error stream is a
    :class:`GroundingAuditWarning`, except, with ``decision``, ``check``'s
    own decision and gate lines (its document holds them)."""
    proc = subprocess.run(
        [find_binary(), *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
    )
    if proc.returncode not in ok:
        raise GroundingAuditError(args, proc.returncode, proc.stderr)
    for line in proc.stderr.splitlines():
        if not line.strip() or (decision and _decision_line(line)):
            continue
        warnings.warn(line, GroundingAuditWarning, stacklevel=3)
    return proc


def _decision_line(line: str) -> bool:
    """Whether ``line`` is part of check's decision text on its error stream."""
    return line[:1].isspace() or line.split(" ", 1)[0] in ("PASS", "FAIL", "ERROR")


def _document(command: str, paths: PathArg, options: Dict[str, Any]) -> Dict[str, Any]:
    if "format" in options:
        raise TypeError(f"{command}() returns the JSON document; it takes no format")
    return json.loads(run(argv(command, paths, format="json", **options)).stdout)


def summary(paths: PathArg, **options: Any) -> Dict[str, Any]:
    """``grounding-audit summary --format json``: totals, groups, trend,
    triage list, retrieval use, input accounting (see docs/summary.md)."""
    return _document("summary", paths, options)


def report(paths: PathArg, **options: Any) -> Dict[str, Any]:
    """``grounding-audit report --format json``: one page of graded rows
    (``all=True``: every row) under ``"rows"`` (see docs/report.md)."""
    return _document("report", paths, options)


@dataclass
class CheckResult:
    """What ``check`` decided: ``passed`` (exit 0), the decision line
    (``PASS …``, ``FAIL …``, ``ERROR …``), the exit code and the JSON
    document (``decision``, ``gates``, ``rollup``, ``agents``, ``input``)."""

    passed: bool
    decision: str
    exit_code: int
    document: Dict[str, Any] = field(repr=False)

    def __bool__(self) -> bool:
        return self.passed

    @property
    def grounded_rate(self) -> Optional[float]:
        return self.document.get("rollup", {}).get("grounded_rate")


def check(paths: PathArg, **options: Any) -> CheckResult:
    """``grounding-audit check --format json`` with the gates in
    ``options`` (``min_rate=0.9``, ``per_agent=True``, ``baseline=…``).
    A failing gate is a result (``passed`` false), not an exception; so is
    an ``ERROR`` decision (a missing baseline or policy, exit 3) when check
    wrote its document. Usage errors raise :class:`GroundingAuditError`."""
    if "format" in options:
        raise TypeError("check() returns the JSON document; it takes no format")
    args = argv("check", paths, format="json", **options)
    proc = run(args, ok=(0, 1, 3), decision=True)
    try:
        doc = json.loads(proc.stdout)
    except ValueError:
        raise GroundingAuditError(args, proc.returncode, proc.stderr) from None
    return CheckResult(
        passed=proc.returncode == 0,
        decision=doc.get("line", ""),
        exit_code=proc.returncode,
        document=doc,
    )
