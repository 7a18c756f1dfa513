"""What every Lambda runs on: settings, logs and metrics, the service app, a container's memory."""
