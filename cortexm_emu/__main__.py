import sys

from cortexm_emu.cli import main

sys.exit(main())
