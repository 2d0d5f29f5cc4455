"""Grading: reading what a learner typed, marking it, and scheduling reviews.

Pure functions only: no files, no clock, no randomness (time is always an argument).
The quiz, the site's parity table, the exporters and the course's answer-key self-test
all grade through ``grader``, so one answer scores the same everywhere; ``passmark``
says pass or fail and shows a percentage that never contradicts it. It may import
``lessonkit.bank`` and ``lessonkit.errors``.
"""
