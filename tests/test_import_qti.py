"""QTI import of what text2qti (a dev dependency) writes: equations come back as LaTeX."""

from __future__ import annotations

from pathlib import Path

from lessonkit.imports import read


def test_equation_images_come_back_as_their_latex(tmp_path: Path) -> None:
    from text2qti.config import Config
    from text2qti.qti import QTI
    from text2qti.quiz import Quiz

    text = (
        "Quiz title: Maths\n\n1.  Which of $x^2$ and $\\frac{1}{2}$ is a fraction?\n"
        "a)  $x^2$\n*b) $\\frac{1}{2}$\n"
    )
    quiz = Quiz(text, config=Config(), source_name="<maths>")
    (tmp_path / "maths.zip").write_bytes(QTI(quiz).zip_bytes())
    imported = read(tmp_path / "maths.zip", "qti")
    (fields,) = (d.fields for d in imported.drafts)
    assert fields["prompt"] == "Which of `x^2` and `\\frac{1}{2}` is a fraction?"
    assert fields["options"] == [{"text": "`x^2`"}, {"text": "`\\frac{1}{2}`", "correct": True}]
    assert [loss.what for loss in imported.losses][:1] == [
        "equation `x^2`: written as its LaTeX source in a code span; lessonkit does not "
        "typeset equations"
    ]
