"""Grading's building blocks: a grade, numbers and text read as people write them, reviews.

Pure functions only: no files, no clock, no randomness (time is always an argument).
``credit`` is a grade and the ways to give full, partial or all-or-nothing credit;
``numbers`` reads a typed number; ``textmatch`` compares text as a reader expects;
``schedule`` plans reviews; ``passmark`` says pass or fail and shows a percentage that
never contradicts it. Each question type (``lessonkit.questiontypes``) grades with
these, so one answer scores the same everywhere. It may import ``lessonkit.bank`` and
``lessonkit.errors``.
"""
