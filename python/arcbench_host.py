"""Started by arcbench for a Python agent (docs/agent-protocol.md): python3 arcbench_host.py FILE [CLASS]."""

import os
import sys

if sys.version_info < (3, 10):
    os.write(int(os.environ.get("ARCBENCH_ANSWER_FD", "3")), b'{"type":"error","message":"arcbench runs Python agents on Python 3.10 or newer; this is Python %d.%d: set the agent entry\'s python: or ARCBENCH_PYTHON to a newer interpreter"}\n' % sys.version_info[:2])
    sys.exit(1)

from arcbench_agent.host import main  # noqa: E402  (after the version check, which must run on old Pythons)

sys.exit(main(sys.argv[1:]))
