"""``python -m solver.cli``: the same as the ``quintet`` command."""

import sys

from solver.cli.main import main

sys.exit(main())
