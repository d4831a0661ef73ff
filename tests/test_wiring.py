"""The visible wiring: hh's table of commands (hh.cli.COMMANDS) and the
import's table of hooks (pipelines.hooks) resolve, every entry to what its
contract says, and ``hh --help`` lists every command; the layers above are
loaded only when asked for (docs/architecture.md)."""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
import textwrap

import pytest
import typer
import typer.main

from hh.cli import COMMANDS, CORE, registrar
from hh.helptext import App
from pipelines import hooks


def _names(app: typer.Typer) -> set[str]:
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    return set(group.commands)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_command_of_the_table_adds_that_command(name: str) -> None:
    app = App()

    @app.callback()
    def _root() -> None:
        """hh"""

    registrar(name)(app)
    assert _names(app) == {name}


def test_the_table_and_the_referee_s_commands_are_apart() -> None:
    assert not set(CORE) & set(COMMANDS)
    assert all(re.fullmatch(r"[a-z_.]+:[a-z_]+", where) for where in COMMANDS.values())


def test_hh_help_lists_every_command() -> None:
    done = subprocess.run([sys.executable, "-m", "hh", "--help"], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "120"}, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    panel = done.stdout[done.stdout.index("Commands"):]
    listed = re.findall(r"^│ ([a-z]+) ", panel, re.M)
    assert sorted(listed) == sorted([*CORE, *COMMANDS])


# Runs hh's main() with ARGS; prints which of the layers' modules were imported.
_LOADED = textwrap.dedent(
    """
    import sys
    sys.argv = ["hh", *{args!r}]
    from hh.cli import main
    try:
        main()
    except SystemExit:
        pass
    print("LOADED", *sorted(m for m in sys.modules
                            if m.partition(".")[0] in ("pipelines", "reports")))
    """
)


def _loaded(*args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", _LOADED.format(args=list(args))],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    line = [x for x in done.stdout.splitlines() if x.startswith("LOADED")][-1]
    return set(line.split()[1:])


def test_a_command_loads_only_its_own_module() -> None:
    assert _loaded("validate", "--help") == set()
    loaded = _loaded("import", "--help")
    assert "pipelines.cli" in loaded
    assert not {m for m in loaded if m.startswith("reports")}, loaded
    assert "reports.cli" not in _loaded("serve", "--help")


def _parameters(function: object) -> list[str]:
    assert callable(function)
    return [p for p in inspect.signature(function).parameters if p != "self"]


@pytest.mark.parametrize("name", sorted(hooks.DERIVERS))
def test_each_deriver_fills_the_protocol(name: str) -> None:
    hook = hooks.load(hooks.DERIVERS[name])
    assert isinstance(hook, hooks.Deriver)
    for method in ("wants", "derive", "keep"):
        assert _parameters(getattr(hook, method)) == _parameters(getattr(hooks.Deriver, method))
    assert dict(hooks.derivers())[name] is hook


@pytest.mark.parametrize("name", sorted(hooks.AFTER_IMPORT))
def test_each_after_import_hook_fills_the_protocol(name: str) -> None:
    hook = hooks.after_import_hook(name)
    assert isinstance(hook, hooks.AfterImport)
    assert _parameters(hook) == _parameters(hooks.AfterImport.__call__) == ["con", "cache",
                                                                            "stored"]
    assert inspect.signature(hook).parameters["cache"].default is None
    assert inspect.signature(hook).parameters["stored"].default is None


def test_a_wrong_hook_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(hooks.AFTER_IMPORT, "nothing", "reports.players.counts:IMPORT_BATCH")
    with pytest.raises(TypeError, match=r"nothing: reports\.players\.counts:IMPORT_BATCH is not"):
        hooks.after_import_hook("nothing")


def test_the_import_does_not_import_the_reports() -> None:
    code = ("import sys, pipelines.importer, pipelines.work, pipelines.watch, pipelines.hooks; "
            "print(sorted(m for m in sys.modules if m.partition('.')[0] == 'reports'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
