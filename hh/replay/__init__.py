"""The replay validator, split by job over one shared state.

:class:`~hh.replay.run.Replay` walks a hand line by line and hands each line
to the collaborator whose job it is, the way ``hh/games/`` splits the games:

- ``state``: the shared :class:`ReplayState` (hand, rules, engine, seats,
  faults found), built by ``seating`` from the header and seat lines;
- ``forced``: blinds, antes, top-ups;
- ``dealing``: deal lines and common cards, and their Deck slots;
- ``betting``: actions, uncalled bets, rounds that must be closed;
- ``showdown``: shows, mucks, hand values, descriptions, declarations;
- ``payouts``: rake, pots, winners, the Total pot and collected lines;
- ``summary`` and ``deck``: the summary's Board, seat and Deck lines;
- ``trace``: the per-line :class:`~hh.verdict.LineState` snapshots, and the
  light trace (:class:`~hh.verdict.ActionFigures`) the import stores;
- ``words``: how messages name cards, actions and outcomes.

``hh.validate`` is the public entry point.
"""
