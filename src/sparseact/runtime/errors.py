"""The package's own exception types.

No dependencies, so that the light modules the workflow imports to build its plan (the claims'
grids, the config checks) can raise them without importing each other.
"""

from __future__ import annotations

__all__ = ["ConfigError"]


class ConfigError(ValueError):
    """A configuration value outside what the workflow accepts; names the key."""
