"""The site build: MkDocs configuration and hooks (which install render's raw-HTML stashing), the Pagefind
index, the offline lists and service worker, the root page, and publishing into site/."""
