from jupyter_mars import demo


def test_demo_runs_the_seed_embedded_and_on_a_local_cluster(capsys, session):
    assert demo.main(["--size", "300", "--chunk-size", "70", "--n-cpu", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("equal to numpy.inner on the same data: True") == 2
    assert "shape (300, 300)" in out
    assert "web address: http://127.0.0.1:" in out
    (link,) = [line.split()[1] for line in out.splitlines() if "dashboard: " in line]
    assert link.startswith("http://127.0.0.1:")
    assert "login=" in link  # a one-time code, not the token
    assert "time:" in out
