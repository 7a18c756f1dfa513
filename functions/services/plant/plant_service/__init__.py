"""plant: GBIF backbone names and Kew POWO distributions through the common backend client."""
