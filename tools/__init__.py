"""Whitelisted spreadsheet tools, their registry, and safe loading and writing of files."""
