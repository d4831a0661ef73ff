"""Run the benchmarks: ``python -m benchmarks`` (``make bench``).

Each module listed here has a ``run()`` that prints its own figures. A module
not written yet is skipped, so the list can name benchmarks that other parts
of the project will add.
"""

from __future__ import annotations

import importlib

MODULES = [
    "benchmarks.bench_evaluate",
    "benchmarks.bench_parse",
    "benchmarks.bench_validate",
    "benchmarks.bench_simulate",
    "benchmarks.bench_report",
]


def main() -> None:
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:  # the module exists but something it needs is missing
                raise
            print(f"{name}: not present, skipped")
            continue
        print(f"== {name}")
        module.run()


if __name__ == "__main__":
    main()
