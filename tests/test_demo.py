from jupyter_mars import demo


def test_demo_prints_results_and_time(capsys):
    assert demo.main(["--size", "300", "--chunk-size", "70", "--n-cpu", "2"]) == 0
    out = capsys.readouterr().out
    assert "equal to numpy.inner on the same data: True" in out
    assert "shape (300, 300)" in out
    assert "time:" in out
