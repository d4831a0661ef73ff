"""Build hook: compile the referee's hot modules with mypyc, wherever it can.

``pip install .`` (and ``make demo``, ``make fast``) give the compiled build:
the modules hh/__init__.py and pipelines/__init__.py list in COMPILED become C extensions (the
same source; about twice the speed), the way black ships mypyc-compiled wheels. The pure build, the
same package without the extensions, is what you get

* with ``HH_PURE=1`` in the environment,
* for an editable install (``pip install -e .``, which ``make test`` uses for
  .venv), so that an edit to the source takes effect without a rebuild,
* and, as a fallback, when mypyc or a C compiler is missing or the
  compilation fails: the extensions are optional, so a failure leaves the
  pure-Python modules in place (with a warning from setuptools).

``hh --version`` says which build runs.
"""

import ast
import os
import sys

from setuptools import setup

# The packages whose __init__.py lists the modules to compile (COMPILED).
_LISTS = ("hh", "pipelines")


def _compiled() -> list[str]:
    """The files of the modules hh/__init__.py and pipelines/__init__.py
    list in COMPILED (read, not imported: the build needs none of hh's
    dependencies)."""
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    for package in _LISTS:
        with open(os.path.join(here, package, "__init__.py")) as f:
            tree = ast.parse(f.read())
        for node in tree.body:
            if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
                "COMPILED"
            ]:
                out += [name.replace(".", "/") + ".py" for name in ast.literal_eval(node.value)]
                break
        else:
            raise SystemExit(f"setup.py: {package}/__init__.py has no COMPILED list")
    return out


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
            ext_modules = mypycify(_compiled(), opt_level="3")
        except (Exception, SystemExit) as error:  # mypyc refused (a type error): still installable
            print(f"hh: mypyc failed ({error}): building pure Python", file=sys.stderr)
            ext_modules = []
        for ext in ext_modules:
            ext.optional = True  # no C compiler, or it fails: keep the .py modules

setup(ext_modules=ext_modules)
