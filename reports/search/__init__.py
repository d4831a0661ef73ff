"""Finding hands: the one hand search of ``hh hands`` and ``/api/hands``,
each player's hand list.
"""
