// placeholder (issue 7): filled in by its author
