"""Question types: one module per type, behind one interface and one registry.

``base`` is the interface (``QuestionType``) and the run-time form every question
decodes into (``RuntimeQuestion``, a frozen record: ``frozen``); each other module is one
type (``truefalse``, …) implementing it; ``registry`` lists them and is where every
consumer asks which type does what. Pure: no files, no clock, randomness only through
an argument, neither pydantic nor PyYAML (a quiz starts without them). It may import
``lessonkit.grading``, ``lessonkit.bank`` (its light modules only) and
``lessonkit.errors``.
"""
