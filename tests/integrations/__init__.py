"""bleuprint.integrations: Ray and TRL, run for real."""
