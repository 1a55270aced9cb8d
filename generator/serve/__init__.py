"""`make serve`: the live site kept in memory and updated page by page after an edit."""
