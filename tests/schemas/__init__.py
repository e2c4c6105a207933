"""Tests of solver.schemas: every emitted JSON document against its schema."""
