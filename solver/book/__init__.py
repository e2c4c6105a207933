"""The solution book: canonical deals, a persistent store of their equilibria, a resumable build."""
