"""One module per rule family; importing a module registers its drawings."""
