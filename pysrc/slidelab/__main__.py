"""`python -m slidelab`: the same as the `slidelab` command."""

import sys

from slidelab.cli import main

sys.exit(main())
