"""The course: plans, lessons and banks read together, and finding one bank fast.

``course`` reads a whole course folder and checks it across files; ``lessons`` reads
lesson and plan pages; ``catalog`` finds a bank by slug and keeps it compiled to JSON
(``cachefile``) so a quiz starts without YAML or pydantic; ``folder`` says what a
course folder is; ``day`` is the day review dates are counted from; ``invocation`` is
the command name a learner can type to run lessonkit. It may import
``lessonkit.grading``, ``lessonkit.bank`` and ``lessonkit.errors``. Modules here stay
importable cheaply: heavy imports go inside the functions that need them.
"""
