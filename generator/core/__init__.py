"""Foundation: problems, repository files, YAML reading, report formats and the disk cache; no project knowledge."""
