"""``python -m hh`` is the ``hh`` command."""

from hh.console import main

main()
