"""The course: plans, lessons and banks read together, and finding one bank fast.

``course`` reads a whole course folder and checks it across files, one file at a
time through ``files``, each known to the others by its ``facts``, with the checks of
``crosschecks`` and each answer key through ``selftest``; ``lessons`` reads
lesson and plan pages; ``catalog`` finds a bank by slug and keeps it compiled to JSON
(``cachefile``, laid out by ``compiled`` so a quiz reads only the questions it shows)
so a quiz starts without YAML or pydantic; ``outline`` keeps what
``lessonkit list`` shows, file by file, for the same reason; ``folder`` says what a
course folder is; ``day`` is the day review dates are counted from; ``invocation`` is
the command name a learner can type to run lessonkit. It may import
``lessonkit.grading``, ``lessonkit.bank`` and ``lessonkit.errors``. Modules here stay
importable cheaply: heavy imports go inside the functions that need them.
"""
