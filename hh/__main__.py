"""``python -m hh`` is the ``hh`` command."""

from hh.cli import main

main()
