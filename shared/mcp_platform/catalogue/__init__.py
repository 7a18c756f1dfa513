"""What is published about the tools: the registry, its generated artefact and documents, discovery."""
