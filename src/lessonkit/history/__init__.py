"""The learner's history: the SQLite store, its migrations, and what `history` and `list` show.

``store`` records every answer as it is given; ``database`` opens the file (WAL,
migrations, setting an unusable file aside); ``rows`` are the values the store hands
out; ``tables`` renders the `history` and `list` commands. It may import
``lessonkit.course``, ``lessonkit.grading``, ``lessonkit.bank`` and ``lessonkit.errors``.
"""
