"""``veristep mcp``: the agent tools over the Model Context Protocol.

veristep mcp                         # stdio: what desktop and IDE clients launch
veristep mcp --http [--host 127.0.0.1] [--port 8765]   # streamable HTTP at /mcp
"""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import tempfile

from veristep.core.errors import InputError
from veristep.core.settings import Settings

HELP = "serve the verifiers as MCP tools (stdio by default; --http for streamable HTTP)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--http", action="store_true", help="streamable HTTP instead of stdio")
    parser.add_argument("--host", default="127.0.0.1", help="with --http (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="with --http (default 8765)")


def run(args: argparse.Namespace, settings: Settings) -> int:
    if not args.http and (args.host != "127.0.0.1" or args.port != 8765):
        raise InputError("--host and --port need --http")
    if not 0 < args.port < 65536:
        raise InputError(f"--port must be between 1 and 65535, got {args.port}")
    try:
        import anyio

        from veristep.tools.mcp_server import VeristepMCP
    except ModuleNotFoundError as exc:
        raise InputError(
            f"the MCP server needs the optional 'mcp' extra (missing module {exc.name!r}): "
            "pip install 'veristep[mcp]'"
        ) from None
    _private_working_directory(settings)
    server = VeristepMCP(settings)
    if args.http:
        anyio.run(server.run_http, args.host, args.port)
    else:
        anyio.run(server.run_stdio)
    return 0


def _private_working_directory(settings: Settings) -> None:
    """Run from an empty folder of our own under the data directory: coqtop loads compiled
    libraries (and through them plugins) from its working directory, so a client's
    ``Require Import Foo`` must not find whatever ``Foo.vo`` the launching folder holds."""
    parent = settings.data_dir / "mcp"
    parent.mkdir(parents=True, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="cwd-", dir=parent)
    os.chdir(folder)
    atexit.register(shutil.rmtree, folder, True)
