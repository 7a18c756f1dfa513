"""The task events function: the on-failure destination of every task-capable service function."""
