"""Tools for authors and reviewers: the rule book, `validate`, `report`, `new` and `diff`.

``rulebook`` holds every rule that can fail a pull request, built from the checks in
``pagechecks``, ``figures`` and ``yamlstyle``; ``report`` adds advice (``sections``,
``questionmix``, ``readingtime``); ``scaffold`` writes new lessons from ``templates/``;
``bankdiff`` (with ``textdiff``) shows what changed for a reviewer. It may import
``lessonkit.course`` and the layers below it, never the quiz, the site or the exporters.
"""
