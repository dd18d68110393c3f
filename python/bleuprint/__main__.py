"""``python -m bleuprint``: the ``bleuprint`` command line."""

import sys

from bleuprint.cli import main

if __name__ == "__main__":
    sys.exit(main())
