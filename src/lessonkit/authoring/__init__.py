"""Tools for authors and reviewers: the rule book, `validate`, `report`, `new` and `diff`.

``rulebook`` registers every rule once, each declared beside its check (``pagechecks``,
``footnotes``, ``figures``, ``yamlstyle``, ``navigation``, ``framing``, ``freshness``,
``sections``, ``readingtime``, ``questionmix``, ``items``), and applies them at the levels a
course's ``policy`` (``lessonkit.yml``) sets, minus ``waivers``; ``validate`` applies it,
through ``checkcache``, which keeps the last check so only changed files are read again
(``fingerprint``: what that check is keyed on);
``handbook`` shows the book; ``report`` adds the counts; ``scaffold`` writes new lessons
and ``starter`` new courses from ``templates/``; ``bankdiff`` (with ``textdiff``) shows what
changed for a reviewer. It may import ``lessonkit.course`` and the layers below it, never
the quiz, the site or the exporters.
"""
