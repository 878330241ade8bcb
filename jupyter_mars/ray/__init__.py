"""Running on Ray: ``new_ray_session`` (chunk tasks as Ray tasks, chunks in Ray's object
store). Importing this package does not import Ray; making a session does."""

from jupyter_mars.ray.session import RaySession, new_ray_session

__all__ = ["RaySession", "new_ray_session"]
