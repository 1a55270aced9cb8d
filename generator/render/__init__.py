"""Render every page of one language from the validated knowledge base, in memory.

`pages` (the page builder, `Renderer`: which pages exist, their front matter and the navigation),
`scope` (the template API of one page, `r` in the templates), `links` (back-links and where a
reference points), `values` (values and answers in words), `reasons` (an evaluation's trace in a
player's words), `ask` (the Ask panels), `export` (the JSON export), `rawhtml` (marks the blocks the
site's Markdown passes through untouched), `diagrams/` (SVG figures drawn from worked examples) and
`templates/`.
"""
