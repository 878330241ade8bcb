"""The supervisor's HTTP API and dashboard, on their way out of the engine."""
