"""``python -m migrate`` is ``tfmigrate``."""

from migrate.entry import main

main()
