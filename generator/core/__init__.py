"""Foundation with no project knowledge: problems, repository files, YAML reading, report formats, plural
selection, the disk cache and the first-run sharing of its work among the cores (`parallel`)."""
