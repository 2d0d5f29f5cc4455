"""QTI import of what text2qti (a dev dependency) writes: equations come back as LaTeX."""

from __future__ import annotations

from pathlib import Path

import pytest

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


def test_an_image_text2qti_packed_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from text2qti.config import Config
    from text2qti.qti import QTI
    from text2qti.quiz import Quiz

    (tmp_path / "logo.png").write_bytes(b"not really a png")
    monkeypatch.chdir(tmp_path)
    text = (
        "Quiz title: Pics\n\n1.  Whose logo is this? ![the logo](logo.png)\n*a)  Python\nb)  Ruby\n"
    )
    quiz = Quiz(text, config=Config(), source_name=str(tmp_path / "pics.md"))
    (tmp_path / "pics.zip").write_bytes(QTI(quiz).zip_bytes())
    imported = read(tmp_path / "pics.zip", "qti")
    assert imported.drafts[0].fields["prompt"] == "Whose logo is this?"
    assert [str(loss) for loss in imported.losses] == [
        "pics.zip: Question: image `logo.png` (“the logo”) left out: the bank format holds no images"
    ]
