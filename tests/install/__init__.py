"""The release wheel (`make wheel`): installed into a fresh venv with no Rust toolchain, it passes
the installed-package smoke tests (smoke.py) and the README's first quickstart command."""
