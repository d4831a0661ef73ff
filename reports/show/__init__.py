"""``hh show``: one disputed hand found, judged again and explained
(terminal, JSON, the HTML replayer).
"""
