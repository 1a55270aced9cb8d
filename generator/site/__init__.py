"""The site build: MkDocs configuration and hooks, raw-HTML stashing, search, the root page, publishing."""
