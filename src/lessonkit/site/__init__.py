"""The lesson site: a Python-Markdown extension that renders lessonkit's markers in pages.

``extension`` is what ``mkdocs.yml`` names; it works under MkDocs and Zensical alike, as
it needs nothing from either. ``selfcheck`` renders a bank's questions as sanitised HTML;
``blocks`` keeps each bank rendered until it changes; ``plans`` lists a plan's lessons;
``calls`` writes the install command and the call to action; ``assets`` shrinks
lessonkit's script and stylesheet after a build. Nothing here imports MkDocs except the
optional error class in ``extension``; the hook in ``hooks/`` is an MkDocs-only extra.
It may import ``lessonkit.authoring`` and the layers below it, never the quiz or exporters.
"""
