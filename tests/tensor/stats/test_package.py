"""``mt.stats`` and ``mt.spatial.distance`` expose every public name of Mars's modules."""

import jupyter_mars.tensor as mt


def test_stats_and_distance_export_marss_names():
    assert sorted(mt.stats.__all__) == [
        "chisquare",
        "entropy",
        "ks_1samp",
        "ks_2samp",
        "power_divergence",
        "rankdata",
        "ttest_1samp",
        "ttest_ind",
        "ttest_ind_from_stats",
        "ttest_rel",
    ]
    assert sorted(mt.spatial.distance.__all__) == ["cdist", "pdist", "squareform"]
    for module in (mt.stats, mt.spatial.distance):
        for name in module.__all__:
            assert callable(getattr(module, name))
    assert "stats" in mt.__all__
    assert "spatial" in mt.__all__
