"""hh: hand histories of Chiribito, Aces Straights and Flushes, and Calatone."""

__version__ = "0.1.0"

# The modules the compiled build compiles with mypyc (setup.py reads this
# list); the rest of hh is Python in both builds.
COMPILED = (
    "hh.model",
    "hh.engine",
    "hh.validate",
    "hh.parse.lines",
    "hh.parse.fast",
    "hh.parse.hands",
    "hh.verdict",
    "hh.replay.state",
    "hh.replay.words",
    "hh.replay.seating",
    "hh.replay.forced",
    "hh.replay.dealing",
    "hh.replay.betting",
    "hh.replay.showdown",
    "hh.replay.payouts",
    "hh.replay.summary",
    "hh.replay.deck",
    "hh.replay.trace",
    "hh.replay.run",
    "hh.crosshand",
    "hh.collusion",
    "hh.output",
    "hh.read.files",
    "hh.read.places",
    "hh.read.lines",
    "hh.read.cut",
    "hh.read.runs",
    "hh.cards",
    "hh.evaluate._tables",
    "hh.evaluate.aces",
    "hh.evaluate.calatone",
    "hh.evaluate.chiribito",
    "hh.games.base",
    "hh.games.aces",
    "hh.games.calatone",
    "hh.games.chiribito",
)


def compiled_modules() -> list[str]:
    """Those of :data:`COMPILED` that run as C extensions here (found
    without importing them)."""
    from importlib.util import find_spec

    out = []
    for name in COMPILED:
        spec = find_spec(name)
        origin = spec.origin if spec is not None else None
        if origin is not None and not origin.endswith(".py"):
            out.append(name)
    return out


def build() -> str:
    """Which build of hh runs: ``compiled with mypyc`` when every module of
    :data:`COMPILED` is a C extension, ``pure Python`` when none is."""
    compiled = compiled_modules()
    if len(compiled) == len(COMPILED):
        return "compiled with mypyc"
    if compiled:
        return "partly compiled with mypyc: " + ", ".join(compiled)
    return "pure Python"
