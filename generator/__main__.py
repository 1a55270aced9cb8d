"""`python -m generator`: see generator/cli/."""

from .cli import run_and_exit

run_and_exit()
