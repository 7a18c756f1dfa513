"""herbal: Dr. Duke's Phytochemical and Ethnobotanical Databases on a read-only SQLite database."""
