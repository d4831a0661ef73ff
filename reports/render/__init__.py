"""Renderers: the catalogue of labels and formats, the terminal, the HTML
report, files (CSV, Parquet, JSON).
"""
