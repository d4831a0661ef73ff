"""hh: hand histories of Chiribito, Aces Straights and Flushes, and Calatone."""

__version__ = "0.1.0"
