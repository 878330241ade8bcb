"""``ray start`` for a node on loopback: ``python ray_node.py start --address=127.0.0.1:P ...``.

Ray resolves ``127.0.0.1`` to the machine's outward address unless told it runs alone
(``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``), and then refuses to add a second node. The
tests contact addresses on this machine only, so this starts the second node with its
loopback address kept as given, and Ray's own ``ray start`` otherwise unchanged.
"""

from __future__ import annotations

import sys

import ray._private.ray_constants as constants
import ray._private.services as services
from ray.scripts.scripts import main

if __name__ == "__main__":
    services.resolve_ip_for_localhost = lambda host: host  # keep 127.0.0.1 as given
    constants.ENABLE_RAY_CLUSTER = True  # a node that joins a head, on this machine
    sys.argv[0] = "ray"
    main()
