"""When the suite runs against the compiled build (``make test-fast``), it
must really be the compiled modules that run, not a pure-Python copy."""

from __future__ import annotations

import os

import pytest

import hh
import hh.engine
import hh.parse
import hh.validate


@pytest.mark.skipif(os.environ.get("HH_EXPECT_COMPILED") != "1", reason="pure-Python run")
def test_the_referee_is_compiled() -> None:
    for module in (hh.engine, hh.validate, hh.parse):
        assert module.__file__ is not None
        assert not module.__file__.endswith(".py"), module.__file__
    assert hh.build() == "compiled with mypyc"


def test_the_build_label_says_which_modules_are_compiled() -> None:
    compiled = [not (m.__file__ or "").endswith(".py") for m in (hh.engine, hh.validate, hh.parse)]
    label = hh.build()
    if all(compiled):
        assert label == "compiled with mypyc"
    elif not any(compiled):
        assert label == "pure Python"
    else:
        assert label.startswith("partly compiled with mypyc: ")
