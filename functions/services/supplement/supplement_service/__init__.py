"""The supplement service: NIH DSLD labels and ODS fact sheets through the shared backend client."""
