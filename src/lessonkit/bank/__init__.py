"""The question-bank format: what a bank and a lesson's front matter may say, and reading it.

Here are the pydantic models (the single source of truth: ``models`` for each file,
``questions`` for the question types, ``fields`` for what they share), the JSON Schema
generated from them, the length limits, the positioned YAML reader (``yamldoc``, with its
``composer``, which builds values and positions from the parser's events, ``scalars``,
author-facing ``hints`` and ``textfile``, which checks a file's size and encoding
before any parse), ``loader``, which maps every validation
problem back to file:line:col, and ``richtext``, the one Markdown-to-HTML sanitiser.
It may import only ``lessonkit.errors``: everything else in lessonkit builds on it.
"""
