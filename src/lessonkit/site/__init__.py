"""The lesson site: self-check blocks, what a build adds to pages, and the site's assets.

``selfcheck`` renders a bank's questions as sanitised HTML; ``build`` works out every
page's additions once per course change and caches them; ``placement`` puts them in a
page; ``assets`` shrinks lessonkit's script and stylesheet. Nothing here imports MkDocs:
the hook in ``site_overrides/hooks/`` is the only MkDocs-facing code. It may import
``lessonkit.authoring`` and the layers below it, never the quiz or the exporters.
"""
