"""hh: hand histories of Chiribito, Aces Straights and Flushes, and Calatone."""

__version__ = "0.1.0"

# The modules setup.py compiles with mypyc when it can (its COMPILED list).
COMPILED_MODULES = ("hh.engine", "hh.validate", "hh.parse", "hh.verdict", "hh.replay.run")


def build() -> str:
    """Which build of hh runs: ``compiled with mypyc`` when the referee's hot
    modules are C extensions, ``pure Python`` when none is (found without
    importing them, so ``hh --version`` stays instant)."""
    from importlib.util import find_spec

    compiled = []
    for name in COMPILED_MODULES:
        spec = find_spec(name)
        origin = spec.origin if spec is not None else None
        compiled.append(origin is not None and not origin.endswith(".py"))
    if all(compiled):
        return "compiled with mypyc"
    if any(compiled):
        return "partly compiled with mypyc: " + ", ".join(
            name for name, c in zip(COMPILED_MODULES, compiled, strict=True) if c
        )
    return "pure Python"
