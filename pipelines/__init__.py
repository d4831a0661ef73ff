"""pipelines: the store. Hand histories judged by hh into DuckDB or the
Delta lake (docs/schema.md, declared in pipelines/tables.py)."""

# The modules of pipelines the compiled build compiles with mypyc, as
# hh/__init__.py's COMPILED (setup.py reads both lists): the column builder
# runs once per stored value.
COMPILED = ("pipelines.columns",)
