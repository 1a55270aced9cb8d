"""One module per rule family; importing this package registers every drawing."""

from . import light_infantry, scout, skirmishers

__all__ = ["light_infantry", "scout", "skirmishers"]  # named so that importing them reads as used
