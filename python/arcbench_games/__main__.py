"""`python3 -m arcbench_games`: one game host, serving requests on stdin until stdin closes."""

import sys

from .host import serve

if __name__ == "__main__":
    sys.exit(serve())
