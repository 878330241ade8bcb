"""The supervisor's face to its clients: the HTTP API (``app.py``, under ``/api/v1``), its
checks and logins, the live stream and the dashboard, served around a supervisor
(``server.py``). It imports the supervisor; nothing under ``jupyter_mars/cluster/``
imports it."""
