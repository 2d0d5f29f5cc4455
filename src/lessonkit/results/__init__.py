"""Class results: attempt files learners share on purpose, read and analysed for authors.

``records`` is the attempts file format (pydantic models; its JSON Schema is generated
from them); ``sharing`` writes a learner's file from their history; ``intake`` reads
such files one at a time, refusing malformed or edited ones with the file and line;
``tally`` keeps what the analysis needs of each learner; ``collection`` runs the two
over a class. ``measures`` holds the statistics as pure functions, ``analysis`` turns a
class into the values of ``stats``, ``flags`` says what an author can act on, ``banks``
finds each bank's questions and lines; ``summary`` renders text and JSON, ``page`` and
``charts`` one offline HTML page. It may import ``lessonkit.history``,
``lessonkit.course``, ``lessonkit.grading``, ``lessonkit.bank`` and ``lessonkit.errors``.
"""
