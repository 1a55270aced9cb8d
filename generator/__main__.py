"""`python -m generator`: see generator/cli/."""

import sys

from .cli import main

sys.exit(main())
