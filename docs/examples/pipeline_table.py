"""Tutorial 5: cycles per iteration of the loops of pipeline.S on every core (ideal memory).

Builds pipeline.S for each core with the project's toolchain, calls each loop with 100 and 200
iterations, and prints the difference divided by 100: the cost of one iteration, call and
return cancelled.
"""

from pathlib import Path

from cortexm_emu import Buffer, Machine
from cortexm_emu.toolchain import build

SOURCE = Path(__file__).with_name("pipeline.S")
CORES = ("m0", "m0plus", "m3", "m4", "m7", "m33")
LOOPS = {
    "alu_loop": "4 dependent ALU + taken branch",
    "load_loop": "4 independent loads + taken branch",
    "pairs_loop": "8 ALU in pairs + taken branch",
}


def per_iteration(machine: Machine, function: str) -> float:
    def count(n: int) -> int:
        if function == "load_loop":
            return machine.call(function, Buffer(bytes(16)), n).cycles
        return machine.call(function, n).cycles

    return (count(200) - count(100)) / 100


def main() -> None:
    print(f"{'loop':<12} {'what':<36} " + " ".join(f"{core:>7}" for core in CORES))
    machines = {}
    for core in CORES:
        machines[core] = Machine(core)
        machines[core].load_elf(build([SOURCE], core).elf)
    for function, what in LOOPS.items():
        cells = " ".join(f"{per_iteration(machines[core], function):>7g}" for core in CORES)
        print(f"{function:<12} {what:<36} {cells}")


if __name__ == "__main__":
    main()
