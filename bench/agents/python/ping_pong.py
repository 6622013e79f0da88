"""The bench's floor for the agent protocol: a bare round trip between arcbench and a python3 process
over the same pipes (a line on stdin, a short answer on fd 3), with nothing decoded and nothing decided.
"""

import os
import sys

requests = sys.stdin.buffer
answer_fd = int(os.environ.get("ARCBENCH_ANSWER_FD", "3"))
while requests.readline():
    os.write(answer_fd, b'{"type":"act","action":1}\n')
