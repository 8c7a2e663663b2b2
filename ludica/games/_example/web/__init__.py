"""Resources of the Ludica table (a package only so that its files are installed)."""
