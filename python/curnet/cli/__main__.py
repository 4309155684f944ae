"""`python -m curnet.cli`: the `curnet` command."""
import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
