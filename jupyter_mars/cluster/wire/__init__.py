"""What supervisors and workers speak to each other: authenticated comms (``comm/``),
request/response calls over them (``rpc.py``) and the failures that cross them
(``errors.py``)."""
