"""``python -m migrate`` is ``tfmigrate``."""

from migrate.cli import main

main()
