"""The terminal quiz: an attempt, the loop that asks and saves, its UIs, review and `read`.

``session`` is one attempt as a value (seeded, never prints), ``summary`` sums it up;
``runner`` is `lessonkit quiz` and ``loop`` asks the questions, one at a time;
``recorder`` saves each answer at once and never drops one; ``plainui`` and ``richui``
draw it (``terminal`` picks one for the terminal at hand; ``keyboard`` reads a line, or
picks a choice with the arrow keys, and survives Ctrl-Z and resizes); ``review`` re-asks
what is missed or due; ``transcript`` shows one past attempt question by question;
``reader``, ``pagetext`` and ``markup`` show lessons and bank Markdown in a terminal.
It may import ``lessonkit.history`` and the layers below it, never authoring or the site.
"""
