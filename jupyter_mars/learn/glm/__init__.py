"""Generalised linear models, as Mars's ``mars.learn.glm``; ``inputs`` holds the input
helpers this package, ``linear_model`` and ``decomposition`` share."""
