"""``quintet verify FILE.json``: check a certificate without trusting the solver.

The checks are :mod:`solver.verify`'s, which shares no game code with the
solver.  Exit status: 0 when every check passes (the output lists them, and
what could not be checked), 1 at the first check that fails (named on
stderr), 2 when the file is not a certificate or cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from typing import Any

from solver.app.command import Command
from solver.errors import FileError, NotACertificateError, UsageError, VerificationError
from solver.util.files import read_text_limited
from solver.verify import verify_document
from solver.verify.bounds import scipy_available

__all__ = ["COMMANDS", "MAX_CERTIFICATE_BYTES", "VerifyOutput"]

MAX_CERTIFICATE_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class VerifyOutput:
    """What ``verify`` prints and its exit status (1: a check failed)."""

    text: str
    payload: dict[str, Any]
    status: int


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        metavar="FILE.json",
        help="a certificate (quintet equilibrium --certificate FILE.json)",
    )


def _load(path: str) -> Any:
    text = read_text_limited(path, max_bytes=MAX_CERTIFICATE_BYTES)
    try:
        return json.loads(text)
    except ValueError as error:
        raise FileError(f"{path}: not a certificate: not JSON ({error})") from None


def _verify(args: argparse.Namespace) -> VerifyOutput:
    document = _load(args.file)
    if isinstance(document, dict) and document.get("payoff") == "margin" and not scipy_available():
        raise UsageError(
            "quintet: error: verify needs scipy for the margin payoff's MILP: "
            "pip install 'quintet-solver[verify]'"
        )
    try:
        report = verify_document(document)
    except NotACertificateError as error:
        raise FileError(f"{args.file}: {error}") from None
    except VerificationError as error:
        print(f"quintet verify: FAILED: {error}", file=sys.stderr)
        payload = {"verified": False, "failure": str(error)}
        return VerifyOutput(f"FAILED: {error}", payload, 1)
    lines = [f"{args.file}: verified"] + [f"  checked: {line}" for line in report.checked]
    lines += [f"  NOT checked: {line}" for line in report.unverified]
    payload = {"verified": True, "checked": report.checked, "unverified": report.unverified}
    return VerifyOutput("\n".join(lines), payload, 0)


COMMANDS: list[Command] = [
    Command(
        "verify",
        "check a certificate (quintet equilibrium --certificate) in exact arithmetic, "
        "without the solver's code",
        _arguments,
        _verify,
        rules=False,
    )
]
