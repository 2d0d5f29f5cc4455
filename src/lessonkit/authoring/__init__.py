"""Tools for authors and reviewers: the rule book, `validate`, `report`, `new` and `diff`.

``rulebook`` holds every rule that can fail a pull request, built from the checks in
``pagechecks``, ``figures`` and ``yamlstyle``; ``validate`` applies it, through
``checkcache``, which keeps the last check so only changed files are read again;
``report`` adds advice (``sections``, ``questionmix``, ``readingtime``); ``scaffold``
writes new lessons from ``templates/``; ``bankdiff`` (with ``textdiff``) shows what
changed for a reviewer. It may import ``lessonkit.course`` and the layers below it,
never the quiz, the site or the exporters.
"""
