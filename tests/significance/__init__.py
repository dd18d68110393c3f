"""bleuprint.significance: bootstrap intervals, paired tests, corrections and clusters."""
