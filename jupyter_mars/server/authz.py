"""What the server's handlers ask Jupyter's authorizer about, shared by the cluster API
(``handlers``) and the dashboard proxy (``proxy``)."""

AUTH_RESOURCE = "mars"
"""The resource named to the authorizer: 'read' for GET, 'write' for POST and PUT."""
