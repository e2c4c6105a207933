"""Playing the game: named players, tournaments between them, and the interactive table."""
