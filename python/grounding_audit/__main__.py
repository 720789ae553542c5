"""``python -m grounding_audit ARGS``: runs the bundled binary with ARGS."""

import os
import subprocess
import sys

from . import find_binary


def main() -> int:
    binary = find_binary()
    if sys.platform == "win32":
        return subprocess.run([binary, *sys.argv[1:]]).returncode
    os.execv(binary, [binary, *sys.argv[1:]])
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
