"""The ``veristep`` command line: one dispatcher, one module per subcommand family.

Each subcommand lives next to the code it drives, in a ``commands`` module that exposes
``HELP`` (one line), ``add_arguments(parser)`` and ``run(args, settings) -> int``. Those modules
import their heavy dependencies inside ``run`` so that ``veristep --help`` stays fast. A module
keeps to its subpackage's place in the import order; what it needs from above that place the
dispatcher hands in as keyword arguments of ``run`` (:func:`_handed_in`).

Exit codes (docs/design.md): 0 done whatever the verdict, 2 usage or input error (one located
line on stderr), 1 internal failure.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence
from importlib import import_module
from types import ModuleType
from typing import Any

from veristep import __version__
from veristep.core.errors import InputError
from veristep.core.interrupts import exit_soon, raise_on_sigterm
from veristep.core.settings import Settings

SUBCOMMANDS: dict[str, str] = {
    "parse": "veristep.mathgraph.commands",
    "check": "veristep.grounding.commands",
    "derive": "veristep.propose.commands",
    "serve": "veristep.web.commands",
    "alps": "veristep.alps.commands",
    "prove": "veristep.formal.commands",
    "review": "veristep.review.commands",
    "data": "veristep.data.commands",
    "do": "veristep.workspace.commands",
    "mcp": "veristep.tools.commands",
}

EXIT_OK, EXIT_INTERNAL, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line with exit code 2 (its own default too)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _load(module_name: str) -> ModuleType | None:
    try:
        return import_module(module_name)
    except ModuleNotFoundError as exc:
        # Only a missing *subcommand module* is tolerated (an optional part not installed);
        # any other missing import is a real failure and must surface.
        if exc.name == module_name:
            return None
        raise


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser, or (``only``) the parser of one subcommand alone.

    A run of one subcommand imports that subcommand's module and nothing else: the others pull in
    their packages (web, formal, review, ...), which a ``veristep derive`` never uses. Without
    ``only`` every subcommand is listed, but their arguments (whose choices may need SymPy) are
    added only when one is selected.
    """
    parser = _Parser(
        prog="veristep",
        description="A proposer writes mathematics step by step; a verifier judges every step.",
    )
    parser.add_argument("--version", action="version", version=f"veristep {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, module_name in SUBCOMMANDS.items():
        if only is not None and name != only:
            continue
        module = _load(module_name)
        if module is None:
            continue
        cmd = sub.add_parser(name, help=module.HELP, description=module.HELP)
        cmd.set_defaults(_module=module)
        if only is not None:
            module.add_arguments(cmd)
    return parser


def _subcommand_of(argv: Sequence[str]) -> str | None:
    """The subcommand named by ``argv`` (its first word), or None (help, version, a typo)."""
    return argv[0] if argv and argv[0] in SUBCOMMANDS else None


# Subcommands whose positional arguments are mathematics: there `-6x` or `-x^2 + 1` is a value,
# not an unknown option, so a user need not type `--` before it.
MATHS_COMMANDS = frozenset({"derive", "check", "do"})
_MATHS_MARK = " "  # argparse takes an argument that starts with a space as a value, never an option


def _protect_maths(argv: Sequence[str], options: Sequence[str]) -> tuple[list[str], set[str]]:
    """Mark every argument that starts with ``-`` but is none of the subcommand's ``options``
    (nor ``--``, nor ``--name=value``) as a value; returns the new argv and the marked values."""
    out, marked = [], set()
    for index, arg in enumerate(argv):
        if arg == "--":  # the user separated values already: leave the rest alone
            out.extend(argv[index:])
            break
        looks_like_option = arg in options or (arg.startswith("--") and len(arg) > 2)
        if arg.startswith("-") and len(arg) > 1 and not looks_like_option:
            arg = _MATHS_MARK + arg
            marked.add(arg)
        out.append(arg)
    return out, marked


def _unmark(args: argparse.Namespace, marked: set[str]) -> None:
    """Remove the mark from the values :func:`_protect_maths` marked, wherever they landed."""
    for name, value in vars(args).items():
        if isinstance(value, str) and value in marked:
            setattr(args, name, value[len(_MATHS_MARK) :])
        elif isinstance(value, list):
            setattr(args, name, [v[len(_MATHS_MARK) :] if v in marked else v for v in value])


def _parse(argv: Sequence[str]) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    command = _subcommand_of(argv)
    parser = build_parser(only=command)
    marked: set[str] = set()
    if command in MATHS_COMMANDS:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        options = list(sub.choices[command]._option_string_actions)
        rest, marked = _protect_maths(argv[1:], options)
        argv = [command, *rest]
    args = parser.parse_args(argv)
    _unmark(args, marked)
    return parser, args


def main(argv: Sequence[str] | None = None) -> int:
    parser, args = _parse(sys.argv[1:] if argv is None else list(argv))
    if getattr(args, "_module", None) is None:
        parser.print_help()
        return EXIT_USAGE
    if not os.environ.get("VERISTEP_DEBUG"):
        # A library warning (SymPy's run to eleven lines) would break the one-line stderr contract.
        warnings.simplefilter("ignore")
    raise_on_sigterm()  # SIGTERM unwinds like Ctrl-C: workers and provers are killed, not left
    try:
        settings = Settings.from_env(os.environ)
        return int(args._module.run(args, settings, **_handed_in(args)) or 0)
    except InputError as err:
        print(f"veristep {args.command}: {err.one_line()}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM; the message says what was kept
        print(f"veristep {args.command}: {str(exc) or 'interrupted'}", file=sys.stderr)
        return 130
    except Exception as exc:  # the last line of defence: one line, no traceback unless asked
        if os.environ.get("VERISTEP_DEBUG"):
            raise
        print(
            f"veristep {args.command}: internal error: {type(exc).__name__}: {exc}", file=sys.stderr
        )
        return EXIT_INTERNAL


def _handed_in(args: argparse.Namespace) -> dict[str, Any]:
    """What a subcommand needs from above its own layer (docs/design.md: imports flow one way):
    the learner view of ``check`` names each wrong step's slip with the workspace's namer."""
    if args.command == "check" and getattr(args, "view", None) == "learner":
        from veristep.workspace.slips import name_slip

        return {"name_slip": name_slip}
    return {}


def entry() -> None:
    """The ``veristep`` program: :func:`main`, then an exit that an interrupt cannot stall."""
    code = main()
    if code == 130:
        exit_soon(code)  # a library's exit handler must not keep an interrupted run alive
    sys.exit(code)


if __name__ == "__main__":
    entry()
