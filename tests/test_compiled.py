"""When the suite runs against the compiled build (``make test-fast``), it
must really be the compiled modules that run, not a pure-Python copy."""

from __future__ import annotations

import os

import pytest

import hh.engine
import hh.validate


@pytest.mark.skipif(os.environ.get("HH_EXPECT_COMPILED") != "1", reason="pure-Python run")
def test_the_referee_is_compiled() -> None:
    for module in (hh.engine, hh.validate):
        assert module.__file__ is not None
        assert not module.__file__.endswith(".py"), module.__file__
