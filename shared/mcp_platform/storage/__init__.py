"""Storage adapters: AWS clients, DynamoDB helpers, staged files, shipped databases, secrets."""
