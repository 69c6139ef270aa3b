"""The local-DP pages (randomized response, local frequencies): shared inputs and charts."""
