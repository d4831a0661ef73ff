"""Player statistics: per-hand counts, the stat families, all-in equity,
one player in depth (docs/statistics.md).
"""
