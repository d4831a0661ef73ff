"""Reading hand-history files, knowing nothing of what a line means:
finding the files, gzip, the cut of a file into chunks at hand boundaries,
one bounded line reader, and the runs of lines that may each be a hand
(:mod:`hh.read.runs`). Parsing a run is :mod:`hh.parse`'s job.
"""
