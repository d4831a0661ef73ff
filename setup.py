"""Build hook: compile the referee's hot modules with mypyc, wherever it can.

``pip install .`` (and ``make demo``, ``make fast``) give the compiled build:
the modules in COMPILED become C extensions (the same source; about twice
the speed), the way black ships mypyc-compiled wheels. The pure build, the
same package without the extensions, is what you get

* with ``HH_PURE=1`` in the environment,
* for an editable install (``pip install -e .``, which ``make test`` uses for
  .venv), so that an edit to the source takes effect without a rebuild,
* and, as a fallback, when mypyc or a C compiler is missing or the
  compilation fails: the extensions are optional, so a failure leaves the
  pure-Python modules in place (with a warning from setuptools).

``hh --version`` says which build runs.
"""

import os
import sys

from setuptools import setup

COMPILED = [
    "hh/model.py",
    "hh/engine.py",
    "hh/validate.py",
    "hh/parse.py",
    "hh/verdict.py",
    "hh/replay/state.py",
    "hh/replay/words.py",
    "hh/replay/seating.py",
    "hh/replay/forced.py",
    "hh/replay/dealing.py",
    "hh/replay/betting.py",
    "hh/replay/showdown.py",
    "hh/replay/payouts.py",
    "hh/replay/summary.py",
    "hh/replay/deck.py",
    "hh/replay/trace.py",
    "hh/replay/run.py",
    "hh/crosshand.py",
    "hh/output.py",
    "hh/sources.py",
    "hh/cards.py",
    "hh/evaluate/_tables.py",
    "hh/evaluate/aces.py",
    "hh/evaluate/calatone.py",
    "hh/evaluate/chiribito.py",
    "hh/games/base.py",
    "hh/games/aces.py",
    "hh/games/calatone.py",
    "hh/games/chiribito.py",
]


# Commands that need no compiled code: an editable install (PEP 660 runs
# setup.py with editable_wheel; the old way is develop) and the metadata steps
# pip runs before building (dist_info, egg_info), which mypyc would only slow.
_PURE_COMMANDS = {"editable_wheel", "develop", "dist_info", "egg_info", "sdist"}


def _wanted() -> bool:
    if os.environ.get("HH_PURE") == "1":
        return False
    return not _PURE_COMMANDS.intersection(sys.argv)


ext_modules = []
if _wanted():
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("hh: mypyc is not installed: building pure Python", file=sys.stderr)
    else:
        try:
            ext_modules = mypycify(COMPILED, opt_level="3")
        except (Exception, SystemExit) as error:  # mypyc refused (a type error): still installable
            print(f"hh: mypyc failed ({error}): building pure Python", file=sys.stderr)
            ext_modules = []
        for ext in ext_modules:
            ext.optional = True  # no C compiler, or it fails: keep the .py modules

setup(ext_modules=ext_modules)
