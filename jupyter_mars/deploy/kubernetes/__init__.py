"""Mars on Kubernetes: the programs a pod runs, and the launcher that creates those pods.

``python -m jupyter_mars.deploy.kubernetes.supervisor`` (``scheduler`` is the same program
under the older name), ``.worker`` and ``.web`` read their settings from the environment
a pod gets (its IP and resource limits from the downward API, the cluster token from a
Secret, the memory tuning variables a MarsJob operator sets) and start the programs of
``jupyter_mars/deploy/``.
"""
