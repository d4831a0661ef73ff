"""The integrity report: per-hand facts, the pair signals and their
scoring, the evidence, its renderings (docs/integrity.md).
"""
