"""``quintet verify FILE.json``: check a certificate without trusting the solver.

The checks are :mod:`solver.verify`'s, which shares no game code with the
solver.  Exit status (docs/limits.md):

* 0: **verified**, every claim of the file checked;
* 1: a check failed, the claim is false (named on stderr);
* 2: the file is not a certificate, cannot be read, or exceeds a limit
  (:mod:`solver.verify.limits`: named in the one line on stderr);
* 3: **not verified**: no check failed, but some claim could not be checked
  (a bound whose search ran out of time, or that no method here can settle);
  the first line says so and which.

A script that reads only the exit status can therefore never take an
unchecked claim for a verified one.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Any

from solver.app.arguments import positive_float, positive_int
from solver.app.command import Command
from solver.cli.progress import Progress
from solver.errors import (
    CertificateLimitError,
    FileError,
    NotACertificateError,
    VerificationError,
)
from solver.util.files import read_text_limited
from solver.verify import verify_document
from solver.verify.limits import MAX_PAIRS, parse_json

__all__ = ["COMMANDS", "EXIT_FAILED", "EXIT_UNCHECKED", "MAX_CERTIFICATE_BYTES", "VerifyOutput"]

MAX_CERTIFICATE_BYTES = 64 * 1024 * 1024
EXIT_FAILED = 1
"""A check failed: the certificate claims something false."""
EXIT_UNCHECKED = 3
"""No check failed, but some claim was not checked: not verified."""


@dataclass(frozen=True)
class VerifyOutput:
    """What ``verify`` prints and its exit status (0 verified, 1 failed, 3 not all checked)."""

    text: str
    payload: dict[str, Any]
    status: int


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        metavar="FILE.json",
        help="a certificate (quintet equilibrium --certificate FILE.json)",
    )
    parser.add_argument(
        "--time-limit",
        type=positive_float,
        default=None,
        metavar="S",
        help="seconds for the best-response bounds' searches in all (default: the "
        "verifier's own); a bound not settled in time leaves the file not verified (exit 3)",
    )
    parser.add_argument(
        "--max-pairs",
        type=positive_int,
        default=MAX_PAIRS,
        metavar="N",
        help=f"most pairs of distinct arrangements to score exactly (default {MAX_PAIRS:,})",
    )


def _load(path: str) -> Any:
    text = read_text_limited(path, max_bytes=MAX_CERTIFICATE_BYTES)
    try:
        return parse_json(text)
    except NotACertificateError as error:
        raise FileError(f"{path}: {error}") from None
    except CertificateLimitError as error:
        raise FileError(f"{path}: not read: {error}") from None


def _verify(args: argparse.Namespace) -> VerifyOutput:
    document = _load(args.file)
    progress, last = Progress(), {"line": ""}  # the last line, ended after the search

    def show(line: str) -> None:
        last["line"] = line
        progress.show(line, final=False)

    try:
        report = verify_document(
            document, time_limit=args.time_limit, progress=show, max_pairs=args.max_pairs
        )
    except NotACertificateError as error:
        raise FileError(f"{args.file}: {error}") from None
    except CertificateLimitError as error:
        raise CertificateLimitError(f"{args.file}: {error}", mentions=error.mentions) from None
    except VerificationError as error:
        print(f"quintet verify: FAILED: {error}", file=sys.stderr)
        payload = {"verified": False, "status": "failed", "failure": str(error)}
        return VerifyOutput(f"FAILED: {error}", payload, EXIT_FAILED)
    finally:
        if last["line"]:  # it stays, ended (on a terminal: its newline)
            progress.show(last["line"], final=True)
    if report.complete:
        head, status, code = f"{args.file}: verified", "verified", 0
    else:
        count = len(report.unverified)
        head = (
            f"{args.file}: NOT verified: {count} claim{'s' * (count != 1)} not checked "
            "(none failed)"
        )
        status, code = "unchecked", EXIT_UNCHECKED
    lines = [head] + [f"  NOT checked: {line}" for line in report.unverified]
    lines += [f"  checked: {line}" for line in report.checked]
    payload = {
        "verified": report.complete,
        "status": status,
        "checked": report.checked,
        "unverified": report.unverified,
    }
    return VerifyOutput("\n".join(lines), payload, code)


COMMANDS: list[Command] = [
    Command(
        "verify",
        "check a certificate (quintet equilibrium --certificate) in exact arithmetic, "
        "without the solver's code",
        _arguments,
        _verify,
        rules=False,
        flags={"max_pairs": "--max-pairs", "time_limit": "--time-limit"},
    )
]
