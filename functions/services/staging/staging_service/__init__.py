"""staging: private, short-lived files in S3 for binary inputs and outputs."""
