"""`python -m bench [--quick] [--out PATH]`: see bench.run."""

from bench.run import main

if __name__ == "__main__":
    main()
