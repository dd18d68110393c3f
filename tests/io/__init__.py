"""bleuprint.io: line readers, streaming, tables, Arrow text columns and progress bars."""
