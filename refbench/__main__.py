import sys

from refbench.cli import main

sys.exit(main())
