"""``tablezoo serve``: its flags into ``ServeSettings`` (``training/web/server.py``)."""

from __future__ import annotations

import argparse

from tablezoo.training.cli.options import make_parser
from tablezoo.training.runs import SettingsError
from tablezoo.training.web import server
from tablezoo.training.web.server import ServeSettings, serve


def build_parser() -> argparse.ArgumentParser:
    p = make_parser("serve", server.__doc__)
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on; 127.0.0.1 keeps it to this machine, 0.0.0.0 "
                        "opens it to the network on purpose")
    p.add_argument("--port", type=int, default=8765, help="port to listen on")
    p.add_argument("--log-level", default="warning",
                   choices=("critical", "error", "warning", "info", "debug"),
                   help="uvicorn's log level (info logs every request)")
    p.add_argument("--models", nargs="+", default=[], metavar="DIR",
                   help="folders of your own models (*.zip, *.npz below them), offered as "
                        "model:NAME; trusted: a MaskablePPO zip is a pickle, loading runs it")
    p.add_argument("--token", default=None,
                   help="the token scripts send as 'Authorization: token T' (default: random, "
                        "printed at start)")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        serve(ServeSettings(host=args.host, port=args.port, log_level=args.log_level,
                            models=args.models, token=args.token))
    except SettingsError as exc:
        parser.error(str(exc))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
