"""Runs the official toolkit's own REST server (arc_agi.server.create_app, the server Kaggle's competition
gateway runs) over the toolkit's test games, on a free port of 127.0.0.1; prints its URL on the first line
of stdout, then serves until it is terminated. Argument: the games folder; `--competition` serves in
competition mode. Nothing of the server is changed: the tests compare arcbench's answers with its own."""

import logging
import sys

# The toolkit logs to stdout on import: stdout is kept for the URL alone.
url_out, sys.stdout = sys.stdout, sys.stderr

from arc_agi import Arcade
from arc_agi.base import OperationMode
from arc_agi.server import create_app
from werkzeug.serving import make_server


def main():
    games_dir = sys.argv[1]
    quiet = logging.getLogger("official-toolkit-server")
    quiet.setLevel(logging.CRITICAL)
    arcade = Arcade(operation_mode=OperationMode.OFFLINE, environments_dir=games_dir, logger=quiet)
    app, _api = create_app(arcade, competition_mode="--competition" in sys.argv[2:])
    server = make_server("127.0.0.1", 0, app, threaded=True)
    url_out.write(f"http://127.0.0.1:{server.server_port}\n")
    url_out.flush()
    server.serve_forever()


main()
