"""The contract layer: a request parsed once into frozen dataclasses (`request.py`, the one place that validates),
and the JSON Schema of requests and answers written from their types (`schema.py`)."""
