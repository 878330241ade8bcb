"""``new_cluster_in_ray``: this project's supervisor and workers as Ray actors, placed by Ray.

``request`` checks the arguments (pure), ``actors`` is the actor that keeps one server as
its child process, and ``cluster`` starts, scales, re-attaches and stops them
(``RayCluster``). Ray is imported by ``cluster`` and ``actors`` only: importing this
package does not import it.
"""
